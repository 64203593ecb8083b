/**
 * Server-sent events, generic: reads a `ReadableStream` of SSE with eventsource-parser into
 * messages, each bounded by the bytes since the last dispatched event (comments included) and the
 * parser's `maxBufferSize`, with an idle timeout. Used by the `/api/events` stream
 * (`event-stream.ts`) and streamed chat completions (`chat/stream.ts`). Only `ReadableStream` and
 * `TextDecoder` are used (Node 20+, Deno, Bun, browsers).
 */
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { ConnectionError } from '../errors.ts';
import { ResponseTooLargeError } from '../error-classes.ts';
import { startTimer } from '../internal/timer.ts';

/** How `sseBatches` reads a stream. Times in milliseconds. */
export interface SseReadOptions {
  /** Called for every chunk of bytes read (keep-alive comments included). */
  onActivity?: (() => void) | undefined;
  /** Fail with `ConnectionError` when one read waits longer than this (0 or undefined: never). */
  idleTimeoutMs?: number | undefined;
  /**
   * Fail with `ResponseTooLargeError` when one event grows beyond this many bytes: the bytes read
   * since the end of the last event (a blank line), comments included.
   */
  maxEventBytes?: number | undefined;
  /** The request, for error messages. */
  request: { method: string; path: string };
}

/** Line feed and carriage return: the only bytes that end an SSE line (never part of a multi-byte UTF-8 character). */
const LF = 0x0a;
const CR = 0x0d;

/**
 * How many bytes of `chunk` follow its last blank line (the end of an event), or -1 when it has
 * none. `previous` is the last byte of the chunk before (a blank line may span two chunks). Two
 * line-ending bytes in a row end a blank line, except CR LF (one line ending).
 */
export function bytesAfterLastBlankLine(chunk: Uint8Array, previous: number | undefined): number {
  for (let i = chunk.length - 1; i >= 0; i--) {
    const b = chunk[i]!;
    if (b !== LF && b !== CR) continue;
    const before = i > 0 ? chunk[i - 1] : previous;
    if ((before === LF || before === CR) && !(before === CR && b === LF)) return chunk.length - 1 - i;
    if (before === CR && b === LF) {
      // CR LF: a blank line when another line ending precedes it.
      const earlier = i > 1 ? chunk[i - 2] : i === 1 ? previous : undefined;
      if (earlier === LF || earlier === CR) return chunk.length - 1 - i;
    }
  }
  return -1;
}

/**
 * The SSE messages of a response body, parsed by eventsource-parser, one array per chunk read (the
 * messages that chunk completed, never empty): a consumer that handles each message at once (the
 * queue's shared event stream) pays one promise per chunk instead of one per message. Comments
 * (the server's `: keep-alive` lines) are not yielded, but count as activity. Each event is bounded
 * by `maxEventBytes`: the bytes since the end of the last event (comments included), and the
 * parser's own buffer (`maxBufferSize`), so that neither comments interleaved with `data:` lines
 * nor a line that never ends can grow it.
 * @throws ConnectionError when a read waited longer than `idleTimeoutMs` (the connection is then
 * released); ResponseTooLargeError when one event exceeds `maxEventBytes`; the read's own error.
 */
export async function* sseBatches(
  body: ReadableStream<Uint8Array>,
  options: SseReadOptions,
): AsyncGenerator<EventSourceMessage[], void, undefined> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  const maxEventBytes = options.maxEventBytes ?? Infinity;
  let pending: EventSourceMessage[] = [];
  let overflow = false; // the parser's buffer went beyond maxBufferSize
  const parser = createParser({
    onEvent: (m) => void pending.push(m),
    onError: (err) => {
      if (err.type === 'max-buffer-size-exceeded') overflow = true;
    },
    // Characters, each at least one byte: never more than maxEventBytes of UTF-8.
    maxBufferSize: Number.isFinite(maxEventBytes) ? maxEventBytes : undefined,
  });
  const idleMs = options.idleTimeoutMs ?? 0;
  const { method, path } = options.request;
  let partialBytes = 0; // bytes since the end of the last event
  let lastByte: number | undefined;
  let finished = false;
  const tooLarge = () =>
    new ResponseTooLargeError(
      `An event of ${method} ${path} is larger than maxResponseBytes (${maxEventBytes} bytes); the SDK stopped reading the stream`,
      {
        request: options.request,
        limitBytes: maxEventBytes,
      },
    );
  try {
    for (;;) {
      let idle = false;
      const cancelIdle =
        idleMs > 0 && idleMs !== Infinity
          ? startTimer(idleMs, () => {
              idle = true;
              void reader.cancel().catch(() => undefined);
            })
          : undefined;
      let result: ReadableStreamReadResult<Uint8Array>;
      try {
        result = await reader.read();
      } finally {
        cancelIdle?.();
      }
      if (idle) {
        throw new ConnectionError(
          `The event stream (${method} ${path}) was silent for more than ${idleMs} ms (the service sends a keep-alive every 15 s when idle): the connection is presumed dead`,
          { request: options.request },
        );
      }
      if (result.done) break;
      options.onActivity?.();
      const chunk = result.value;
      if (chunk.byteLength === 0) continue;
      const after = bytesAfterLastBlankLine(chunk, lastByte);
      partialBytes = after < 0 ? partialBytes + chunk.byteLength : after;
      lastByte = chunk[chunk.byteLength - 1];
      if (!overflow) parser.feed(decoder.decode(chunk, { stream: true }));
      if (pending.length > 0) {
        const batch = pending;
        pending = [];
        yield batch; // the events completed before the one too large
      }
      if (overflow || partialBytes > maxEventBytes) throw tooLarge();
    }
    const rest = decoder.decode();
    if (rest) parser.feed(rest);
    if (pending.length > 0) yield pending;
    finished = true;
  } finally {
    if (!finished) await reader.cancel().catch(() => undefined);
    reader.releaseLock();
  }
}
