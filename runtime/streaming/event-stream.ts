/**
 * The `/api/events` stream (`EventStream`): SSE read with `sse.ts` (an event-size cap and an idle
 * timeout), each message turned into a typed event. The shared, reconnecting connection of
 * `queue.run` is in `queue/shared-event-stream.ts`.
 */
import type { EventSourceMessage } from 'eventsource-parser';
import { APIError, ConnectionError, MAX_ERROR_BODY_BYTES, SDKError } from '../errors.ts';
import { readText } from '../internal/read-limited.ts';
import { eventsStream } from '../operations.ts';
import type { CallScope, RequestOptions } from '../scope.ts';
import type { Transport } from '../transport.ts';
import type { AnyServerEvent, ServerEvent } from '../types.ts';
import { sseBatches } from './sse.ts';

/**
 * Turn one SSE message into an event: `data` parsed as JSON when it is JSON, else the raw string.
 * A malformed `media_generation_completed` (no JSON object with a string `generation_id`) is
 * dropped (undefined), as is every other event type unless `allEvents`.
 */
export function toServerEvent(m: EventSourceMessage, allEvents: boolean): AnyServerEvent | undefined {
  const event = m.event ?? 'message';
  const completion = event === 'media_generation_completed';
  if (!completion && !allEvents) return undefined;
  let data: unknown = m.data;
  try {
    data = JSON.parse(m.data);
  } catch {
    if (completion) return undefined;
  }
  if (
    completion &&
    (!data || typeof data !== 'object' || typeof (data as { generation_id?: unknown }).generation_id !== 'string')
  )
    return undefined;
  return m.id === undefined ? { event, data } : { event, data, id: m.id };
}

/** How an `EventStream` reads. */
export interface EventStreamSettings {
  /** Yield every event type (`AnyServerEvent`), not only the documented ones. */
  allEvents?: boolean | undefined;
  /** The transport's `eventStreamIdleTimeoutMs`. */
  idleTimeoutMs?: number | undefined;
  /** The transport's `maxResponseBytes`, per event. */
  maxEventBytes?: number | undefined;
  /** Called for every chunk of bytes received (keep-alive comments included). */
  onActivity?: (() => void) | undefined;
}

// Method and path from the operations table (`specs/openapi.yaml`).
const EVENTS_REQUEST = { method: eventsStream.method, path: eventsStream.path };

/**
 * One open connection to `GET /api/events`, already past its response headers (so anything
 * emitted from now on is delivered). Iterate it once with `for await`; `close()` ends it (the
 * iteration then finishes normally).
 *
 * Yields `ServerEvent`s (`media_generation_completed`, typed), or with `allEvents` every event
 * (`AnyServerEvent`, other types with `data` parsed as JSON or the raw string). Keep-alive
 * comments are not yielded; a malformed `media_generation_completed` is dropped.
 *
 * Iteration ends when the server closes the stream or `close()` is called.
 * @throws (from iteration) `ConnectionError` when the connection drops or stays silent (not even a
 * keep-alive) for longer than the idle timeout; `ResponseTooLargeError` for an event beyond the
 * size cap; `AbortError` / `TimeoutError` when the caller's `signal` / `timeoutMs` ends it.
 */
export class EventStream<E extends AnyServerEvent = ServerEvent> implements AsyncIterable<E> {
  private closed = false;
  private used = false;

  constructor(
    private readonly response: Response,
    private readonly scope: CallScope,
    private readonly settings: EventStreamSettings = {},
  ) {}

  /** End the stream and release the connection. Idempotent. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.scope.abort();
    this.scope.dispose();
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<E, void, undefined> {
    const batches = this.batches();
    if (!batches) return;
    const all = this.settings.allEvents === true;
    try {
      for await (const batch of batches)
        for (const m of batch) {
          if (this.closed) return; // close() takes effect even for messages already received
          if (this.scope.signal.aborted) throw this.scope.endError('GET /api/events');
          const ev = toServerEvent(m, all);
          if (ev) yield ev as E;
        }
    } catch (err) {
      const error = this.failure(err);
      if (error) throw error;
    } finally {
      this.close();
    }
  }

  /**
   * Call `onEvent` with each event, as the iteration would yield it, until the stream ends (then
   * it resolves) or fails (it rejects with the iteration's errors): for a consumer that handles
   * each event at once (the queue's shared stream), with one promise per chunk read instead of
   * one per event. `onEvent` must not throw. It uses the stream up, as an iteration does.
   */
  async forEach(onEvent: (event: E) => void): Promise<void> {
    const batches = this.batches();
    if (!batches) return;
    const all = this.settings.allEvents === true;
    try {
      for await (const batch of batches) {
        for (let i = 0; i < batch.length; i++) {
          const m = batch[i]!;
          if (this.closed) return;
          if (this.scope.signal.aborted) throw this.scope.endError('GET /api/events');
          const ev = toServerEvent(m, all);
          if (ev) onEvent(ev as E);
        }
      }
    } catch (err) {
      const error = this.failure(err);
      if (error) throw error;
    } finally {
      this.close();
    }
  }

  /** The body's SSE messages, one array per chunk (read once; undefined when there is no body: the stream is then closed). */
  private batches(): AsyncGenerator<EventSourceMessage[], void, undefined> | undefined {
    if (this.used) throw new SDKError('An EventStream can be iterated only once');
    this.used = true;
    const body = this.response.body;
    if (!body) {
      this.close();
      return undefined;
    }
    return sseBatches(body, {
      onActivity: this.settings.onActivity,
      idleTimeoutMs: this.settings.idleTimeoutMs,
      maxEventBytes: this.settings.maxEventBytes,
      request: EVENTS_REQUEST,
    });
  }

  /** What a read's error becomes: nothing after `close()`, the scope's end, the service's error, else a `ConnectionError`. */
  private failure(err: unknown): Error | undefined {
    if (this.closed) return undefined;
    if (this.scope.signal.aborted) return this.scope.endError('GET /api/events', err);
    if (err instanceof APIError) return err;
    return new ConnectionError(
      `The event stream (GET /api/events) was interrupted: ${err instanceof Error ? err.message : String(err)}`,
      {
        request: EVENTS_REQUEST,
        cause: err,
        redactor: this.scope.redactor,
      },
    );
  }
}

/** Options of `events.connect` / `events.stream`. */
export interface EventStreamOptions extends RequestOptions {
  /**
   * Yield every event type, not only `media_generation_completed` (default false). Other event
   * types are not documented; they come as `OtherServerEvent` (narrow with `isMediaGenerationCompleted`).
   */
  allEvents?: boolean | undefined;
}

/**
 * The content type of a stream response: an error unless `text/event-stream` (the stream is then
 * released, after reading at most 64 KiB of it for the error's body).
 * @throws APIError naming `what` and the content type received.
 */
export async function expectEventStream(
  response: Response,
  scope: CallScope,
  request: { method: string; path: string },
  what: string,
): Promise<void> {
  const type = response.headers.get('content-type') ?? '';
  if (type.toLowerCase().includes('text/event-stream')) return;
  const redactor = scope.redactor;
  // (with `cut`, a body is never too large: it is cut)
  const read = (await readText(response, MAX_ERROR_BODY_BYTES, true).catch(() => undefined)) ?? {
    text: '',
    truncated: false,
  };
  scope.abort();
  scope.dispose();
  throw new APIError(`Expected a text/event-stream answer to ${what}, got ${type || 'no content type'}`, {
    status: response.status,
    body: read.truncated && redactor ? redactor.cutText(read.text) : read.text,
    headers: response.headers,
    request,
    redactor,
  });
}

/**
 * Connect to `GET /api/events` through `t` and resolve once the response headers arrived (from
 * then on every event is delivered). `timeoutMs` covers only the connection; connecting is
 * retried like a GET (`maxRetries`). The stream uses the transport's idle timeout and size cap.
 * @throws AuthenticationError, ConnectionError, TimeoutError, AbortError, APIError (not an event stream).
 */
export async function openEventStream<E extends AnyServerEvent = ServerEvent>(
  t: Transport,
  options: EventStreamOptions = {},
  onActivity?: () => void,
): Promise<EventStream<E>> {
  const { allEvents, ...rest } = options;
  const { response, scope } = await t.openStream(EVENTS_REQUEST, rest, true);
  await expectEventStream(response, scope, EVENTS_REQUEST, `${EVENTS_REQUEST.method} ${EVENTS_REQUEST.path}`);
  return new EventStream<E>(response, scope, {
    allEvents,
    idleTimeoutMs: t.settings.eventStreamIdleTimeoutMs,
    maxEventBytes: t.settings.maxResponseBytes,
    onActivity,
  });
}
