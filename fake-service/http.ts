// Small HTTP helpers shared by the local server's routes: error bodies, replies, body parsing.
import type { IncomingMessage } from 'node:http';

/**
 * A buffered reply. Route handlers return one (or throw an HttpError); the dispatcher writes it,
 * applying the `slow-body` and `500-after-enqueue` faults. Streaming handlers write directly and
 * return STREAMED instead.
 */
export interface Reply {
  status: number;
  body: unknown; // serialised as JSON unless it is a Buffer
  headers?: Record<string, string>;
}
export const STREAMED = Symbol('streamed');
export type HandlerResult = Reply | typeof STREAMED;

/**
 * The titles of the error types: the docs' where they show one (`inference-api/overview.mdx` "Error
 * Format", `inference-api/reference/chat_completions.mdx`), else ours.
 */
const ERROR_TITLES: Record<string, string> = {
  invalid_params: 'Invalid parameters supplied, please check your request and try again.',
  invalid_file_input: 'The provided file could not be used.',
};

/**
 * The docs' first error shape (`inference-api/overview.mdx`, "Error Format"), for every error but those
 * of `messageError` and the queue/fine-tune 404: `{"error": {type, title, detail}, "status": "error",
 * "status_message": type}`. `detail` is what was wrong, the description's text to the letter where it
 * gives one; `title` is fixed per type.
 */
export function errorBody(type: string, detail: string): Record<string, unknown> {
  const title = ERROR_TITLES[type] ?? `${type.replace(/_/g, ' ')} error`;
  return { error: { type, title, detail }, status: 'error', status_message: type };
}

/**
 * The docs' second error shape, `{"error": {"message": ...}}`, which they show for chat's missing
 * model (`examples/inference/chat_completions.mdx`) and for `Model not found: <name>`
 * (`inference-api/overview.mdx`): used for the description's chat messages and unknown models.
 */
export function messageError(status: number, message: string): HttpError {
  return new HttpError(status, message, { body: { error: { message } } });
}

/** The fixed human-readable title of the resource_not_found body (ours; the description only says "a fixed human-readable string"). */
export const NOT_FOUND_TITLE = 'The requested resource was not found';

/** The queue get/delete 404 body, exactly the description's shape. Also used for the tokenize 404 and the '404' fault. */
export function resourceNotFoundBody(): Record<string, unknown> {
  return {
    error: { type: 'resource_not_found', title: NOT_FOUND_TITLE },
    status: 'error',
    status_message: 'resource_not_found',
  };
}

/**
 * The error type per status code: the docs' types (`invalid_params`, `unauthenticated`,
 * `resource_not_found`, `unknown_error`) where one fits, else ours (snake_case).
 */
export const ERROR_TYPES: Record<number, string> = {
  400: 'invalid_params',
  401: 'unauthenticated',
  402: 'insufficient_credits',
  403: 'forbidden',
  404: 'resource_not_found',
  405: 'method_not_allowed',
  413: 'payload_too_large',
  422: 'unprocessable_entity',
  429: 'rate_limited',
  500: 'unknown_error',
  503: 'service_unavailable',
};

export class HttpError extends Error {
  readonly status: number;
  readonly body: unknown;
  readonly headers: Record<string, string> | undefined;
  constructor(
    status: number,
    message: string,
    opts: { type?: string; body?: unknown; headers?: Record<string, string> } = {},
  ) {
    super(message);
    this.status = status;
    this.body = opts.body ?? errorBody(opts.type ?? ERROR_TYPES[status] ?? 'error', message);
    this.headers = opts.headers;
  }
}

export function badRequest(message: string): HttpError {
  return new HttpError(400, message);
}

export function resourceNotFound(): HttpError {
  return new HttpError(404, NOT_FOUND_TITLE, { body: resourceNotFoundBody() });
}

export function json(status: number, body: unknown, headers?: Record<string, string>): Reply {
  return headers ? { status, body, headers } : { status, body };
}

/** Serialise a reply body to bytes and its content type. */
export function encodeBody(body: unknown): { bytes: Buffer; contentType: string } {
  if (Buffer.isBuffer(body)) return { bytes: body, contentType: 'application/octet-stream' };
  return { bytes: Buffer.from(JSON.stringify(body)), contentType: 'application/json' };
}

// Ours (the description shows no payload limit): room for a chat document at the docs' 24 MB limit and
// beyond it, base64-encoded (4/3 of its size), so that the chat route itself answers the docs' 400.
const MAX_BODY_BYTES = 64 * 1024 * 1024;

/** Read the whole request body (at most 64 MiB; more -> 413). */
export function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let failed = false;
    req.on('data', (c: Buffer) => {
      if (failed) return;
      size += c.length;
      if (size > MAX_BODY_BYTES) {
        failed = true;
        reject(new HttpError(413, `Request body exceeds ${MAX_BODY_BYTES} bytes`));
        return;
      }
      chunks.push(c);
    });
    req.on('end', () => {
      if (!failed) resolve(Buffer.concat(chunks));
    });
    req.on('error', (e) => {
      if (!failed) {
        failed = true;
        reject(e);
      }
    });
  });
}

/**
 * Parse a JSON object body. An empty body counts as {} (so a POST without a body meets the route's own
 * validation, e.g. "You must specify a model to call"). Not JSON -> 400 `Request body is not valid JSON`;
 * not an object -> 400 `Request body must be a JSON object` (both messages ours).
 */
export function parseJsonObject(raw: Buffer): Record<string, unknown> {
  const text = raw.toString('utf8');
  if (text.trim() === '') return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw badRequest('Request body is not valid JSON');
  }
  if (!isObject(value)) throw badRequest('Request body must be a JSON object');
  return value;
}

export function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
