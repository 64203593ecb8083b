/**
 * The one capped body reader of the runtime (responses in `http.ts`, outputs in `outputs.ts`, request and upstream bodies in the
 * proxy) and of refresh (fetched model objects): never more than `limit` bytes in memory.
 */

/**
 * Read at most `limit` bytes of a body. `bytes` is undefined when the body is larger (and `cut` is
 * false); with `cut`, the first `limit` bytes and `truncated: true`. Rejects when the stream errors
 * (an aborted upload, a timed-out call). The stream is cancelled whenever reading stops before its end.
 */
export async function readLimited(
  body: ReadableStream<Uint8Array> | null,
  limit: number,
  cut = false,
): Promise<{ bytes: Uint8Array<ArrayBuffer> | undefined; truncated: boolean }> {
  if (!body) return { bytes: new Uint8Array(0), truncated: false };
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  let truncated = false;
  let finished = false;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) {
        finished = true;
        break;
      }
      if (size + value.byteLength > limit) {
        if (!cut) return { bytes: undefined, truncated: true };
        chunks.push(value.subarray(0, limit - size));
        size = limit;
        truncated = true;
        break;
      }
      size += value.byteLength;
      chunks.push(value);
    }
  } finally {
    if (!finished) void reader.cancel().catch(() => undefined); // cut, too large, or failed: release the connection
    reader.releaseLock();
  }
  const out = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.byteLength;
  }
  return { bytes: out, truncated };
}

/**
 * A response body as text, at most `limit` bytes: beyond it either cut it (`cut`, for error bodies; the
 * text as read, with `truncated: true`) or stop reading and resolve to undefined (the caller throws
 * `ResponseTooLargeError`). The connection is released either way.
 */
export async function readText(
  res: Response,
  limit: number,
  cut: boolean,
): Promise<{ text: string; truncated: boolean } | undefined> {
  const body = res.body;
  if (!body) return { text: '', truncated: false };
  const declared = Number(res.headers.get('content-length') ?? NaN);
  const encoded = (res.headers.get('content-encoding') ?? 'identity').toLowerCase() !== 'identity';
  if (!encoded && Number.isFinite(declared)) {
    // A declared length within the limit is enforced by the runtime's HTTP parser.
    if (declared <= limit) return { text: await res.text(), truncated: false };
    if (!cut) {
      void body.cancel().catch(() => undefined);
      return undefined;
    }
  }
  const { bytes, truncated } = await readLimited(body, limit, cut);
  return bytes && { text: new TextDecoder().decode(bytes), truncated };
}
