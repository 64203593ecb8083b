// The service's two error bodies (docs: inference-api/overview.mdx, "Error Format"), read by the SDK:
// `{error: {type, title, detail}, status: 'error', status_message}` and `{error: {message}}`. The message is
// the detail (or the message), `type`, `title` and `detail` are on the error (redacted, in toJSON), and
// the class follows the status and the type, never the message text. Against a local node:http server on
// 127.0.0.1 that answers a given body, and against the local stand-in server, which answers in the two shapes.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import {
  APIError,
  AuthenticationError,
  BadRequestError,
  Client,
  InsufficientCreditsError,
  NotFoundError,
  PermissionDeniedError,
} from '../../index.ts';
import { rejectionOf, useServers } from './helpers.ts';

const KEY = 'sk-errors-0123456789abcdef';
const INVALID_PARAMS_TITLE = 'Invalid parameters supplied, please check your request and try again.';

/** A body in the docs' first shape. */
const typed = (type: string, title: string, detail: string) => ({
  error: { type, title, detail },
  status: 'error',
  status_message: type,
});

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});

/** A client of a local server that answers every request with `status` and `body` (JSON, or text as it is). */
async function answering(status: number, body: unknown, contentType = 'application/json'): Promise<Client> {
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(status, { 'content-type': contentType });
      res.end(typeof body === 'string' ? body : JSON.stringify(body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closers.push(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return new Client({ apiKey: KEY, baseUrl: url, maxRetries: 0 });
}

/** The error a GET of the queue list ends with, against a server answering `status` and `body`. */
async function errorOf(status: number, body: unknown): Promise<APIError> {
  const client = await answering(status, body);
  const err = await rejectionOf(client.queue.list());
  expect(err).toBeInstanceOf(APIError);
  return err as APIError;
}

describe('the documented error bodies', () => {
  it('{error: {type, title, detail}}: the message is the detail, not the title; type, title, detail exposed', async () => {
    const detail = "Invalid value for 'temperature': must be between 0 and 2";
    const err = await errorOf(400, typed('invalid_params', INVALID_PARAMS_TITLE, detail));
    expect(err).toBeInstanceOf(BadRequestError);
    expect(err.message).toBe(detail);
    expect(String(err)).toBe(`BadRequestError: ${detail}`);
    expect(err.type).toBe('invalid_params');
    expect(err.title).toBe(INVALID_PARAMS_TITLE);
    expect(err.detail).toBe(detail);
    // toJSON shows them after requestId and before body, in that order
    expect(Object.keys(err.toJSON())).toEqual([
      'name',
      'message',
      'status',
      'request',
      'type',
      'title',
      'detail',
      'body',
      'headers',
    ]);
  });

  it('{error: {message}}: the message; no type, title or detail (absent from toJSON)', async () => {
    const err = await errorOf(404, { error: { message: 'Model not found: bad-model-name' } });
    expect(err).toBeInstanceOf(NotFoundError);
    expect(err.message).toBe('Model not found: bad-model-name');
    expect([err.type, err.title, err.detail]).toEqual([undefined, undefined, undefined]);
    const shown = err.toJSON();
    expect('type' in shown || 'title' in shown || 'detail' in shown).toBe(false);
  });

  it('a typed body without detail (the queue 404) reads its title; status_message gives the type when error.type is absent', async () => {
    const notFound = await errorOf(404, typed('resource_not_found', 'The requested resource was not found', ''));
    expect(notFound.message).toBe('The requested resource was not found');
    expect(notFound.detail).toBeUndefined();
    const onlyStatusMessage = await errorOf(401, {
      error: { title: 'Unauthenticated' },
      status: 'error',
      status_message: 'unauthenticated',
    });
    expect(onlyStatusMessage).toBeInstanceOf(AuthenticationError);
    expect(onlyStatusMessage.type).toBe('unauthenticated');
  });

  it('bodies of other shapes are read tolerantly: a string error, top-level message, plain text, nothing', async () => {
    expect((await errorOf(400, { error: 'plain string error' })).message).toBe('plain string error');
    expect((await errorOf(400, { message: 'top-level message' })).message).toBe('top-level message');
    const client = await answering(502, 'upstream went away', 'text/plain');
    expect((await rejectionOf(client.queue.list({}, { maxRetries: 0 }))).message).toBe('upstream went away');
    expect((await errorOf(400, {})).message).toBe('HTTP 400');
  });

  it('the detail, title and type are redacted like the rest (message, toJSON, body)', async () => {
    const err = await errorOf(
      400,
      typed(`invalid_params ${KEY}`, `title ${KEY}`, `you sent Authorization: Bearer ${KEY}`),
    );
    expect(err.message).toBe('you sent Authorization: Bearer [REDACTED]');
    expect([err.type, err.title, err.detail]).toEqual([
      'invalid_params [REDACTED]',
      'title [REDACTED]',
      'you sent Authorization: Bearer [REDACTED]',
    ]);
    expect(JSON.stringify(err)).not.toContain(KEY);
    expect(JSON.stringify(err)).toContain('"detail":"you sent Authorization: Bearer [REDACTED]"');
  });

  it('a detail longer than 1,000 characters is cut in the message and the field, saying so', async () => {
    const err = await errorOf(400, typed('invalid_params', INVALID_PARAMS_TITLE, 'd'.repeat(5_000)));
    expect(err.message).toBe(`${'d'.repeat(1_000)}… [4000 more characters]`);
    expect(err.detail).toBe(err.message);
  });
});

describe('the class follows the status and the error type, never the message text', () => {
  it('402 is InsufficientCreditsError, whatever its body says', async () => {
    expect(await errorOf(402, { error: { message: 'Payment required' } })).toBeInstanceOf(InsufficientCreditsError);
    expect(await errorOf(402, 'no body')).toBeInstanceOf(InsufficientCreditsError);
  });

  it('a type naming credits is InsufficientCreditsError at any status', async () => {
    const err = await errorOf(403, typed('insufficient_credits', 'Not enough credits', 'namespace acme has 0 credits'));
    expect(err).toBeInstanceOf(InsufficientCreditsError);
    expect(err.status).toBe(403);
  });

  it('a message about credits without such a type or status is not InsufficientCreditsError', async () => {
    const card = await errorOf(400, typed('invalid_params', INVALID_PARAMS_TITLE, 'credit_card must be a string'));
    expect(card).toBeInstanceOf(BadRequestError);
    expect(card).not.toBeInstanceOf(InsufficientCreditsError);
    const plain = await errorOf(403, { error: { message: 'Insufficient credits' } });
    expect(plain).toBeInstanceOf(PermissionDeniedError);
  });

  it('a documented type gives the class of a status without one of its own; a status with a class wins', async () => {
    expect(await errorOf(409, typed('resource_not_found', 'Not found', 'gone'))).toBeInstanceOf(NotFoundError);
    expect(await errorOf(418, typed('unauthenticated', 'Who are you', 'no key'))).toBeInstanceOf(AuthenticationError);
    expect(await errorOf(409, typed('invalid_params', INVALID_PARAMS_TITLE, 'x'))).toBeInstanceOf(BadRequestError);
    const other = await errorOf(409, typed('conflict', 'Conflict', 'already exists'));
    expect(other.constructor).toBe(APIError);
    expect(other.type).toBe('conflict'); // a type the docs do not list is kept as it came
    expect(await errorOf(400, typed('resource_not_found', 'Not found', 'x'))).toBeInstanceOf(BadRequestError);
  });
});

describe('an error object in a chat stream', () => {
  it('is read as an error answer: the message is its detail, the class follows its type', async () => {
    const chunk = typed('insufficient_credits', 'Not enough credits', 'namespace alice has 0 credits');
    const client = await answering(200, `data: ${JSON.stringify(chunk)}\n\n`, 'text/event-stream');
    const stream = await client.chat.completions.create({
      model: 'gpt-4o-mini',
      messages: [{ role: 'user', content: 'x' }],
      stream: true,
    });
    const err = (await rejectionOf(stream.finalChatCompletion())) as APIError;
    expect(err).toBeInstanceOf(InsufficientCreditsError);
    expect(err.message).toBe('namespace alice has 0 credits');
    expect([err.status, err.type, err.title]).toEqual([200, 'insufficient_credits', 'Not enough credits']);
  });
});

describe('against the local server (its errors in the docs shapes)', () => {
  const setup = useServers();

  it('a chat 400 of its own names the parameter in the message, with the invalid_params type and title', async () => {
    const { client } = await setup();
    const err = (await rejectionOf(
      client.chat.completions.create({
        model: 'gpt-4o-mini',
        messages: [{ role: 'user', content: 'x' }],
        temperature: 3,
      }),
    )) as APIError;
    expect(err).toBeInstanceOf(BadRequestError);
    expect(err.message).toBe('temperature must be a number between 0 and 2');
    expect(err.type).toBe('invalid_params');
    expect(err.title).toBe(INVALID_PARAMS_TITLE);
  });

  it("the description's chat messages come as {error: {message}}; credits as a 402", async () => {
    const { client, server } = await setup();
    const empty = (await rejectionOf(
      client.chat.completions.create({ model: 'gpt-4o-mini', messages: [] }),
    )) as APIError;
    expect(empty).toBeInstanceOf(BadRequestError);
    expect(empty.message).toBe('Messages array cannot be empty');
    expect(empty.body).toEqual({ error: { message: 'Messages array cannot be empty' } });
    server.setCredits('alice', 0);
    const broke = (await rejectionOf(client.images.generate({ model: 'flux-1-dev', prompt: 'x' }))) as APIError;
    expect(broke).toBeInstanceOf(InsufficientCreditsError);
    expect(broke.type).toBe('insufficient_credits');
    expect(broke.message).toBe(broke.detail);
  });
});
