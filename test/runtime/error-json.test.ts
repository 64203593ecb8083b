// The plain-data forms of the SDK's errors (`toJSON()`, `JSON.stringify`, `util.inspect`): for
// each class exactly the fields it shows, in a fixed order, redacted with the error's redactor,
// bounded (a string body at 1,000 characters, each header value at 200), the cause summarised.
import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import {
  AbortError,
  APIError,
  BadRequestError,
  ConnectionError,
  InvalidResponseError,
  OutcomeUnknownError,
  QueueRunTimeoutError,
  RateLimitError,
  RedirectError,
  Redactor,
  ResponseTooLargeError,
  SDKError,
  TimeoutError,
  ValidationError,
} from '../../index.ts';

const SECRET = 'sk-QXZJVKWYQJZXWKVYZQXJ';
const redactor = new Redactor([SECRET]);
const request = { method: 'POST', path: '/api/ai/images/generate' };
const headers = () => new Headers({ 'x-request-id': 'req-1', 'x-echo': `Bearer ${SECRET}`, 'x-long': 'v'.repeat(300) });

/** `toJSON()` as JSON text: the order of the keys counts. */
const json = (e: SDKError): string => JSON.stringify(e.toJSON());

describe('toJSON of each error class', () => {
  it('SDKError: name and message; a cause is summarised (name, message, code, nested causes)', () => {
    expect(json(new SDKError('plain'))).toBe('{"name":"SDKError","message":"plain"}');
    const inner = Object.assign(new Error(`inner ${SECRET}`), { code: 'ECONNRESET' });
    const err = new SDKError('outer', { cause: new TypeError('fetch failed', { cause: inner }), redactor });
    expect(err.toJSON()).toEqual({
      name: 'SDKError',
      message: 'outer',
      cause: 'TypeError: fetch failed; caused by Error: inner [REDACTED] (ECONNRESET)',
    });
    expect(json(new AbortError('stopped', { cause: 'why' }))).toBe(
      '{"name":"AbortError","message":"stopped","cause":"why"}',
    );
  });

  it('APIError: status, request, requestId, body, headers (in that order), redacted and bounded', () => {
    const err = new BadRequestError(`bad ${SECRET}`, {
      status: 400,
      body: { error: `no ${SECRET}`, long: 'b'.repeat(2_000) },
      headers: headers(),
      request,
      redactor,
    });
    expect(Object.keys(err.toJSON())).toEqual(['name', 'message', 'status', 'request', 'requestId', 'body', 'headers']);
    expect(err.toJSON()).toEqual({
      name: 'BadRequestError',
      message: 'bad [REDACTED]',
      status: 400,
      request,
      requestId: 'req-1',
      body: { error: 'no [REDACTED]', long: 'b'.repeat(2_000) },
      headers: {
        'x-echo': 'Bearer [REDACTED]',
        'x-long': 'v'.repeat(200) + '… [100 more characters]',
        'x-request-id': 'req-1',
      },
    });
    // a string body is cut at 1,000 characters; an empty one is left out, as are absent fields
    const text = new APIError('m', { status: 500, body: 't'.repeat(1_500) }).toJSON();
    expect(text).toEqual({
      name: 'APIError',
      message: 'm',
      status: 500,
      body: 't'.repeat(1_000) + '… [500 more characters]',
    });
    expect(json(new APIError('m', { status: 502, body: '' }))).toBe('{"name":"APIError","message":"m","status":502}');
    expect(json(new RateLimitError('slow'))).toBe('{"name":"RateLimitError","message":"slow"}');
  });

  it('the subclasses add their own field last: notSent, location, limitBytes, reason; model and issues', () => {
    expect(json(new ConnectionError('down', { request }))).toBe(
      '{"name":"ConnectionError","message":"down","request":{"method":"POST","path":"/api/ai/images/generate"},"notSent":false}',
    );
    expect(json(new ConnectionError('refused', { notSent: true }))).toBe(
      '{"name":"ConnectionError","message":"refused","notSent":true}',
    );
    expect(
      json(new RedirectError('moved', { status: 302, location: `https://x.example/?k=${SECRET}`, redactor })),
    ).toBe('{"name":"RedirectError","message":"moved","status":302,"location":"https://x.example/?k=[REDACTED]"}');
    expect(json(new RedirectError('hidden', { status: 0 }))).toBe(
      '{"name":"RedirectError","message":"hidden","status":0}',
    );
    expect(json(new ResponseTooLargeError('big', { status: 200, limitBytes: 10 }))).toBe(
      '{"name":"ResponseTooLargeError","message":"big","status":200,"limitBytes":10}',
    );
    const cause = new InvalidResponseError('empty', { status: 200, request });
    const unknown = OutcomeUnknownError.from(request, cause, 'invalid_response');
    expect(Object.keys(unknown.toJSON())).toEqual(['name', 'message', 'status', 'request', 'reason', 'cause']);
    expect(unknown.toJSON()['reason']).toBe('invalid_response');
    expect(unknown.toJSON()['cause']).toBe('InvalidResponseError: empty');
    expect(
      json(new ValidationError('flux-2-pro', [{ pointer: '/seed', message: 'must be integer', keyword: 'type' }])),
    ).toBe(
      '{"name":"ValidationError","message":"Invalid parameters for model flux-2-pro:\\n  /seed: must be integer","model":"flux-2-pro","issues":[{"pointer":"/seed","message":"must be integer","keyword":"type"}]}',
    );
  });

  it("a class without fields of its own shows its base class's (TimeoutError, QueueRunTimeoutError)", () => {
    expect(json(new TimeoutError('late', { request }))).toBe(
      '{"name":"TimeoutError","message":"late","request":{"method":"POST","path":"/api/ai/images/generate"}}',
    );
    expect(json(new QueueRunTimeoutError('queue late', [], ['gen-1']))).toBe(
      '{"name":"QueueRunTimeoutError","message":"queue late"}',
    );
  });

  it('JSON.stringify uses toJSON; util.inspect shows the stack, then the same fields', () => {
    const err = new ConnectionError('down', { request, redactor });
    expect(JSON.stringify(err)).toBe(json(err));
    const shown = inspect(err);
    expect(shown.startsWith(err.stack!)).toBe(true);
    expect(shown).toContain('notSent: false');
    expect(shown).toContain("path: '/api/ai/images/generate'");
    const plain = new SDKError('plain');
    expect(inspect(plain)).toBe(plain.stack);
  });
});
