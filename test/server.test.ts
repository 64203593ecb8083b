// End-to-end tests of the local stand-in server: real HTTP over 127.0.0.1 with the global fetch (no mocks).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFile, readdir } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { spawn, type ChildProcess } from 'node:child_process';
import OpenAI from 'openai';
import { startServer, type LocalServer, type LocalServerOptions } from '../fake-service/index.ts';
import { REPO_ROOT, runTsx, start as startProcess, tsxArgs, until } from './support/index.ts';

const AUTH = { Authorization: 'Bearer test-key' };
const NOT_FOUND_BODY = {
  error: { type: 'resource_not_found', title: 'The requested resource was not found' },
  status: 'error',
  status_message: 'resource_not_found',
};
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function call(
  server: LocalServer,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = AUTH,
) {
  const res = await fetch(server.url + path, {
    method,
    headers: body === undefined ? headers : { ...headers, 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  let json: any;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.status, headers: res.headers, text, json };
}

/** The message of an error body in either of the docs' shapes: `error.detail`, or `error.message`. */
function errorText(json: any): string {
  return json.error.detail ?? json.error.message;
}

/**
 * Expect one of the docs' error shapes and the message to the letter: `{error: {message}}` alone, or
 * `{error: {type, title, detail}, status: 'error', status_message: type}`.
 */
function expectError(r: { status: number; json: any }, status: number, message: string) {
  expect(r.status).toBe(status);
  if ('message' in r.json.error) {
    expect(r.json).toEqual({ error: { message } });
    return;
  }
  expect(r.json.status).toBe('error');
  expect(r.json.error.detail).toBe(message);
  expect(r.json.error.title).toEqual(expect.any(String));
  expect(r.json.status_message).toBe(r.json.error.type);
  expect(r.json.error.type).toMatch(/^[a-z_]+$/);
}

interface SseFrame {
  event?: string;
  data?: string;
  comment?: string;
}
function parseFrames(text: string): SseFrame[] {
  return text
    .split('\n\n')
    .slice(0, -1)
    .map((block) => {
      const f: SseFrame = {};
      for (const line of block.split('\n')) {
        if (line.startsWith(':')) f.comment = line.slice(1).trim();
        else if (line.startsWith('event: ')) f.event = line.slice(7);
        else if (line.startsWith('data: ')) f.data = (f.data === undefined ? '' : f.data + '\n') + line.slice(6);
      }
      return f;
    });
}

async function openEvents(server: LocalServer, headers: Record<string, string> = AUTH) {
  const ac = new AbortController();
  const res = await fetch(server.url + '/api/events', { headers, signal: ac.signal });
  let text = '';
  let ended = false;
  let error: unknown;
  if (res.body) {
    const reader = res.body.getReader();
    const dec = new TextDecoder();
    void (async () => {
      try {
        for (;;) {
          const { done, value } = await reader.read();
          if (done) break;
          text += dec.decode(value, { stream: true });
        }
      } catch (e) {
        error = e;
      } finally {
        ended = true;
      }
    })();
  }
  const completed = () =>
    parseFrames(text)
      .filter((f) => f.event === 'media_generation_completed')
      .map((f) => JSON.parse(f.data!));
  const streamUntil = (pred: () => boolean, ms = 2000) =>
    until(pred, ms, () => `stream so far: ${JSON.stringify(text)}`);
  return {
    res,
    text: () => text,
    frames: () => parseFrames(text),
    completed,
    ended: () => ended,
    error: () => error,
    until: streamUntil,
    close: () => ac.abort(),
  };
}

const servers: LocalServer[] = [];
async function start(opts?: LocalServerOptions): Promise<LocalServer> {
  const s = await startServer(opts);
  servers.push(s);
  return s;
}
afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
});

let srv: LocalServer;
/** The queue as the API description 0.224.2 says (`srv`'s is as the service's docs say today). */
let legacy: LocalServer;
beforeAll(async () => {
  srv = await start();
  legacy = await start({ queueMode: '0.224.2' });
});

describe('auth, models, routing', () => {
  it('answers 401 without a key or with an unknown key, and records no key', async () => {
    const r1 = await call(srv, 'GET', '/api/ai/models/flux-2-pro', undefined, {});
    expectError(r1, 401, 'Missing or invalid API key');
    const r2 = await call(srv, 'GET', '/api/ai/queue', undefined, { Authorization: 'Bearer nope' });
    expect(r2.status).toBe(401);
    const r3 = await call(srv, 'POST', '/api/ai/chat/completions', { model: 'gpt-4o-mini', messages: [] }, {});
    expect(r3.status).toBe(401);
    expect(srv.requests.slice(-3).map((r) => r.status)).toEqual([401, 401, 401]);
    expect(srv.requests.every((r) => !('key' in r) && !JSON.stringify(r).includes('nope'))).toBe(true);
  });

  it('returns model details byte-identical to the snapshot file (json_request_schema and request_schema models)', async () => {
    for (const id of [
      'flux-2-pro',
      'flux-2-dev',
      'happyhorse-1.0-video-edit',
      'ltx-2-3-pro-22b-IC-LoRA-Union-Control',
    ]) {
      const res = await fetch(`${srv.url}/api/ai/models/${id}`, { headers: AUTH });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('application/json');
      const got = Buffer.from(await res.arrayBuffer());
      const want = await readFile(`${REPO_ROOT}/specs/models/${id}.json`);
      expect(got.equals(want)).toBe(true);
    }
    const pro = JSON.parse(await readFile(`${REPO_ROOT}/specs/models/flux-2-pro.json`, 'utf8'));
    const dev = JSON.parse(await readFile(`${REPO_ROOT}/specs/models/flux-2-dev.json`, 'utf8'));
    expect('json_request_schema' in pro && 'request_schema' in dev).toBe(true);
  });

  it('answers Model not found for an unknown model id', async () => {
    expectError(await call(srv, 'GET', '/api/ai/models/no-such-model'), 404, 'Model not found: no-such-model');
  });

  it('answers an unknown route with a JSON 404', async () => {
    const r = await call(srv, 'GET', '/api/nothing/here');
    expect(r.status).toBe(404);
    expect(r.json.error.type).toBe('resource_not_found');
  });
});

describe('chat completions', () => {
  it('validates in the described order with the exact messages', async () => {
    expectError(
      await call(srv, 'POST', '/api/ai/chat/completions', { messages: [{ role: 'user', content: 'hi' }] }),
      400,
      'You must specify a model to call',
    );
    expectError(
      await call(srv, 'POST', '/api/ai/chat/completions', { model: 'nope-1', messages: [] }),
      404,
      'Model not found: nope-1',
    );
    expectError(
      await call(srv, 'POST', '/api/ai/chat/completions', { model: 'gpt-4o-mini', messages: [] }),
      400,
      'Messages array cannot be empty',
    );
    expectError(
      await call(srv, 'POST', '/api/ai/chat/completions', { model: 'gpt-4o-mini' }),
      400,
      'Messages array cannot be empty',
    );
    const img = await call(srv, 'POST', '/api/ai/chat/completions', {
      model: 'flux-2-pro',
      messages: [{ role: 'user', content: 'hi' }],
    });
    expect(img.status).toBe(400);
    expect(errorText(img.json)).toContain('flux-2-pro');
  });

  it('echoes the last user message (array content joined) with integer usage', async () => {
    const r = await call(srv, 'POST', '/api/ai/chat/completions', {
      model: 'gpt-4o-mini',
      messages: [
        { role: 'system', content: 'be brief' },
        { role: 'user', content: 'first' },
        { role: 'assistant', content: 'ok' },
        {
          role: 'user',
          content: [
            { type: 'text', text: 'hello' },
            { type: 'image_url', image_url: { url: 'https://example.com/a.png' } },
            { type: 'text', text: 'world' },
          ],
        },
      ],
    });
    expect(r.status).toBe(200);
    expect(r.json.id).toMatch(/^chatcmpl-/);
    expect(r.json.object).toBe('chat.completion');
    expect(r.json.model).toBe('gpt-4o-mini');
    expect(Number.isInteger(r.json.created)).toBe(true);
    expect(r.json.choices).toEqual([
      { index: 0, message: { role: 'assistant', content: 'Echo: hello world' }, finish_reason: 'stop' },
    ]);
    const u = r.json.usage;
    expect([u.prompt_tokens, u.completion_tokens, u.total_tokens].every(Number.isInteger)).toBe(true);
    expect(u.total_tokens).toBe(u.prompt_tokens + u.completion_tokens);
  });

  it('streams one word per chunk and ends with data: [DONE]', async () => {
    const res = await fetch(`${srv.url}/api/ai/chat/completions`, {
      method: 'POST',
      headers: { ...AUTH, 'Content-Type': 'application/json' },
      body: JSON.stringify({
        model: 'gpt-4o-mini',
        stream: true,
        messages: [{ role: 'user', content: 'one two three' }],
      }),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/event-stream');
    const text = await res.text();
    expect(text.endsWith('data: [DONE]\n\n')).toBe(true);
    const blocks = text.split('\n\n').filter(Boolean);
    expect(blocks.every((b) => b.startsWith('data: ') && !b.includes('\n'))).toBe(true);
    const chunks = blocks.slice(0, -1).map((b) => JSON.parse(b.slice(6)));
    expect(chunks).toHaveLength(4);
    expect(
      chunks.every(
        (c) => c.object === 'chat.completion.chunk' && c.model === 'gpt-4o-mini' && c.id.startsWith('chatcmpl-'),
      ),
    ).toBe(true);
    expect(chunks.map((c) => c.choices[0].finish_reason)).toEqual([null, null, null, 'stop']);
    expect(chunks.map((c) => c.choices[0].delta.content).join('')).toBe('Echo: one two three');
  });

  it('calls the first tool when tools are given', async () => {
    const tools = [
      {
        type: 'function',
        function: { name: 'get_weather', description: 'w', parameters: { type: 'object', properties: {} } },
      },
      { type: 'function', function: { name: 'other', parameters: { type: 'object' } } },
    ];
    const r = await call(srv, 'POST', '/api/ai/chat/completions', {
      model: 'gpt-4o-mini',
      tools,
      messages: [{ role: 'user', content: 'weather?' }],
    });
    expect(r.status).toBe(200);
    const choice = r.json.choices[0];
    expect(choice.finish_reason).toBe('tool_calls');
    expect(choice.message.content).toBeNull();
    expect(choice.message.tool_calls).toHaveLength(1);
    const tc = choice.message.tool_calls[0];
    expect(tc).toMatchObject({ index: 0, type: 'function', function: { name: 'get_weather', arguments: '{}' } });
    expect(tc.id).toMatch(/^call_/);
    // deterministic
    const again = await call(srv, 'POST', '/api/ai/chat/completions', {
      model: 'gpt-4o-mini',
      tools,
      messages: [{ role: 'user', content: 'weather?' }],
    });
    expect(again.json.choices[0].message.tool_calls[0].id).toBe(tc.id);
  });

  it('works with the official openai package: create, stream and tools', async () => {
    const client = new OpenAI({ apiKey: 'test-key', baseURL: srv.url + '/api/ai', maxRetries: 0 });
    const c = await client.chat.completions.create({
      model: 'gpt-4o-mini',
      messages: [{ role: 'user', content: 'hi there' }],
    });
    expect(c.choices[0]?.message.content).toBe('Echo: hi there');
    const stream = await client.chat.completions.create({
      model: 'gpt-4o-mini',
      stream: true,
      messages: [{ role: 'user', content: 'stream me' }],
    });
    let text = '';
    const finishes: Array<string | null> = [];
    for await (const chunk of stream) {
      text += chunk.choices[0]?.delta.content ?? '';
      finishes.push(chunk.choices[0]?.finish_reason ?? null);
    }
    expect(text).toBe('Echo: stream me');
    expect(finishes.at(-1)).toBe('stop');
    const t = await client.chat.completions.create({
      model: 'gpt-4o-mini',
      messages: [{ role: 'user', content: 'x' }],
      tools: [{ type: 'function', function: { name: 'lookup', parameters: { type: 'object', properties: {} } } }],
    });
    const call0 = t.choices[0]?.message.tool_calls?.[0];
    expect(call0?.type === 'function' ? call0.function.name : undefined).toBe('lookup');
    await expect(
      client.chat.completions.create({ model: 'missing-model', messages: [{ role: 'user', content: 'x' }] }),
    ).rejects.toMatchObject({ status: 404 });
  });
});

describe('chat completions: a model with tools', () => {
  const tools = [
    {
      type: 'function',
      function: {
        name: 'get_weather',
        parameters: {
          type: 'object',
          properties: { city: { type: 'string' }, days: { type: 'integer' } },
          required: ['city'],
        },
      },
    },
  ];
  const sse = async (body: Record<string, unknown>): Promise<Array<Record<string, any>>> => {
    const res = await fetch(`${srv.url}/api/ai/chat/completions`, {
      method: 'POST',
      headers: { ...AUTH, 'Content-Type': 'application/json' },
      body: JSON.stringify({ ...body, stream: true }),
    });
    const text = await res.text();
    expect(text.endsWith('data: [DONE]\n\n')).toBe(true);
    return text
      .split('\n\n')
      .filter((b) => b && b !== 'data: [DONE]')
      .map((b) => JSON.parse(b.slice(6)));
  };

  it('calls the tool with arguments from its schema, then answers with text that uses the tool result', async () => {
    const messages: Array<Record<string, unknown>> = [{ role: 'user', content: 'Paris' }];
    const first = await call(srv, 'POST', '/api/ai/chat/completions', { model: 'gpt-4o-mini', tools, messages });
    const msg = first.json.choices[0].message;
    expect(first.json.choices[0].finish_reason).toBe('tool_calls');
    expect(JSON.parse(msg.tool_calls[0].function.arguments)).toEqual({ city: 'Paris', days: 1 });
    messages.push(msg, { role: 'tool', tool_call_id: msg.tool_calls[0].id, content: '{"temp":21}' });
    const second = await call(srv, 'POST', '/api/ai/chat/completions', { model: 'gpt-4o-mini', tools, messages });
    expect(second.json.choices[0]).toEqual({
      index: 0,
      message: { role: 'assistant', content: 'Tool results: {"temp":21}' },
      finish_reason: 'stop',
    });
  });

  it('streams a tool call in fragments: id and name first, then the arguments in pieces', async () => {
    const chunks = await sse({
      model: 'gpt-4o-mini',
      tools,
      messages: [{ role: 'user', content: 'Paris' }],
      stream_options: { include_usage: true },
    });
    const deltas = chunks.filter((c) => c.choices.length > 0).map((c) => c.choices[0].delta.tool_calls?.[0]);
    expect(deltas[0]).toMatchObject({ index: 0, type: 'function', function: { name: 'get_weather', arguments: '' } });
    expect(deltas[0].id).toMatch(/^call_/);
    const rest = deltas.slice(1).filter(Boolean);
    expect(rest.length).toBeGreaterThan(1);
    expect(rest.every((d) => d.id === undefined && d.function.name === undefined && d.index === 0)).toBe(true);
    expect(JSON.parse(rest.map((d) => d.function.arguments).join(''))).toEqual({ city: 'Paris', days: 1 });
    expect(chunks.at(-2)!.choices[0].finish_reason).toBe('tool_calls');
    expect(chunks.at(-1)).toMatchObject({ choices: [], usage: { total_tokens: expect.any(Number) } });
  });

  it('answers a JSON object in JSON mode, streamed or not, and follows a json_schema', async () => {
    const messages = [{ role: 'user', content: 'give json' }];
    const r = await call(srv, 'POST', '/api/ai/chat/completions', {
      model: 'gpt-4o-mini',
      messages,
      response_format: { type: 'json_object' },
    });
    expect(JSON.parse(r.json.choices[0].message.content)).toEqual({ echo: 'Echo: give json' });
    const chunks = await sse({ model: 'gpt-4o-mini', messages, response_format: { type: 'json_object' } });
    expect(JSON.parse(chunks.map((c) => c.choices[0].delta.content ?? '').join(''))).toEqual({
      echo: 'Echo: give json',
    });
    const schema = { type: 'object', properties: { name: { type: 'string' }, ok: { type: 'boolean' } } };
    const s = await call(srv, 'POST', '/api/ai/chat/completions', {
      model: 'gpt-4o-mini',
      messages,
      response_format: { type: 'json_schema', json_schema: { name: 'x', schema } },
    });
    expect(JSON.parse(s.json.choices[0].message.content)).toEqual({ name: 'Echo: give json', ok: true });
  });

  it('refuses unknown roles and tool messages without tool_call_id with a 400 (ours)', async () => {
    const bad = await call(srv, 'POST', '/api/ai/chat/completions', {
      model: 'gpt-4o-mini',
      messages: [{ role: 'wizard', content: 'x' }],
    });
    expect(bad.status).toBe(400);
    expect(errorText(bad.json)).toContain('messages[0].role: unknown role "wizard"');
    const tool = await call(srv, 'POST', '/api/ai/chat/completions', {
      model: 'gpt-4o-mini',
      messages: [
        { role: 'user', content: 'x' },
        { role: 'tool', content: 'y' },
      ],
    });
    expect(tool.status).toBe(400);
    expect(errorText(tool.json)).toContain('tool_call_id');
  });
});

describe('images and videos', () => {
  it('generates an image as a url that can be downloaded without auth, or as b64_json', async () => {
    const r = await call(srv, 'POST', '/api/ai/images/generate', {
      model: 'flux-1-dev',
      prompt: 'a cat',
      aspect_ratio: '1:1',
    });
    expect(r.status).toBe(200);
    expect(Object.keys(r.json).sort()).toEqual(['created', 'images', 'model']);
    expect(r.json.model).toBe('flux-1-dev');
    expect(r.json.images).toHaveLength(1);
    expect(Object.keys(r.json.images[0])).toEqual(['url']);
    expect(r.json.images[0].url).toMatch(new RegExp(`^${srv.url}/files/alice/[0-9a-f-]+\\.png$`));
    const file = await fetch(r.json.images[0].url);
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toBe('image/png');
    expect(
      Buffer.from(await file.arrayBuffer())
        .subarray(1, 4)
        .toString(),
    ).toBe('PNG');

    const b = await call(srv, 'POST', '/api/ai/images/generate', {
      model: 'flux-1-dev',
      prompt: 'a cat',
      response_format: 'b64_json',
    });
    expect(Object.keys(b.json.images[0])).toEqual(['b64_json']);
    expect(Buffer.from(b.json.images[0].b64_json, 'base64').subarray(1, 4).toString()).toBe('PNG');
    const bad = await call(srv, 'POST', '/api/ai/images/generate', {
      model: 'flux-1-dev',
      prompt: 'a cat',
      response_format: 'png',
    });
    expect(bad.status).toBe(400);
  });

  it('rejects empty prompts, unknown models and models of the wrong kind', async () => {
    expectError(
      await call(srv, 'POST', '/api/ai/images/generate', { model: 'flux-1-dev', prompt: '' }),
      400,
      'Prompt cannot be empty',
    );
    expectError(
      await call(srv, 'POST', '/api/ai/images/generate', { model: 'flux-1-dev', prompt: '   ' }),
      400,
      'Prompt cannot be empty',
    );
    expectError(
      await call(srv, 'POST', '/api/ai/images/generate', { model: 'flux-1-dev' }),
      400,
      'Prompt cannot be empty',
    );
    expectError(
      await call(srv, 'POST', '/api/ai/images/generate', { model: 'flux-9', prompt: 'x' }),
      404,
      'Model not found: flux-9',
    );
    expectError(
      await call(srv, 'POST', '/api/ai/images/edit', { model: 'flux-9', prompt: 'x' }),
      404,
      'Model not found: flux-9',
    );
    expectError(
      await call(srv, 'POST', '/api/ai/videos/generate', { model: 'flux-9', prompt: 'x' }),
      404,
      'Model not found: flux-9',
    );
    const wrong = await call(srv, 'POST', '/api/ai/images/generate', { model: 'google-veo-3-1', prompt: 'x' });
    expect(wrong.status).toBe(400);
    expect(errorText(wrong.json)).toContain('google-veo-3-1');
    const wrong2 = await call(srv, 'POST', '/api/ai/videos/generate', { model: 'gpt-4o-mini', prompt: 'x' });
    expect(wrong2.status).toBe(400);
    expect(errorText(wrong2.json)).toContain('gpt-4o-mini');
  });

  it('answers 403 Forbidden client errors for unfetchable input images', async () => {
    const u1 = 'https://images.example.invalid/a.png';
    expectError(
      await call(srv, 'POST', '/api/ai/images/edit', { model: 'flux-2-pro', prompt: 'x', input_image: [u1] }),
      400,
      `Client error '403 Forbidden' for url '${u1}'`,
    );
    const u2 = 'https://example.com/forbidden/b.png';
    expectError(
      await call(srv, 'POST', '/api/ai/images/edit', { model: 'qwen-image-edit', prompt: 'x', input_image: u2 }),
      400,
      `Client error '403 Forbidden' for url '${u2}'`,
    );
    const ok = await call(srv, 'POST', '/api/ai/images/edit', {
      model: 'qwen-image-edit',
      prompt: 'x',
      input_image: 'https://example.com/ok.png',
    });
    expect(ok.status).toBe(200);
  });

  it('validates parameters against the closed model schema with JSON pointers', async () => {
    const r = await call(srv, 'POST', '/api/ai/images/edit', {
      model: 'flux-2-pro',
      prompt: 'x',
      aspect_ratio: '7:5',
      num_inference_steps: 99,
      colour: 'red',
      target_namespace: 'alice',
    });
    expect(r.status).toBe(422);
    const m: string = errorText(r.json);
    expect(m.startsWith('Getting model response error: 422 - ')).toBe(true);
    expect(m).toContain('/aspect_ratio');
    expect(m).toContain('/num_inference_steps');
    expect(m).toContain('/colour');
    const missing = await call(srv, 'POST', '/api/ai/images/edit', { model: 'qwen-image-edit', prompt: 'x' });
    expect(missing.status).toBe(422);
    expect(errorText(missing.json)).toContain('/input_image');
  });

  it('enforces exactly one of prompt / multi_prompt on video models that take a prompt', async () => {
    expectError(
      await call(srv, 'POST', '/api/ai/videos/generate', {
        model: 'google-veo-3-1',
        prompt: 'a',
        multi_prompt: [{ prompt: 'b', duration: 4 }],
      }),
      422,
      "Getting model response error: 422 - Value error, Cannot provide both 'prompt' and 'multi_prompt'.",
    );
    expectError(
      await call(srv, 'POST', '/api/ai/videos/generate', { model: 'google-veo-3-1', duration: 8 }),
      422,
      "Getting model response error: 422 - Value error, Either 'prompt' or 'multi_prompt' must be provided.",
    );
    const multi = await call(srv, 'POST', '/api/ai/videos/generate', {
      model: 'google-veo-3-1',
      multi_prompt: [{ prompt: 'b', duration: 4 }],
    });
    expect(multi.status).toBe(200);
    // A model that takes no prompt: no prompt rule, the schema decides.
    const up = await call(srv, 'POST', '/api/ai/videos/generate', {
      model: 'topazlabs-video-upscale',
      input_video: 'https://example.com/v.mp4',
      response_format: 'b64_json',
    });
    expect(up.status).toBe(200);
    expect(Object.keys(up.json.videos[0])).toEqual(['b64_json']);
    const v = await call(srv, 'POST', '/api/ai/videos/generate', { model: 'happyhorse-1.1-t2v', prompt: 'horse' });
    expect(v.status).toBe(200);
    expect(v.json.videos[0].url).toMatch(/\/files\/alice\/[0-9a-f-]+\.mp4$/);
  });

  it('bills the target namespace and refuses namespaces the user cannot act in', async () => {
    const s = await start({ credits: { acme: 1 } });
    const ok = await call(s, 'POST', '/api/ai/images/generate', {
      model: 'flux-1-dev',
      prompt: 'x',
      target_namespace: 'acme',
    });
    expect(ok.status).toBe(200);
    expect(ok.json.images[0].url).toContain('/files/acme/');
    expectError(
      await call(s, 'POST', '/api/ai/images/generate', { model: 'flux-1-dev', prompt: 'x', target_namespace: 'acme' }),
      402,
      'Insufficient credits: namespace acme has 0 credits, 1 required',
    );
    const f = await call(s, 'POST', '/api/ai/images/generate', {
      model: 'flux-1-dev',
      prompt: 'x',
      target_namespace: 'globex',
    });
    expect(f.status).toBe(403);
    expect(errorText(f.json)).toContain('globex');
  });
});

describe('queue and events', () => {
  it.each(['today', '0.224.2'] as const)(
    'delivers succeeded events (plus an unrelated event) to a stream opened first; afterwards (%s) the generation is readable with its URL, or 404',
    async (mode) => {
      const s = mode === 'today' ? srv : legacy;
      expect(s.queueMode).toBe(mode);
      const ev = await openEvents(s);
      expect(ev.res.headers.get('content-type')).toBe('text/event-stream');
      expect(ev.res.headers.get('cache-control')).toBe('no-cache');
      const r = await call(s, 'POST', '/api/ai/queue', {
        model: 'flux-1-dev',
        prompt: 'a dog',
        num_generations: 2,
        seed: 7,
      });
      expect(r.status).toBe(200);
      expect(r.json.generations).toHaveLength(2);
      for (const g of r.json.generations) {
        expect(g.status).toBe(mode === 'today' ? 'queued' : 'processing');
        expect(g.generation_id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      }
      await ev.until(() => ev.completed().length >= 2);
      const byId = new Map(ev.completed().map((e) => [e.generation_id, e]));
      for (const g of r.json.generations) {
        const e = byId.get(g.generation_id);
        expect(Object.keys(e).sort()).toEqual(['generation_id', 'media_type', 'model', 'status', 'url']);
        expect(e).toMatchObject({ status: 'succeeded', media_type: 'image', model: 'flux-1-dev' });
        expect((await fetch(e.url)).status).toBe(200);
        const after = await call(s, 'GET', `/api/ai/queue/${g.generation_id}`);
        if (mode === '0.224.2') {
          expect(after.json).toEqual(NOT_FOUND_BODY);
          continue;
        }
        expect(after.status).toBe(200);
        expect(after.json).toEqual({
          generation_id: g.generation_id,
          model_name: 'flux-1-dev',
          prompt: 'a dog',
          media_type: 'image',
          status: 'succeeded',
          result_url: e.url,
          error_message: null,
          enqueued_at: after.json.enqueued_at,
          started_at: after.json.started_at,
          completed_at: after.json.completed_at,
          seed: 7,
        });
        expect(after.json.enqueued_at).toBeLessThanOrEqual(after.json.started_at);
        expect(after.json.started_at).toBeLessThanOrEqual(after.json.completed_at);
      }
      const unrelated = ev.frames().filter((f) => f.event === 'deployment_updated');
      expect(unrelated.length).toBeGreaterThanOrEqual(1);
      expect(typeof JSON.parse(unrelated[0]!.data!)).toBe('object');
      expect(ev.text()).toMatch(/event: media_generation_completed\ndata: \{[^\n]*\}\n\n/);
      ev.close();
    },
  );

  it('delivers failed events for [fail] and for parameters the model rejects; vanish gives no event', async () => {
    const ev = await openEvents(srv);
    const fail = await call(srv, 'POST', '/api/ai/queue', { model: 'google-veo-3-1', prompt: 'boom [fail]' });
    const invalid = await call(srv, 'POST', '/api/ai/queue', {
      model: 'google-veo-3-1',
      prompt: 'ok',
      duration: 'forever',
      colour: 1,
    });
    expect(invalid.status).toBe(200); // no parameter validation at enqueue
    const vanish = await call(srv, 'POST', '/api/ai/queue', { model: 'google-veo-3-1', prompt: 'gone [vanish]' });
    const failId = fail.json.generations[0].generation_id;
    const invalidId = invalid.json.generations[0].generation_id;
    const vanishId = vanish.json.generations[0].generation_id;
    await ev.until(() => ev.completed().length >= 2);
    await sleep(150);
    const events = ev.completed();
    expect(events).toHaveLength(2);
    const f = events.find((e) => e.generation_id === failId);
    expect(Object.keys(f).sort()).toEqual(['error', 'generation_id', 'media_type', 'status']);
    expect(f).toMatchObject({ status: 'failed', media_type: 'video' });
    const inv = events.find((e) => e.generation_id === invalidId);
    expect(inv.status).toBe('failed');
    expect(inv.error).toMatch(/^Getting model response error: 422 - .*\/colour/);
    expect(events.some((e) => e.generation_id === vanishId)).toBe(false);
    const g = await call(srv, 'GET', `/api/ai/queue/${vanishId}`);
    expect(g.status).toBe(404);
    expect(g.json).toEqual(NOT_FOUND_BODY);
    ev.close();
  });

  it('0.224.2: lists and gets held generations; cancel returns success, then get and delete give the exact 404 body; no event', async () => {
    const ev = await openEvents(srv);
    const r = await call(legacy, 'POST', '/api/ai/queue', {
      model: 'ltx-2-3-pro-22b-IC-LoRA-Union-Control',
      prompt: 'wait [hold]',
      aspect_ratio: '16:9',
      seed: 3,
    });
    const id = r.json.generations[0].generation_id;
    await sleep(100);
    const got = await call(legacy, 'GET', `/api/ai/queue/${id}`);
    expect(got.status).toBe(200);
    expect(got.json).toEqual({
      generation_id: id,
      model: 'ltx-2-3-pro-22b-IC-LoRA-Union-Control',
      prompt: 'wait [hold]',
      media_type: 'video',
      enqueued_at: got.json.enqueued_at,
      aspect_ratio: '16:9',
      seed: 3,
    });
    expect(Math.abs(got.json.enqueued_at - Date.now() / 1000)).toBeLessThan(5);
    const list = await call(legacy, 'GET', '/api/ai/queue?model=ltx-2-3-pro-22b-IC-LoRA-Union-Control');
    expect(list.json.count).toBe(1);
    expect(list.json.generations[0].generation_id).toBe(id);
    expect((await call(legacy, 'GET', '/api/ai/queue?model=flux-1-dev')).json).toEqual({ count: 0, generations: [] });
    const del = await call(legacy, 'DELETE', `/api/ai/queue/${id}`);
    expect(del.status).toBe(200);
    expect(del.json).toEqual({ status: 'success', generation_id: id });
    for (const method of ['GET', 'DELETE']) {
      const again = await call(legacy, method, `/api/ai/queue/${id}`);
      expect(again.status).toBe(404);
      expect(again.json).toEqual(NOT_FOUND_BODY);
    }
    await sleep(100);
    expect(ev.completed().some((e) => e.generation_id === id)).toBe(false);
    ev.close();
  });

  it('today: a held generation is processing; cancel makes it cancelled (readable, no event); a second DELETE has no effect', async () => {
    const ev = await openEvents(srv);
    const r = await call(srv, 'POST', '/api/ai/queue', {
      model: 'ltx-2-3-pro-22b-IC-LoRA-Union-Control',
      prompt: 'wait [hold]',
      aspect_ratio: '16:9',
      seed: 3,
      input_image: 'https://example.com/a.png',
    });
    expect(r.json.generations[0].status).toBe('queued');
    const id = r.json.generations[0].generation_id;
    await sleep(50);
    const got = await call(srv, 'GET', `/api/ai/queue/${id}`);
    expect(got.status).toBe(200);
    expect(got.json).toEqual({
      generation_id: id,
      model_name: 'ltx-2-3-pro-22b-IC-LoRA-Union-Control',
      prompt: 'wait [hold]',
      media_type: 'video',
      status: 'processing',
      result_url: null,
      error_message: null,
      enqueued_at: got.json.enqueued_at,
      started_at: got.json.started_at,
      completed_at: null,
      aspect_ratio: '16:9',
      seed: 3,
      input_image: 'https://example.com/a.png',
    });
    expect(Math.abs(got.json.enqueued_at - Date.now() / 1000)).toBeLessThan(5);
    expect(got.json.started_at).toBeGreaterThanOrEqual(got.json.enqueued_at);
    const list = await call(srv, 'GET', '/api/ai/queue?model=ltx-2-3-pro-22b-IC-LoRA-Union-Control');
    expect(list.json.generations.map((g: { generation_id: string }) => g.generation_id)).toEqual([id]);
    const del = await call(srv, 'DELETE', `/api/ai/queue/${id}`);
    expect(del.json).toEqual({ status: 'success', generation_id: id });
    const cancelled = await call(srv, 'GET', `/api/ai/queue/${id}`);
    expect(cancelled.json).toMatchObject({ status: 'cancelled', result_url: null, error_message: null });
    expect(cancelled.json.completed_at).toBeGreaterThanOrEqual(cancelled.json.started_at);
    const again = await call(srv, 'DELETE', `/api/ai/queue/${id}`);
    expect(again.status).toBe(200);
    expect((await call(srv, 'GET', `/api/ai/queue/${id}`)).json).toEqual(cancelled.json);
    // The default list shows the active generations only; a status filter shows the ended ones.
    expect((await call(srv, 'GET', '/api/ai/queue?model=ltx-2-3-pro-22b-IC-LoRA-Union-Control')).json).toEqual({
      count: 0,
      generations: [],
    });
    const byStatus = await call(
      srv,
      'GET',
      '/api/ai/queue?status=cancelled&model=ltx-2-3-pro-22b-IC-LoRA-Union-Control',
    );
    expect(byStatus.json).toEqual({ count: 1, generations: [cancelled.json] });
    expect((await call(srv, 'GET', '/api/ai/queue/no-such-id')).json).toEqual(NOT_FOUND_BODY);
    await sleep(50);
    expect(ev.completed().some((e) => e.generation_id === id)).toBe(false);
    ev.close();
  });

  it('today: ended generations keep status, result_url and error_message; the list filters by status, media_type, repo and folder', async () => {
    const s = await start({
      decide: ({ params }) =>
        String(params['prompt']).includes('[fail]')
          ? { outcome: 'failed', delayMs: 5, error: 'the model crashed' }
          : String(params['prompt']).includes('[hold]')
            ? { outcome: 'hold' }
            : { outcome: 'succeeded', delayMs: 5 },
    });
    const enqueue = async (body: Record<string, unknown>) =>
      (await call(s, 'POST', '/api/ai/queue', body)).json.generations[0].generation_id as string;
    const ok = await enqueue({ model: 'flux-1-dev', prompt: 'ok', repo: 'photos', folder: 'cats' });
    const failed = await enqueue({ model: 'flux-1-dev', prompt: 'no [fail]', repo: 'photos', folder: 'dogs' });
    const held = await enqueue({ model: 'google-veo-3-1', prompt: 'wait [hold]', duration: 4 });
    await until(() => s.queue.list().length === 1);
    const ids = async (query: string) =>
      (await call(s, 'GET', `/api/ai/queue${query}`)).json.generations.map(
        (g: { generation_id: string }) => g.generation_id,
      );
    expect(await ids('')).toEqual([held]);
    expect(await ids('?status=succeeded')).toEqual([ok]);
    expect(await ids('?status=failed')).toEqual([failed]);
    expect(await ids('?status=processing&media_type=video')).toEqual([held]);
    expect(await ids('?status=processing&media_type=image')).toEqual([]);
    expect(await ids('?status=failed&repo=photos&folder=dogs')).toEqual([failed]);
    expect(await ids('?status=succeeded&folder=dogs')).toEqual([]);
    const [a, b] = (await call(s, 'GET', '/api/ai/queue?status=succeeded')).json.generations.concat(
      (await call(s, 'GET', '/api/ai/queue?status=failed')).json.generations,
    );
    expect(a).toMatchObject({ status: 'succeeded', error_message: null, model_name: 'flux-1-dev' });
    expect(a.result_url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/files\/alice\/.+\.png$/);
    expect(b).toMatchObject({ status: 'failed', result_url: null, error_message: 'the model crashed' });
    for (const g of [a, b]) expect(Object.keys(g)).not.toContain('model');
    // A DELETE of an ended generation has no effect.
    expect((await call(s, 'DELETE', `/api/ai/queue/${ok}`)).status).toBe(200);
    expect((await call(s, 'GET', `/api/ai/queue/${ok}`)).json).toEqual(a);
  });

  it('0.224.2: expires generations after 24 hours via clock.advance, with no event', async () => {
    const s = await start({ queueMode: '0.224.2' });
    const ev = await openEvents(s);
    const r = await call(s, 'POST', '/api/ai/queue', { model: 'flux-1-dev', prompt: 'slow [hold]' });
    const id = r.json.generations[0].generation_id;
    s.clock.advance(23 * 3600 * 1000);
    expect((await call(s, 'GET', `/api/ai/queue/${id}`)).status).toBe(200);
    s.clock.advance(3600 * 1000 + 1);
    expect(s.queue.list()).toHaveLength(0);
    const g = await call(s, 'GET', `/api/ai/queue/${id}`);
    expect(g.status).toBe(404);
    expect(g.json).toEqual(NOT_FOUND_BODY);
    expect((await call(s, 'GET', '/api/ai/queue')).json.count).toBe(0);
    expect(ev.completed()).toHaveLength(0);
    ev.close();
  });

  it('rejects num_generations outside 1..4, unknown models and non-media models at enqueue', async () => {
    for (const n of [0, 5, 2.5, 'two']) {
      const r = await call(srv, 'POST', '/api/ai/queue', { model: 'flux-1-dev', prompt: 'x', num_generations: n });
      expect(r.status).toBe(400);
      expect(errorText(r.json)).toContain('num_generations');
    }
    expectError(await call(srv, 'POST', '/api/ai/queue', { model: 'nope', prompt: 'x' }), 404, 'Model not found: nope');
    expectError(
      await call(srv, 'POST', '/api/ai/queue', { model: 'gpt-4o-mini', prompt: 'x' }),
      400,
      'Model gpt-4o-mini does not produce image or video output',
    );
  });

  it('charges credits per generation and answers 402 when they run out (chat too)', async () => {
    const s = await start({ credits: { alice: 3 } });
    expect(
      (await call(s, 'POST', '/api/ai/queue', { model: 'flux-1-dev', prompt: 'x', num_generations: 3 })).status,
    ).toBe(200);
    expectError(
      await call(s, 'POST', '/api/ai/queue', { model: 'flux-1-dev', prompt: 'x' }),
      402,
      'Insufficient credits: namespace alice has 0 credits, 1 required',
    );
    expectError(
      await call(s, 'POST', '/api/ai/chat/completions', {
        model: 'gpt-4o-mini',
        messages: [{ role: 'user', content: 'x' }],
      }),
      402,
      'Insufficient credits: namespace alice has 0 credits, 1 required',
    );
    s.setCredits('alice', 1);
    expectError(
      await call(s, 'POST', '/api/ai/queue', { model: 'flux-1-dev', prompt: 'x', num_generations: 2 }),
      402,
      'Insufficient credits: namespace alice has 1 credits, 2 required',
    );
    expect(
      (
        await call(s, 'POST', '/api/ai/chat/completions', {
          model: 'gpt-4o-mini',
          messages: [{ role: 'user', content: 'x' }],
        })
      ).status,
    ).toBe(200);
  });

  it('scopes events to the enqueuing user, also for org namespaces, and uses decide', async () => {
    const decided: Array<{ index: number; namespace: string }> = [];
    const s = await start({
      users: { 'test-key': { user: 'alice', orgs: ['acme'] }, 'bob-key': { user: 'bob' } },
      decide: (g) => {
        decided.push({ index: g.index, namespace: g.namespace });
        return g.index === 0
          ? { outcome: 'succeeded', delayMs: 10 }
          : { outcome: 'failed', delayMs: 10, error: 'nope' };
      },
    });
    const alice = await openEvents(s);
    const bob = await openEvents(s, { Authorization: 'Bearer bob-key' });
    const r = await call(s, 'POST', '/api/ai/queue', {
      model: 'flux-1-dev',
      prompt: 'x',
      num_generations: 2,
      target_namespace: 'acme',
    });
    expect(r.status).toBe(200);
    await alice.until(() => alice.completed().length === 2);
    expect(
      alice
        .completed()
        .map((e) => e.status)
        .sort(),
    ).toEqual(['failed', 'succeeded']);
    expect(alice.completed().find((e) => e.status === 'failed').error).toBe('nope');
    expect(decided).toEqual([
      { index: 0, namespace: 'acme' },
      { index: 1, namespace: 'acme' },
    ]);
    expect((await call(s, 'GET', '/api/ai/queue?namespace=acme')).status).toBe(200);
    expect(
      (await call(s, 'GET', '/api/ai/queue?namespace=acme', undefined, { Authorization: 'Bearer bob-key' })).status,
    ).toBe(403);
    await sleep(50);
    expect(bob.completed()).toHaveLength(0);
    expect(bob.frames().some((f) => f.event === 'deployment_updated')).toBe(false);
    alice.close();
    bob.close();
  });

  it('sends keep-alive comments when idle, and test hooks emit/complete reach the stream', async () => {
    const s = await start({ keepAliveMs: 50 });
    const ev = await openEvents(s);
    await ev.until(() => ev.frames().filter((f) => f.comment === 'keep-alive').length >= 2, 1000);
    expect(ev.text()).toContain(': keep-alive\n\n');
    s.emit('alice', 'custom_event', { hello: 1 });
    await ev.until(() => ev.frames().some((f) => f.event === 'custom_event'));
    expect(JSON.parse(ev.frames().find((f) => f.event === 'custom_event')!.data!)).toEqual({ hello: 1 });
    const r = await call(s, 'POST', '/api/ai/queue', { model: 'flux-1-dev', prompt: '[hold]' });
    const id = r.json.generations[0].generation_id;
    expect(s.queue.list().map((g) => g.generation_id)).toEqual([id]);
    s.queue.complete(id, 'failed', 'forced');
    await ev.until(() => ev.completed().length === 1);
    expect(ev.completed()[0]).toEqual({ generation_id: id, status: 'failed', media_type: 'image', error: 'forced' });
    ev.close();
  });

  it('dropEventStreams ends an open stream abruptly', async () => {
    const ev = await openEvents(srv);
    await sleep(20);
    expect(ev.ended()).toBe(false);
    srv.dropEventStreams();
    await ev.until(() => ev.ended(), 2000);
    // abrupt: the body stream errors (no clean end)
    expect(ev.error()).toBeInstanceOf(Error);
  });
});

describe('faults', () => {
  it('429 with Retry-After, 500 and 503, each for the given number of requests', async () => {
    srv.faults.add({ path: '/api/ai/queue', method: 'GET', kind: '429', retryAfterSeconds: 3 });
    const r1 = await call(srv, 'GET', '/api/ai/queue');
    expect(r1.status).toBe(429);
    expect(r1.headers.get('retry-after')).toBe('3');
    expect(r1.json.status).toBe('error');
    expect((await call(srv, 'GET', '/api/ai/queue')).status).toBe(200);

    srv.faults.add({ path: '/api/ai/models/*', kind: '500', times: 2 });
    expect((await call(srv, 'GET', '/api/ai/models/flux-2-pro')).status).toBe(500);
    expect((await call(srv, 'GET', '/api/ai/models/flux-2-dev')).status).toBe(500);
    expect((await call(srv, 'GET', '/api/ai/models/flux-2-pro')).status).toBe(200);

    srv.faults.add({ path: /^\/api\/ai\/queue\//, kind: '503', retryAfterSeconds: 1 });
    const r3 = await call(srv, 'GET', '/api/ai/queue/abc');
    expect(r3.status).toBe(503);
    expect(r3.headers.get('retry-after')).toBe('1');

    srv.faults.add({ path: '/api/ai/models/flux-2-pro', kind: '404' });
    const r4 = await call(srv, 'GET', '/api/ai/models/flux-2-pro');
    expect(r4.status).toBe(404);
    expect(r4.json).toEqual(NOT_FOUND_BODY);
  });

  it('faults are checked before auth', async () => {
    srv.faults.add({ path: '/api/ai/queue', kind: '503' });
    expect((await call(srv, 'GET', '/api/ai/queue', undefined, {})).status).toBe(503);
  });

  it('reset gives a fetch TypeError and the request is not processed', async () => {
    const s = await start();
    s.faults.add({ path: '/api/ai/queue', method: 'POST', kind: 'reset' });
    await expect(call(s, 'POST', '/api/ai/queue', { model: 'flux-1-dev', prompt: '[hold]' })).rejects.toBeInstanceOf(
      TypeError,
    );
    expect(s.queue.list()).toHaveLength(0);
    expect(s.count('POST', '/api/ai/queue')).toBe(1);
    expect((await call(s, 'POST', '/api/ai/queue', { model: 'flux-1-dev', prompt: '[hold]' })).status).toBe(200);
    expect(s.queue.list()).toHaveLength(1);
  });

  it('500-after-enqueue creates the generation and charges credits, then answers 500', async () => {
    const s = await start({ credits: { alice: 10 } });
    s.faults.add({ path: '/api/ai/queue', method: 'POST', kind: '500-after-enqueue' });
    const r = await call(s, 'POST', '/api/ai/queue', { model: 'flux-1-dev', prompt: 'x [hold]', num_generations: 2 });
    expect(r.status).toBe(500);
    expect(s.queue.list()).toHaveLength(2);
    expect((await call(s, 'GET', '/api/ai/queue')).json.count).toBe(2);
    expectError(
      await call(s, 'POST', '/api/ai/queue', { model: 'flux-1-dev', prompt: 'x', num_generations: 9 }),
      400,
      'num_generations must be an integer from 1 to 4',
    );
    s.setCredits('alice', 0);
    expect((await call(s, 'POST', '/api/ai/queue', { model: 'flux-1-dev', prompt: 'x' })).status).toBe(402);
  });

  it('invalid-json answers 200 with a body that does not parse', async () => {
    srv.faults.add({ path: '/api/ai/queue', method: 'GET', kind: 'invalid-json' });
    const res = await fetch(`${srv.url}/api/ai/queue`, { headers: AUTH });
    expect(res.status).toBe(200);
    await expect(res.json()).rejects.toBeInstanceOf(SyntaxError);
  });

  it('slow-body pauses mid-body but still delivers the whole body', async () => {
    srv.faults.add({ path: '/api/ai/models/flux-2-pro', kind: 'slow-body', delayMs: 300 });
    const t0 = Date.now();
    const res = await fetch(`${srv.url}/api/ai/models/flux-2-pro`, { headers: AUTH });
    const headersAt = Date.now() - t0;
    const body = Buffer.from(await res.arrayBuffer());
    const total = Date.now() - t0;
    expect(headersAt).toBeLessThan(250);
    expect(total).toBeGreaterThanOrEqual(280);
    expect(body.equals(await readFile(`${REPO_ROOT}/specs/models/flux-2-pro.json`))).toBe(true);
  });

  it('hang never answers (the client times out), and close() does not hang on it', async () => {
    const s = await start();
    s.faults.add({ path: '/api/ai/queue', kind: 'hang' });
    await expect(fetch(`${s.url}/api/ai/queue`, { headers: AUTH, signal: AbortSignal.timeout(200) })).rejects.toThrow();
    const ev = await openEvents(s);
    const t0 = Date.now();
    await s.close();
    expect(Date.now() - t0).toBeLessThan(1000);
    await ev.until(() => ev.ended());
  });

  it('count() counts requests by method and path prefix or RegExp', async () => {
    const s = await start();
    s.faults.add({ path: '/api/ai/queue', method: 'GET', kind: '500', times: Infinity });
    for (let i = 0; i < 3; i++) expect((await call(s, 'GET', '/api/ai/queue?namespace=alice')).status).toBe(500);
    await call(s, 'GET', '/api/ai/models/flux-2-pro');
    expect(s.count('GET', '/api/ai/queue')).toBe(3);
    expect(s.count('get', '/api/ai/')).toBe(4);
    expect(s.count('POST', '/api/ai/queue')).toBe(0);
    expect(s.count('GET', /^\/api\/ai\/models\/[^/]+$/)).toBe(1);
    expect(s.requests.slice(0, 3).map(({ method, path, status }) => ({ method, path, status }))).toEqual([
      { method: 'GET', path: '/api/ai/queue', status: 500 },
      { method: 'GET', path: '/api/ai/queue', status: 500 },
      { method: 'GET', path: '/api/ai/queue', status: 500 },
    ]);
    s.faults.clear();
    expect((await call(s, 'GET', '/api/ai/queue')).status).toBe(200);
  });
});

describe('CORS', () => {
  it('answers a preflight without authentication: 204 with the allowed origin, headers, methods and max age', async () => {
    const res = await fetch(`${srv.url}/api/ai/images/generate`, {
      method: 'OPTIONS',
      headers: {
        Origin: 'http://page.example:8080',
        'Access-Control-Request-Method': 'POST',
        'Access-Control-Request-Headers': 'authorization, content-type, x-custom',
      },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe('http://page.example:8080');
    expect(res.headers.get('access-control-allow-methods')).toBe('GET, POST, DELETE, OPTIONS');
    const allowed = res.headers.get('access-control-allow-headers')!.split(/,\s*/);
    for (const h of ['authorization', 'content-type', 'accept', 'last-event-id', 'x-custom'])
      expect(allowed).toContain(h);
    expect(Number(res.headers.get('access-control-max-age'))).toBeGreaterThan(0);
    expect(srv.requests.at(-1)).toMatchObject({ method: 'OPTIONS', status: 204 });
  });

  it('sends Access-Control-Allow-Origin on every response (JSON, errors, event streams) and exposes Retry-After', async () => {
    const origin = { Origin: 'http://page.example' };
    const ok = await call(srv, 'GET', '/api/ai/models/flux-1-dev', undefined, { ...AUTH, ...origin });
    expect(ok.headers.get('access-control-allow-origin')).toBe('http://page.example');
    expect(ok.headers.get('vary')).toContain('Origin');
    const noOrigin = await call(srv, 'GET', '/api/ai/models/flux-1-dev');
    expect(noOrigin.headers.get('access-control-allow-origin')).toBe('*');
    const unauth = await call(srv, 'GET', '/api/ai/queue', undefined, origin);
    expect(unauth.status).toBe(401);
    expect(unauth.headers.get('access-control-allow-origin')).toBe('http://page.example');
    const s = await start();
    s.faults.add({ path: '/api/ai/queue', kind: '429', retryAfterSeconds: 3 });
    const limited = await call(s, 'GET', '/api/ai/queue', undefined, { ...AUTH, ...origin });
    expect(limited.status).toBe(429);
    expect(limited.headers.get('access-control-expose-headers')).toContain('Retry-After');
    const ac = new AbortController();
    const events = await fetch(`${s.url}/api/events`, { headers: { ...AUTH, ...origin }, signal: ac.signal });
    expect(events.headers.get('content-type')).toBe('text/event-stream');
    expect(events.headers.get('access-control-allow-origin')).toBe('http://page.example');
    ac.abort();
  });
});

describe('fine-tunes', () => {
  const base = '/api/repos/alice/my-repo/fine_tunes';
  it('validates the creation body per script_type', async () => {
    const tp = { question_column: 'q', answer_column: 'a' };
    const unknown = await call(srv, 'POST', base, {
      resource: 'main/data.csv',
      base_model: 'm',
      script_type: 'nope',
      training_params: tp,
    });
    expect(unknown.status).toBe(400);
    expect(errorText(unknown.json)).toContain(
      'text_generation, text_chat_messages, image_to_text, image_generation, image_editing, multi_image_editing, image_to_video',
    );
    const missing = await call(srv, 'POST', base, {
      resource: 'main/data.csv',
      base_model: 'm',
      script_type: 'text_generation',
      training_params: { question_column: 'q' },
    });
    expect(missing.status).toBe(400);
    expect(errorText(missing.json)).toContain('answer_column');
    const low = await call(srv, 'POST', base, {
      resource: 'main/data.csv',
      base_model: 'm',
      script_type: 'text_generation',
      training_params: { ...tp, epochs: 0 },
    });
    expect(low.status).toBe(400);
    expect(errorText(low.json)).toContain('epochs');
    const res = await call(srv, 'POST', base, {
      resource: 'data.csv',
      base_model: 'm',
      script_type: 'text_generation',
      training_params: tp,
    });
    expect(res.status).toBe(400);
    expect(errorText(res.json)).toContain('resource');
    const edit = await call(srv, 'POST', base, {
      resource: 'main/d.csv',
      base_model: 'm',
      script_type: 'image_editing',
      training_params: { caption_column: 'c', image_column: 'i' },
    });
    expect(edit.status).toBe(400);
    expect(errorText(edit.json)).toContain('control_image_column');
    const other = await call(srv, 'POST', '/api/repos/globex/r/fine_tunes', {
      resource: 'main/data.csv',
      base_model: 'm',
      script_type: 'text_generation',
      training_params: tp,
    });
    expect(other.status).toBe(403);
    expect(errorText(other.json)).toContain('globex');
  });

  it('creates with defaults filled and tokenizes only once', async () => {
    const created = await call(srv, 'POST', '/api/repos/acme/my-repo/fine_tunes', {
      resource: 'main/train/data.jsonl',
      base_model: 'some-base-model',
      script_type: 'image_to_text',
      training_params: { question_column: 'q', answer_column: 'a', image_columns: ['img'], epochs: 3 },
    });
    expect(created.status).toBe(200);
    const ft = created.json.fine_tune;
    expect(ft).toMatchObject({
      status: 'created',
      resource: 'main/train/data.jsonl',
      base_model: 'some-base-model',
      script_type: 'image_to_text',
    });
    expect(ft.training_params).toMatchObject({
      epochs: 3,
      seq_length: 4096,
      batch_size: 1,
      learning_rate: 0.0001,
      use_lora: true,
      save_strategy: 'epoch',
    });
    const path = `/api/repos/acme/my-repo/fine_tunes/${ft.id}/tokenize`;
    const t1 = await call(srv, 'POST', path);
    expect(t1.status).toBe(200);
    expect(t1.json.fine_tune).toMatchObject({ id: ft.id, status: 'tokenizing' });
    expectError(await call(srv, 'POST', path), 400, `Fine-tune ${ft.id} is not in the created state`);
    const wrongRepo = await call(srv, 'POST', `/api/repos/acme/other-repo/fine_tunes/${ft.id}/tokenize`);
    expect(wrongRepo.status).toBe(404);
    expect(wrongRepo.json.error.type).toBe('resource_not_found');
    const img = await call(srv, 'POST', base, {
      resource: 'main/d.csv',
      base_model: 'm',
      script_type: 'image_to_video',
      training_params: { caption_column: 'c', image_column: 'i' },
    });
    expect(img.json.fine_tune.training_params).toMatchObject({
      steps: 3000,
      num_frames: 81,
      timestep_type: 'weighted',
    });
    expect('use_lora' in img.json.fine_tune.training_params).toBe(false);
    expect(img.json.fine_tune.training_params.samples).toHaveLength(2);
  });
});

describe('scripts/serve.ts', () => {
  it('prints the listening line and the key hint, serves, and stops on SIGTERM', async () => {
    const serve = startProcess(
      process.execPath,
      tsxArgs('scripts/serve.ts', ['--port', '0', '--worker-delay-ms', '5']),
    );
    const lines = (await serve.waitFor('API key', { stream: 'stdout', ms: 10_000 })).trim().split('\n');
    expect(lines[0]).toMatch(/^listening on http:\/\/127\.0\.0\.1:[1-9]\d*$/);
    expect(lines[1]).toBe('API key: test-key');
    const url = lines[0]!.slice('listening on '.length);
    const res = await fetch(`${url}/api/ai/models/gpt-4o-mini`, { headers: AUTH });
    expect(res.status).toBe(200);
    serve.child.kill('SIGTERM');
    expect((await serve.done).code).toBe(0);
  }, 15_000);

  it('--queue-mode 0.224.2 serves the queue as the API description says; another value is refused (exit 2)', async () => {
    const serve = startProcess(
      process.execPath,
      tsxArgs('scripts/serve.ts', ['--port', '0', '--queue-mode', '0.224.2']),
    );
    const out = await serve.waitFor('API key', { stream: 'stdout', ms: 10_000 });
    const url = /listening on (\S+)/.exec(out)![1]!;
    const res = await fetch(`${url}/api/ai/queue`, {
      method: 'POST',
      headers: { ...AUTH, 'Content-Type': 'application/json' },
      body: JSON.stringify({ model: 'flux-1-dev', prompt: 'x [hold]' }),
    });
    expect(((await res.json()) as { generations: Array<{ status: string }> }).generations[0]!.status).toBe(
      'processing',
    );
    serve.child.kill('SIGTERM');
    expect((await serve.done).code).toBe(0);
    const bad = await runTsx('scripts/serve.ts', ['--queue-mode', 'tomorrow']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--queue-mode needs today or 0.224.2, got tomorrow');
  }, 20_000);
});

/** The pids of `pid`'s descendants (Linux /proc). */
async function descendants(pid: number): Promise<number[]> {
  const parents = new Map<number, number>();
  for (const name of await readdir('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      parents.set(Number(name), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch {
      /* gone meanwhile */
    }
  }
  const out: number[] = [];
  const walk = (p: number) => {
    for (const [child, parent] of parents) if (parent === p) (out.push(child), walk(child));
  };
  walk(pid);
  return out;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.[0] !== 'Z'; // a zombie has exited
  } catch {
    return false;
  }
}

/** `npm run serve -- --port 0`: the child, its listening URL, and the pids of the processes it started. */
async function npmServe(): Promise<{
  child: ChildProcess;
  url: string;
  pids: number[];
  exited: Promise<[number | null, string | null]>;
}> {
  const child = spawn('npm', ['run', 'serve', '--', '--port', '0'], {
    cwd: REPO_ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<[number | null, string | null]>((r) =>
    child.on('exit', (code, signal) => r([code, signal])),
  );
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  const deadline = Date.now() + 20_000;
  let m: RegExpExecArray | null;
  while (!(m = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out)) && Date.now() < deadline) await sleep(50);
  if (!m) throw new Error(`npm run serve did not start: ${out}`);
  return { child, url: m[1]!, pids: await descendants(child.pid!), exited };
}

describe('npm run serve stops cleanly', () => {
  const script = (
    JSON.parse(readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }
  ).scripts['serve']!;

  it.each(['SIGTERM', 'SIGINT'] as const)(
    '%s sent to the npm process: the port stops answering and every process it started exits',
    async (signal) => {
      // npm passes a signal to `sh -c <script>`, which does not pass it on; only a script that
      // `exec`s its command lets SIGINT reach the server (SIGTERM kills sh, which the server notices).
      if (signal === 'SIGINT')
        expect(
          script,
          'package.json "serve" must be "exec tsx scripts/serve.ts" for SIGINT to reach the server',
        ).toMatch(/^exec /);
      const { child, url, pids, exited } = await npmServe();
      expect(pids.length).toBeGreaterThan(0);
      expect((await fetch(`${url}/api/ai/models/flux-1-dev`, { headers: AUTH })).status).toBe(200);
      child.kill(signal);
      await exited;
      const deadline = Date.now() + 10_000;
      while (pids.some(alive) && Date.now() < deadline) await sleep(50);
      expect(pids.filter(alive)).toEqual([]);
      const err = await fetch(`${url}/api/ai/queue`).then(
        () => undefined,
        (e: unknown) => e as Error & { cause?: { code?: string } },
      );
      expect(err?.cause?.code).toBe('ECONNREFUSED');
    },
    40_000,
  );
});
