/**
 * The proxy's reading of a request body and its forwarding: read whole before anything is sent
 * (so that a body over the limit is refused without a call to the service), within a time limit,
 * into blocks that never hold much more than the body (one block of the declared length, else
 * blocks that grow with it), then sent to the service from those blocks: a large body without
 * another copy, a small one (1 MiB at most) copied once. So a body takes at most 1 MiB more than
 * its size while it is held.
 * Internal: not exported from the package.
 */

/** The smallest block a body without a declared length is read into. */
const MIN_BLOCK_BYTES = 16 * 1024;
/**
 * The largest block after the first (bytes); a body of at most this size is also sent as a `Blob`
 * (one copy, with its length in every runtime), a larger one as a stream of its blocks.
 */
export const MAX_BLOCK_BYTES = 1024 * 1024;

/** What reading a request body came to. */
export type BodyRead =
  | { kind: 'read'; body: ForwardBody }
  | { kind: 'too-large' }
  | { kind: 'timed-out' }
  /** The stream failed: the caller went away, or the body could not be read. */
  | { kind: 'failed' };

/** A body read whole: `data` is passed to `fetch` (a stream needs `duplex: 'half'` and its `content-length`); `size` in bytes. */
export interface ForwardBody {
  data: Blob | ReadableStream<Uint8Array>;
  size: number;
}

/** Blocks that grow with what is appended: unused, at most an eighth of what was read (16 KiB to 1 MiB). */
class Blocks {
  readonly #full: Uint8Array<ArrayBuffer>[] = [];
  #current: Uint8Array<ArrayBuffer>;
  #used = 0;
  readonly #limit: number;
  /** Bytes appended. */
  size = 0;

  constructor(first: number, limit: number) {
    this.#current = new Uint8Array(first);
    this.#limit = limit;
  }

  /** Append `chunk`; false, appending nothing, when the body would exceed the limit. */
  append(chunk: Uint8Array): boolean {
    if (this.size + chunk.byteLength > this.#limit) return false;
    let at = 0;
    while (at < chunk.byteLength) {
      if (this.#used === this.#current.byteLength) {
        this.#full.push(this.#current);
        const next = Math.min(Math.max(MIN_BLOCK_BYTES, Math.floor(this.size / 8)), MAX_BLOCK_BYTES);
        this.#current = new Uint8Array(Math.min(next, this.#limit - this.size));
        this.#used = 0;
      }
      const n = Math.min(chunk.byteLength - at, this.#current.byteLength - this.#used);
      this.#current.set(chunk.subarray(at, at + n), this.#used);
      this.#used += n;
      this.size += n;
      at += n;
    }
    return true;
  }

  /** The body: a `Blob` when small, else a stream of its blocks that lets go of each once it is sent. */
  finish(): ForwardBody {
    const blocks = [...this.#full, this.#current.subarray(0, this.#used)].filter((b) => b.byteLength > 0);
    if (this.size <= MAX_BLOCK_BYTES) return { data: new Blob(blocks), size: this.size };
    // a block of the declared length is sent in views of it, so that a slow service is not handed it at once
    const parts = blocks.flatMap((b) => {
      const views: Uint8Array[] = [];
      for (let at = 0; at < b.byteLength; at += MAX_BLOCK_BYTES) views.push(b.subarray(at, at + MAX_BLOCK_BYTES));
      return views;
    });
    const stream = new ReadableStream<Uint8Array>(
      {
        pull(controller) {
          const next = parts.shift();
          if (next === undefined) controller.close();
          else controller.enqueue(next);
        },
        cancel() {
          parts.length = 0;
        },
      },
      { highWaterMark: 0 },
    );
    return { data: stream, size: this.size };
  }
}

/**
 * Read `body` whole: at most `maxBytes` (more: `too-large`, read no further) within `timeoutMs`
 * milliseconds of the start (else `timed-out`). `declaredBytes` (a `Content-Length` within the
 * limit) sizes the first block. The stream is cancelled whenever reading stops before its end.
 */
export async function readBody(
  body: ReadableStream<Uint8Array> | null,
  options: { maxBytes: number; timeoutMs: number; declaredBytes: number | undefined },
): Promise<BodyRead> {
  if (body === null) return { kind: 'read', body: { data: new Blob([]), size: 0 } };
  const { maxBytes, timeoutMs, declaredBytes } = options;
  const first =
    declaredBytes !== undefined && declaredBytes > 0 && declaredBytes <= maxBytes
      ? declaredBytes
      : Math.min(MIN_BLOCK_BYTES, maxBytes);
  const blocks = new Blocks(first, maxBytes);
  const reader = body.getReader();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    void reader.cancel(new Error(`the request body did not arrive within ${timeoutMs} ms`)).catch(() => undefined);
  }, timeoutMs);
  let finished = false;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (timedOut) return { kind: 'timed-out' };
      if (done) {
        finished = true;
        return { kind: 'read', body: blocks.finish() };
      }
      if (!blocks.append(value)) return { kind: 'too-large' };
    }
  } catch {
    return timedOut ? { kind: 'timed-out' } : { kind: 'failed' };
  } finally {
    clearTimeout(timer);
    if (!finished && !timedOut) void reader.cancel().catch(() => undefined); // too large or failed: read no further
    reader.releaseLock();
  }
}
