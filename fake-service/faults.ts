// Fault injection: checked for every request before auth and routing.

/**
 * Kinds of faults. Answered before processing (the request has no effect): `429`, `500`, `503`,
 * `404`, `reset`, `hang`, `invalid-json`, `redirect`, `echo-key`, `echo-key-invalid-json`,
 * `echo-key-stream`, `echo-header`, `huge-error`, `sse-interleaved`. Applied after processing (the request took effect, then the
 * answer is replaced): `500-after-enqueue`, `slow-body`, `empty-200`, `null-200`, `large-body`,
 * `duplicate-ids`, `wrong-shape`.
 */
export type FaultKind =
  | '429'
  | '500'
  | '503'
  | 'reset'
  | 'slow-body'
  | 'hang'
  | 'invalid-json'
  | '404'
  | '500-after-enqueue'
  /** A 3xx (`status`, default 302) with `Location: location` (default `/elsewhere`). */
  | 'redirect'
  /** 200 with an empty body, after processing. */
  | 'empty-200'
  /** 200 with the body `null`, after processing. */
  | 'null-200'
  /** 200 with a JSON body of `bytes` bytes (an image result with a long b64_json), written in 64 KiB chunks honouring backpressure; `chunked`: no Content-Length. After processing. */
  | 'large-body'
  /** 400 whose JSON body and `X-Echo-Authorization` header echo the request's Authorization header (a misbehaving proxy). */
  | 'echo-key'
  /** 200 with a body that is not JSON and contains the request's Authorization header. */
  | 'echo-key-invalid-json'
  /** 200 text/event-stream whose first event is an error object echoing the Authorization header (a chat stream). */
  | 'echo-key-stream'
  /**
   * `status` (default 400) with a text/plain body of `pad` (default 0) `x` characters followed by the
   * value of the request's `header` (default `authorization`) written as `encoding` says, echoed in
   * `X-Echo` too.
   */
  | 'echo-header'
  /**
   * Processed as usual, then answered with the request's `header` (default `authorization`),
   * written as `encoding` says, as its `X-Request-Id` (a misbehaving front end).
   */
  | 'echo-request-id'
  /**
   * 200 text/event-stream of chat chunks that never ends (until `bytes`, default 180 MB, or the
   * client closes; records `bytesSent`, `closedEarly`): each chunk a 4,000-character fragment of one
   * tool call's `arguments` (`flood: 'arguments'`, the default), a new tool call (`'calls'`), or a
   * new choice (`'choices'`).
   */
  | 'chat-flood'
  /** 500 whose error message is `bytes` characters long. */
  | 'huge-error'
  /**
   * 200 text/event-stream: one event that never ends, `data:` lines interleaved with `: comment`
   * lines, `bytes` in all (default 64 MiB), written as the client reads (records `bytesSent`, `closedEarly`).
   */
  | 'sse-interleaved'
  /** The enqueue answer lists its first generation id twice (appended at the end), after processing. */
  | 'duplicate-ids'
  /** 200 with `{"unexpected":true}` (not the documented shape), after processing. */
  | 'wrong-shape';

export interface Fault {
  method?: string; // default: any
  path: string | RegExp; // string = exact path (without query) or prefix ending in '*'
  kind: FaultKind;
  times?: number; // how many matching requests it applies to; default 1; Infinity allowed
  retryAfterSeconds?: number; // for 429/503: the Retry-After header value (seconds)
  delayMs?: number; // for slow-body: delay between the headers+first half and the rest of the body; for hang: never answers (until close)
  status?: number; // for redirect: the 3xx status (default 302)
  location?: string; // for redirect: the Location header (default /elsewhere)
  bytes?: number; // for large-body: body size; for huge-error: message length; for sse-interleaved: stream size
  header?: string; // for echo-header: the request header echoed (default authorization)
  pad?: number; // for echo-header: characters before the echoed value
  /**
   * For echo-header and echo-request-id, how the echoed value is written: `raw` (default); `json`,
   * as a JSON string would carry it, its first character `\u`-escaped and every `/` as `\/`;
   * `uri`, every character percent-encoded.
   */
  encoding?: 'raw' | 'json' | 'uri';
  flood?: 'arguments' | 'calls' | 'choices'; // for chat-flood: what each chunk adds
  chunked?: boolean; // for large-body: omit Content-Length
}

/** `value` written as `encoding` says (see `Fault.encoding`). */
export function encodeEcho(value: string, encoding: Fault['encoding']): string {
  const hex = (c: string) => c.charCodeAt(0).toString(16).padStart(4, '0');
  if (encoding === 'json') return value.replace(/^./, (c) => `\\u${hex(c)}`).replace(/\//g, '\\/');
  if (encoding === 'uri')
    return [...new TextEncoder().encode(value)]
      .map((b) => `%${b.toString(16).toUpperCase().padStart(2, '0')}`)
      .join('');
  return value;
}

export interface FaultController {
  add(f: Fault): void;
  clear(): void;
}

interface Armed {
  fault: Fault;
  left: number;
}

export function pathMatches(pattern: string | RegExp, path: string): boolean {
  if (pattern instanceof RegExp) {
    pattern.lastIndex = 0;
    return pattern.test(path);
  }
  if (pattern.endsWith('*')) return path.startsWith(pattern.slice(0, -1));
  return path === pattern;
}

export class Faults implements FaultController {
  private armed: Armed[] = [];

  add(f: Fault): void {
    const times = f.times ?? 1;
    if (!(times > 0)) return;
    this.armed.push({ fault: { ...f }, left: times });
  }

  clear(): void {
    this.armed = [];
  }

  /** The first armed fault matching this request (in the order added), consumed once; undefined if none. */
  take(method: string, path: string): Fault | undefined {
    const i = this.armed.findIndex(
      (a) =>
        (a.fault.method === undefined || a.fault.method.toUpperCase() === method.toUpperCase()) &&
        pathMatches(a.fault.path, path),
    );
    if (i < 0) return undefined;
    const a = this.armed[i]!;
    a.left -= 1;
    if (a.left <= 0) this.armed.splice(i, 1);
    return a.fault;
  }
}
