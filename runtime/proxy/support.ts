/**
 * Helpers of the server-side proxy (`handler.ts`): its JSON error answers, the redaction of an error
 * body before it is cut, the Origin policy and the stream wrapper that ends the upstream call's
 * timer. Internal: not exported from the package.
 */
import { SDKError } from '../errors.ts';
import type { KeyRedaction } from './redact-key.ts';

/** A JSON error answer in the service's own error shape. */
export function jsonError(
  status: number,
  type: string,
  message: string,
  headers: Record<string, string> = {},
): Response {
  return new Response(
    JSON.stringify({ error: { type, title: message, message }, status: 'error', status_message: type }),
    {
      status,
      headers: { 'content-type': 'application/json', ...headers },
    },
  );
}

/**
 * The text of an error body read up to a cut, redacted before anything is cut: the redaction runs
 * on the whole text read, and when the body went on past the cut, the key's start left at the end
 * (read only in part, so not recognisable as a whole) is replaced too (`KeyRedaction.cutText`).
 */
export function redactedErrorText(bytes: Uint8Array, truncated: boolean, redactor: KeyRedaction): string {
  const text = new TextDecoder().decode(bytes);
  return truncated ? redactor.cutText(text) : redactor.text(text);
}

/** The origin (`scheme://host[:port]`) of `raw`, or undefined when it is not an http(s) URL (`null`, garbage). */
export function originOf(raw: string): string | undefined {
  try {
    const url = new URL(raw);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.origin : undefined;
  } catch {
    return undefined;
  }
}

/** Normalise configured origins (`publicOrigin`, `allowedOrigins`). @throws SDKError naming the option and the value that is not an http(s) origin. */
export function checkOrigins(option: string, values: readonly string[]): string[] {
  return values.map((v) => {
    const origin = typeof v === 'string' ? originOf(v) : undefined;
    if (origin === undefined)
      throw new SDKError(
        `${option} must list http(s) origins such as "https://app.example.com", got ${JSON.stringify(v)}`,
      );
    return origin;
  });
}

/**
 * `body` passed through chunk by chunk (nothing buffered beyond one chunk), with `prefix` sent first
 * and `onEnd` called once when it ends, fails or is cancelled.
 */
export function passThrough(
  body: ReadableStream<Uint8Array>,
  onEnd: () => void,
  prefix?: Uint8Array,
): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  let ended = false;
  const end = (): void => {
    if (ended) return;
    ended = true;
    onEnd();
  };
  return new ReadableStream<Uint8Array>(
    {
      start(controller) {
        if (prefix) controller.enqueue(prefix);
      },
      async pull(controller) {
        try {
          const { done, value } = await reader.read();
          if (done) {
            end();
            controller.close();
          } else controller.enqueue(value);
        } catch (err) {
          end();
          controller.error(err);
        }
      },
      cancel(reason) {
        end();
        return reader.cancel(reason);
      },
    },
    { highWaterMark: 0 },
  );
}
