/**
 * Server-sent events: parsing (eventsource-parser), the `/api/events` stream, streaming chat
 * completions, and the shared, reference-counted, reconnecting event connection that
 * `queue.run` uses. Only `ReadableStream` and `TextDecoder` are used (Node 20+, Deno, Bun, browsers).
 */
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import pRetry from 'p-retry';
import { AbortError, APIError, ConnectionError, messageFromBody, SDKError } from './errors.ts';
import type { CallScope } from './http.ts';
import { backoffDelay, isFatalStatus, sleep } from './retry.ts';
import type { ChatCompletionChunk, ServerEvent } from './types.ts';

/**
 * The SSE messages of a response body, parsed by eventsource-parser. Comments (the server's
 * `: keep-alive` lines) are not yielded; `onActivity` is called for every chunk of bytes read,
 * comments included (used to detect a silent connection).
 */
export async function* sseMessages(body: ReadableStream<Uint8Array>, onActivity?: () => void): AsyncGenerator<EventSourceMessage, void, undefined> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let pending: EventSourceMessage[] = [];
  const parser = createParser({ onEvent: (m) => void pending.push(m) });
  let finished = false;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      onActivity?.();
      parser.feed(decoder.decode(value, { stream: true }));
      if (pending.length > 0) {
        const batch = pending;
        pending = [];
        for (const m of batch) yield m;
      }
    }
    const rest = decoder.decode();
    if (rest) parser.feed(rest);
    for (const m of pending) yield m;
    finished = true;
  } finally {
    if (!finished) await reader.cancel().catch(() => undefined);
    reader.releaseLock();
  }
}

/** Turn one SSE message into a `ServerEvent`: `data` parsed as JSON when it is JSON, else the raw string. */
export function toServerEvent(m: EventSourceMessage): ServerEvent | undefined {
  const event = m.event ?? 'message';
  let data: unknown = m.data;
  try {
    data = JSON.parse(m.data);
  } catch {
    if (event === 'media_generation_completed') return undefined; // malformed: dropped (see Events.stream)
  }
  if (event === 'media_generation_completed' && (!data || typeof data !== 'object' || typeof (data as { generation_id?: unknown }).generation_id !== 'string')) return undefined;
  return (m.id === undefined ? { event, data } : { event, data, id: m.id }) as ServerEvent;
}

/**
 * One open connection to `GET /api/events`, already past its response headers (so anything
 * emitted from now on is delivered). Iterate it once with `for await`; `close()` ends it (the
 * iteration then finishes normally).
 *
 * Yields `ServerEvent`s: `media_generation_completed` typed, any other event type passed through
 * with its `data` parsed as JSON (or the raw string). Keep-alive comments are not yielded; a
 * malformed `media_generation_completed` (no JSON object with a `generation_id`) is dropped.
 *
 * Iteration ends when the server closes the stream or `close()` is called.
 * @throws (from iteration) `ConnectionError` when the connection drops, `AbortError` when the
 * caller's `signal` aborts.
 */
export class EventStream implements AsyncIterable<ServerEvent> {
  private closed = false;
  private used = false;

  constructor(
    private readonly response: Response,
    private readonly scope: CallScope,
    private readonly onActivity?: () => void,
  ) {}

  /** End the stream and release the connection. Idempotent. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.scope.abort();
    this.scope.dispose();
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<ServerEvent, void, undefined> {
    if (this.used) throw new SDKError('An EventStream can be iterated only once');
    this.used = true;
    const body = this.response.body;
    if (!body) return this.close();
    try {
      for await (const m of sseMessages(body, this.onActivity)) {
        if (this.closed) return; // close() takes effect even for messages already received
        if (this.scope.signal.aborted) throw this.scope.endError('GET /api/events');
        const ev = toServerEvent(m);
        if (ev) yield ev;
      }
    } catch (err) {
      if (this.closed) return;
      if (this.scope.signal.aborted) throw this.scope.endError('GET /api/events', err);
      throw new ConnectionError(`The event stream (GET /api/events) was interrupted: ${err instanceof Error ? err.message : String(err)}`, {
        request: { method: 'GET', path: '/api/events' },
        cause: err,
      });
    } finally {
      this.close();
    }
  }
}

/**
 * The result of `chat.completions.create({ ..., stream: true })`: an async iterable of
 * `ChatCompletionChunk`, ending at the server's `data: [DONE]`. Iterate it once. `abort()` (or the
 * call's `signal`) stops it; breaking out of `for await` releases the connection. The call's
 * `timeoutMs` covers the whole stream.
 * @throws (from iteration) `APIError` when the server sends an error object in the stream,
 * `ConnectionError` when the connection drops or the stream ends before `[DONE]`,
 * `TimeoutError`, `AbortError`.
 */
export class ChatCompletionStream implements AsyncIterable<ChatCompletionChunk> {
  private used = false;
  private aborted = false;

  constructor(
    private readonly response: Response,
    private readonly scope: CallScope,
  ) {}

  /** Stop the stream; a pending or later iteration step throws `AbortError`. */
  abort(): void {
    this.aborted = true;
    this.scope.abort();
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<ChatCompletionChunk, void, undefined> {
    if (this.used) throw new SDKError('A ChatCompletionStream can be iterated only once');
    this.used = true;
    const request = { method: 'POST', path: '/api/ai/chat/completions' };
    const body = this.response.body;
    let done = false;
    try {
      if (!body) throw new ConnectionError('The chat stream has no body', { request });
      for await (const m of sseMessages(body)) {
        // abort() and the signal take effect even for chunks already received.
        if (this.aborted) throw new AbortError('The chat stream was aborted');
        if (this.scope.signal.aborted) throw this.scope.endError('POST /api/ai/chat/completions');
        if (m.data === '[DONE]') {
          done = true;
          return;
        }
        let chunk: unknown;
        try {
          chunk = JSON.parse(m.data);
        } catch (err) {
          throw new APIError('Invalid JSON in a chat stream chunk', { status: this.response.status, body: m.data, request, cause: err });
        }
        if (chunk && typeof chunk === 'object' && 'error' in chunk && (chunk as { error: unknown }).error) {
          throw new APIError(messageFromBody(chunk, 'The chat stream reported an error'), { status: this.response.status, body: chunk, request });
        }
        yield chunk as ChatCompletionChunk;
      }
      throw new ConnectionError('The chat stream ended before data: [DONE]', { request });
    } catch (err) {
      if (err instanceof APIError || err instanceof AbortError) throw err;
      if (this.aborted) throw new AbortError('The chat stream was aborted', { cause: err });
      if (this.scope.signal.aborted) throw this.scope.endError('POST /api/ai/chat/completions', err);
      throw new ConnectionError(`The chat stream was interrupted: ${err instanceof Error ? err.message : String(err)}`, { request, cause: err });
    } finally {
      if (!done) this.scope.abort(); // the consumer stopped early, or an error: release the connection
      this.scope.dispose();
    }
  }
}

// ---------------------------------------------------------------------------------------------
// The shared event connection

/** What a subscriber of `SharedEventStream` is told. Handlers must not throw. */
export interface SharedEventListener {
  /** An event of the stream. */
  onEvent(event: ServerEvent): void;
  /** The connection is up (response headers arrived). `epoch` counts connections; `reconnected` after a drop. */
  onUp(info: { epoch: number; reconnected: boolean }): void;
  /** The connection dropped (it will reconnect while subscribers remain). Events emitted until it is up again are lost. */
  onDown(error: unknown): void;
  /**
   * A connection attempt failed. `fatal` (a 4xx other than 408/429, e.g. 401): the stream stops
   * trying and every subscriber should give up; otherwise it retries with backoff.
   */
  onConnectError(error: unknown, info: { consecutiveFailures: number; fatal: boolean }): void;
}

/** Options of `SharedEventStream`. Times in milliseconds. */
export interface SharedEventStreamOptions {
  /** Open one connection (one attempt, no retries), resolved once the response headers arrived. */
  open: (signal: AbortSignal, onActivity: () => void) => Promise<EventStream>;
  /** Base of the jittered exponential reconnect backoff. */
  baseDelayMs: number;
  /** Upper bound of one reconnect delay. */
  maxDelayMs: number;
  /** Reconnect when nothing (not even a keep-alive comment) arrived for this long. 0 disables. */
  idleTimeoutMs: number;
}

/**
 * One `/api/events` connection shared by its subscribers, reference-counted: it connects when the
 * first subscriber arrives, reconnects with jittered backoff when it drops, and closes when the
 * last one leaves. There is no replay: events emitted while it is down are lost (the service does
 * not buffer), which subscribers learn through `onDown`/`onUp`.
 */
export class SharedEventStream {
  private readonly listeners = new Set<SharedEventListener>();
  private ctrl: AbortController | undefined;
  /** `idle` (no subscriber), `connecting`, `up`, or `down` (waiting to reconnect). */
  state: 'idle' | 'connecting' | 'up' | 'down' = 'idle';
  /** Number of connections established so far (increases at each connect and reconnect). */
  epoch = 0;

  constructor(private readonly options: SharedEventStreamOptions) {}

  /** Number of current subscribers. */
  get subscribers(): number {
    return this.listeners.size;
  }

  /** Start connecting again when subscribers remain but the stream stopped (after a fatal error). */
  restart(): void {
    if (this.listeners.size > 0 && !this.ctrl) {
      const ctrl = new AbortController();
      this.ctrl = ctrl;
      void this.loop(ctrl);
    }
  }

  /** Add a subscriber (connecting if it is the first). Returns the function that removes it (closing the connection if it was the last). */
  subscribe(listener: SharedEventListener): () => void {
    this.listeners.add(listener);
    if (!this.ctrl) {
      const ctrl = new AbortController();
      this.ctrl = ctrl;
      void this.loop(ctrl);
    }
    let removed = false;
    return () => {
      if (removed) return;
      removed = true;
      this.listeners.delete(listener);
      if (this.listeners.size === 0 && this.ctrl) {
        this.ctrl.abort();
        this.ctrl = undefined;
        this.state = 'idle';
      }
    };
  }

  private each(f: (l: SharedEventListener) => void): void {
    for (const l of [...this.listeners]) {
      try {
        f(l);
      } catch {
        /* a listener's bug must not stop the stream */
      }
    }
  }

  private async loop(ctrl: AbortController): Promise<void> {
    const current = () => this.ctrl === ctrl && !ctrl.signal.aborted;
    let everUp = false;
    let flaps = 0;
    while (current()) {
      this.state = 'connecting';
      let lastActivity = Date.now();
      const onActivity = () => {
        lastActivity = Date.now();
      };
      let consecutiveFailures = 0;
      let stream: EventStream;
      try {
        stream = await pRetry(() => this.options.open(ctrl.signal, onActivity), {
          retries: Infinity,
          factor: 2,
          minTimeout: this.options.baseDelayMs,
          maxTimeout: this.options.maxDelayMs,
          randomize: true,
          signal: ctrl.signal,
          onFailedAttempt: ({ error }) => {
            if (!current()) return;
            consecutiveFailures++;
            const fatal = isFatalStatus(error);
            this.each((l) => l.onConnectError(error, { consecutiveFailures, fatal }));
          },
          shouldRetry: ({ error }) => current() && !isFatalStatus(error) && !(error instanceof AbortError),
        });
      } catch {
        // Aborted (no subscriber left) or fatal (subscribers were told and give up).
        if (this.ctrl === ctrl) {
          this.ctrl = undefined;
          this.state = 'idle';
        }
        return;
      }
      if (!current()) {
        stream.close();
        return;
      }
      this.epoch++;
      this.state = 'up';
      const epoch = this.epoch;
      const reconnected = everUp;
      everUp = true;
      this.each((l) => l.onUp({ epoch, reconnected }));
      const openedAt = Date.now();
      lastActivity = openedAt;
      let idle = false;
      const idleMs = this.options.idleTimeoutMs;
      const watchdog =
        idleMs > 0
          ? setInterval(() => {
              if (Date.now() - lastActivity > idleMs) {
                idle = true;
                stream.close();
              }
            }, Math.max(10, Math.min(idleMs / 2, 5_000)))
          : undefined;
      let error: unknown;
      try {
        for await (const ev of stream) {
          if (!current()) break;
          this.each((l) => l.onEvent(ev));
        }
        error = idle
          ? new ConnectionError(`The event stream was silent for more than ${idleMs} ms`, { request: { method: 'GET', path: '/api/events' } })
          : new ConnectionError('The event stream was closed by the server', { request: { method: 'GET', path: '/api/events' } });
      } catch (err) {
        error = err;
      } finally {
        if (watchdog !== undefined) clearInterval(watchdog);
        stream.close();
      }
      if (!current()) return;
      this.state = 'down';
      this.each((l) => l.onDown(error));
      flaps = Date.now() - openedAt > 10_000 ? 0 : flaps + 1;
      try {
        await sleep(backoffDelay(Math.max(0, flaps - 1), this.options.baseDelayMs, this.options.maxDelayMs), ctrl.signal);
      } catch {
        return;
      }
    }
  }
}
