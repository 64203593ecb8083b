// Each endpoint end to end over loopback: success paths and the description's error messages,
// mapped to error classes. Also: the API key never leaks into errors, and the official `openai`
// package works against the chat endpoint.
import { inspect } from 'node:util';
import OpenAI from 'openai';
import { describe, expect, expectTypeOf, it } from 'vitest';
import {
  AbortError,
  APIError,
  AuthenticationError,
  BadRequestError,
  InsufficientCreditsError,
  NotFoundError,
  UnprocessableEntityError,
  ValidationError,
  DEFAULT_TIMEOUTS_MS,
  type ChatCompletion,
  type ChatCompletionChunk,
  type FineTuneCreateParams,
  type ImageEditingTrainingParams,
} from '../../index.ts';
import { endpointTimeout } from '../../runtime/scope.ts';
import { ChatCompletionStream } from '../../runtime/chat/stream.ts'; // the class (the package index exports its type only)
import { Client, rejectionOf, useServers } from './helpers.ts';

const setup = useServers();
const user = (content: string) => [{ role: 'user' as const, content }];

describe('images', () => {
  it('generate returns url items by default and b64_json items on request', async () => {
    const { client } = await setup();
    const res = await client.images.generate({ model: 'flux-1-dev', prompt: 'a red fox', aspect_ratio: '16:9' });
    expect(res.model).toBe('flux-1-dev');
    expect(res.images).toHaveLength(1);
    expect(res.images[0]!.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/files\//);
    const b64 = await client.images.generate({ model: 'flux-1-dev', prompt: 'a red fox', response_format: 'b64_json' });
    expect(typeof b64.images[0]!.b64_json).toBe('string');
    expect(b64.images[0]).not.toHaveProperty('url');
  });

  it('generate: empty prompt -> BadRequestError "Prompt cannot be empty"; unknown model -> NotFoundError', async () => {
    const { client } = await setup();
    const empty = await rejectionOf(client.images.generate({ model: 'flux-1-dev', prompt: '' }));
    expect(empty).toBeInstanceOf(BadRequestError);
    expect(empty.message).toBe('Prompt cannot be empty');
    expect((empty as APIError).status).toBe(400);
    const unknown = await rejectionOf(client.untyped.images.generate({ model: 'no-such-model', prompt: 'x' }));
    expect(unknown).toBeInstanceOf(NotFoundError);
    expect(unknown.message).toBe('Model not found: no-such-model');
  });

  it('edit returns an image; an unfetchable input URL is a 403-Forbidden client error', async () => {
    const { client } = await setup();
    const res = await client.images.edit({
      model: 'flux-kontext-dev',
      prompt: 'make it blue',
      input_image: 'https://example.com/in.png',
    });
    expect(res.images[0]!.url).toContain('/files/');
    const err = await rejectionOf(
      client.images.edit({ model: 'flux-kontext-dev', prompt: 'x', input_image: 'https://cdn.example.invalid/in.png' }),
    );
    expect(err).toBeInstanceOf(APIError);
    expect(err.message).toContain('403 Forbidden');
  });
});

describe('videos', () => {
  it('generate returns a video url', async () => {
    const { client } = await setup();
    const res = await client.videos.generate({ model: 'google-veo-3-1', prompt: 'waves', duration: 4 });
    expect(res.videos[0]!.url).toMatch(/\.mp4$/);
  });

  it('both or neither of prompt / multi_prompt -> UnprocessableEntityError with the description text', async () => {
    const { client } = await setup();
    const both = await rejectionOf(
      client.untyped.videos.generate({
        model: 'google-veo-3-1',
        prompt: 'a',
        multi_prompt: [{ prompt: 'b', duration: 4 }],
      }),
    );
    expect(both).toBeInstanceOf(UnprocessableEntityError);
    expect(both.message).toBe(
      "Getting model response error: 422 - Value error, Cannot provide both 'prompt' and 'multi_prompt'.",
    );
    const neither = await rejectionOf(client.untyped.videos.generate({ model: 'google-veo-3-1' }));
    expect(neither).toBeInstanceOf(UnprocessableEntityError);
    expect(neither.message).toBe(
      "Getting model response error: 422 - Value error, Either 'prompt' or 'multi_prompt' must be provided.",
    );
  });
});

describe('videos: multi_prompt and timeouts', () => {
  const shots = [
    { prompt: 'a fox wakes up', duration: 3 },
    { prompt: 'it runs', duration: 2 },
  ];

  it('multi_prompt instead of prompt, typed, on videos.generate and the queue of a model whose schema requires prompt', async () => {
    const { client, server } = await setup();
    const res = await client.videos.generate({ model: 'bytedance-seedance-2-0-text-to-video', multi_prompt: shots });
    expect(res.videos[0]!.url).toMatch(/\.mp4$/);
    const [outcome] = await client.queue.run({ model: 'bytedance-seedance-2-0-text-to-video', multi_prompt: shots });
    expect(outcome!.status).toBe('succeeded');
    expect(server.count('POST', '/api/ai/queue')).toBe(1);
  });

  it('both or neither on the queue: ValidationError naming the fields, nothing enqueued', async () => {
    const { client, server } = await setup();
    const both = await rejectionOf(
      client.untyped.queue.enqueue({ model: 'bytedance-seedance-2-0-text-to-video', prompt: 'a', multi_prompt: shots }),
    );
    expect(both).toBeInstanceOf(ValidationError);
    expect((both as ValidationError).issues).toEqual([
      {
        pointer: '/multi_prompt',
        message: 'cannot be given together with prompt: give exactly one of prompt and multi_prompt',
        keyword: 'not',
      },
    ]);
    const neither = await rejectionOf(
      client.untyped.queue.run({ model: 'bytedance-seedance-2-0-text-to-video', resolution: '720p' }),
    );
    expect(neither).toBeInstanceOf(ValidationError);
    expect((neither as ValidationError).issues).toEqual([
      {
        pointer: '/prompt',
        message: 'is required (or multi_prompt instead: exactly one of prompt and multi_prompt)',
        keyword: 'required',
      },
    ]);
    const badShot = await rejectionOf(
      client.untyped.queue.enqueue({ model: 'bytedance-seedance-2-0-text-to-video', multi_prompt: [{ prompt: 'a' }] }),
    );
    expect((badShot as ValidationError).issues).toEqual([
      { pointer: '/multi_prompt/0/duration', message: 'is required', keyword: 'required' },
    ]);
    // a model the snapshot does not know (no validator): still not both
    const unknown = await rejectionOf(
      client.untyped.queue.enqueue({ model: 'video-model-of-tomorrow', prompt: 'a', multi_prompt: shots }),
    );
    expect((unknown as ValidationError).issues.map((i) => i.pointer)).toEqual(['/multi_prompt']);
    expect(server.count('POST', '/api/ai/queue')).toBe(0);
  });

  it('default timeouts are per endpoint, longer than the description says each may take; the client or the call overrides them', () => {
    const c = new Client({ apiKey: 'k', baseUrl: 'http://127.0.0.1:1' });
    expect(c.settings.endpointTimeoutsMs).toEqual(DEFAULT_TIMEOUTS_MS);
    expect(DEFAULT_TIMEOUTS_MS.videos).toBeGreaterThan(15 * 60_000); // synchronous videos block up to 15 minutes
    expect(DEFAULT_TIMEOUTS_MS.images).toBeGreaterThan(30_000); // typically 5 to 30 seconds
    expect(endpointTimeout(c, 'videos', undefined)).toEqual({ timeoutMs: 1_200_000 });
    expect(endpointTimeout(c, 'videos', { timeoutMs: 5 })).toEqual({ timeoutMs: 5 });
    const clientWide = new Client({ apiKey: 'k', baseUrl: 'http://127.0.0.1:1', timeoutMs: 50 });
    expect(clientWide.settings.endpointTimeoutsMs).toBeUndefined();
    expect(endpointTimeout(clientWide, 'videos', undefined)).toBeUndefined();
  });

  it('a client-wide timeoutMs applies to videos.generate too', async () => {
    const { client, server } = await setup({}, { timeoutMs: 200 });
    server.faults.add({ method: 'POST', path: '/api/ai/videos/generate', kind: 'hang' });
    const err = await rejectionOf(client.videos.generate({ model: 'google-veo-3-1', prompt: 'waves' }));
    // a generating POST that timed out in flight: its outcome is unknown (never resent)
    expect(err).toMatchObject({ name: 'OutcomeUnknownError', reason: 'timeout' });
    expect(String((err.cause as Error | undefined)?.message)).toContain('200 ms');
  });
});

describe('chat', () => {
  it('create returns a chat completion', async () => {
    const { client } = await setup();
    const res = await client.chat.completions.create({ model: 'gpt-4o-mini', messages: user('hello world') });
    expect(res.id).toMatch(/^chatcmpl-/);
    expect(res.object).toBe('chat.completion');
    expect(res.choices[0]!.message.content).toBe('Echo: hello world');
    expect(res.choices[0]!.finish_reason).toBe('stop');
    expect(res.usage?.total_tokens).toBeGreaterThan(0);
  });

  it('errors: no model, unknown model, empty messages', async () => {
    const { client } = await setup();
    const noModel = await rejectionOf(client.untyped.chat.completions.create({ messages: user('x') } as never));
    expect(noModel).toBeInstanceOf(BadRequestError);
    expect(noModel.message).toBe('You must specify a model to call');
    const unknown = await rejectionOf(client.untyped.chat.completions.create({ model: 'nope', messages: user('x') }));
    expect(unknown).toBeInstanceOf(NotFoundError);
    expect(unknown.message).toBe('Model not found: nope');
    const empty = await rejectionOf(client.chat.completions.create({ model: 'gpt-4o-mini', messages: [] }));
    expect(empty).toBeInstanceOf(BadRequestError);
    expect(empty.message).toBe('Messages array cannot be empty');
  });

  it('types: stream: true resolves to the stream, otherwise to ChatCompletion; fine-tune bodies are typed by script_type', () => {
    const client = new Client({ apiKey: 'k', baseUrl: 'http://127.0.0.1:9' });
    const streamed = () => client.chat.completions.create({ model: 'gpt-4o-mini', messages: [], stream: true });
    const plain = () => client.chat.completions.create({ model: 'gpt-4o-mini', messages: [] });
    expectTypeOf(streamed).returns.resolves.toEqualTypeOf<ChatCompletionStream>();
    expectTypeOf(plain).returns.resolves.toEqualTypeOf<ChatCompletion>();
    type Editing = Extract<FineTuneCreateParams, { script_type: 'image_editing' }>['training_params'];
    expectTypeOf<Editing>().toEqualTypeOf<ImageEditingTrainingParams>();
    expectTypeOf<Editing['timestep_type']>().toEqualTypeOf<'weighted' | 'sigmoid' | 'linear' | undefined>();
    expectTypeOf<Editing['control_image_column']>().toEqualTypeOf<string>();
  });

  it('stream: true yields chunks, then ends at [DONE]', async () => {
    const { client } = await setup();
    const stream = await client.chat.completions.create({
      model: 'gpt-4o-mini',
      messages: user('one two three'),
      stream: true,
    });
    expect(stream).toBeInstanceOf(ChatCompletionStream);
    const chunks: ChatCompletionChunk[] = [];
    for await (const chunk of stream) chunks.push(chunk);
    expect(chunks.length).toBe(4); // "Echo:", "one", "two", "three"
    expect(chunks.every((c) => c.object === 'chat.completion.chunk')).toBe(true);
    expect(chunks.map((c) => c.choices[0]!.delta.content).join('')).toBe('Echo: one two three');
    expect(chunks.at(-1)!.choices[0]!.finish_reason).toBe('stop');
    expect(chunks.slice(0, -1).every((c) => c.choices[0]!.finish_reason === null)).toBe(true);
  });

  it('a stream is abortable: an aborted signal ends it with AbortError', async () => {
    const { client } = await setup();
    const ac = new AbortController();
    ac.abort();
    const err = await rejectionOf(
      client.chat.completions.create(
        { model: 'gpt-4o-mini', messages: user('x'), stream: true },
        { signal: ac.signal },
      ),
    );
    expect(err).toBeInstanceOf(AbortError);
    const stream = await client.chat.completions.create({
      model: 'gpt-4o-mini',
      messages: user('a b c d e f'),
      stream: true,
    });
    const seen: string[] = [];
    const iterate = async () => {
      for await (const c of stream) {
        seen.push(c.choices[0]!.delta.content ?? '');
        stream.abort();
      }
    };
    const e2 = await rejectionOf(iterate());
    expect(e2).toBeInstanceOf(AbortError);
    expect(seen.length).toBeLessThan(7);
  });

  it('the official openai package works with baseURL <server>/api/ai (create and stream)', async () => {
    const { server } = await setup();
    const openai = new OpenAI({ apiKey: 'test-key', baseURL: `${server.url}/api/ai`, maxRetries: 0 });
    const res = await openai.chat.completions.create({
      model: 'gpt-4o-mini',
      messages: [{ role: 'user', content: 'hi there' }],
    });
    expect(res.choices[0]!.message.content).toBe('Echo: hi there');
    const stream = await openai.chat.completions.create({
      model: 'gpt-4o-mini',
      messages: [{ role: 'user', content: 'hi there' }],
      stream: true,
    });
    let text = '';
    for await (const chunk of stream) text += chunk.choices[0]?.delta?.content ?? '';
    expect(text).toBe('Echo: hi there');
  });
});

describe('models', () => {
  it('retrieve normalises json_request_schema and request_schema to request_schema', async () => {
    const { client } = await setup();
    const flux = await client.models.retrieve('flux-1-dev'); // stored under json_request_schema
    expect(flux.id).toBe('flux-1-dev');
    expect(flux).not.toHaveProperty('json_request_schema');
    expect(Object.keys((flux.request_schema as { properties: object }).properties)).toContain('aspect_ratio');
    const veo = await client.models.retrieve('google-veo-3-1'); // stored under request_schema
    expect((veo.request_schema as { required: string[] }).required).toEqual(['prompt']);
    const chat = await client.models.retrieve('gpt-4o-mini');
    expect(chat.request_schema).toBeNull();
    const err = await rejectionOf(client.models.retrieve('no-such-model'));
    expect(err).toBeInstanceOf(NotFoundError);
    expect(err.message).toBe('Model not found: no-such-model');
  });
});

describe('fine-tunes', () => {
  it('create (typed by script_type), tokenize, and 404 for an unknown fine-tune', async () => {
    const { client } = await setup();
    const created = (await client.fineTunes.create(
      { namespace: 'alice', repo_name: 'data' },
      {
        resource: 'main/train.jsonl',
        base_model: 'some-base',
        script_type: 'image_editing',
        training_params: { caption_column: 'c', image_column: 'i', control_image_column: 'ctrl', steps: 10 },
      },
    )) as { fine_tune: { id: string; status: string; training_params: Record<string, unknown> } };
    expect(created.fine_tune.status).toBe('created');
    expect(created.fine_tune.training_params['timestep_type']).toBe('weighted'); // default filled by the service
    const tokenized = (await client.fineTunes.tokenize({
      namespace: 'alice',
      repo_name: 'data',
      id: created.fine_tune.id,
    })) as { fine_tune: { status: string } };
    expect(tokenized.fine_tune.status).not.toBe('created');
    const missing = await rejectionOf(
      client.fineTunes.tokenize({ namespace: 'alice', repo_name: 'data', id: 'ft_nope' }),
    );
    expect(missing).toBeInstanceOf(NotFoundError);
    expect((missing as NotFoundError).status).toBe(404);
    expect((missing as NotFoundError).body).toMatchObject({
      error: { type: 'resource_not_found' },
      status_message: 'resource_not_found',
    });
  });

  it('create: a missing required column is rejected by the service (BadRequestError)', async () => {
    const { client, server } = await setup();
    const err = await rejectionOf(
      client.fineTunes.create(
        { namespace: 'alice', repo_name: 'data' },
        {
          resource: 'main/train.jsonl',
          base_model: 'b',
          script_type: 'text_generation',
          // @ts-expect-error question_column is required for text_generation
          training_params: { answer_column: 'a' },
        },
      ),
    );
    expect(err).toBeInstanceOf(BadRequestError);
    expect(err.message).toContain('question_column');
    expect(server.count('POST', '/api/repos/alice/data/fine_tunes')).toBe(1);
  });
});

describe('auth and credits', () => {
  it('an unknown key -> AuthenticationError, and the key appears in no message, JSON or stack', async () => {
    const secret = 'sk-very-secret-key-123456789';
    const { server } = await setup();
    const client = new Client({ apiKey: secret, baseUrl: server.url, retryBaseDelayMs: 10 });
    const errors = [
      await rejectionOf(client.queue.list()),
      await rejectionOf(client.images.generate({ model: 'flux-1-dev', prompt: 'x' })),
      await rejectionOf(client.queue.run({ model: 'flux-1-dev', prompt: 'x' }, { timeoutMs: 2_000 })),
    ];
    for (const err of errors) {
      expect(err).toBeInstanceOf(AuthenticationError);
      expect((err as AuthenticationError).status).toBe(401);
      for (const text of [err.message, JSON.stringify(err), String(err.stack), JSON.stringify((err as APIError).body)])
        expect(text).not.toContain(secret);
    }
    expect(server.count('POST', '/api/ai/queue')).toBe(0); // the run failed on the event stream, before enqueueing
    expect(inspect(client, { depth: 6 })).not.toContain(secret); // nor does logging the client
  });

  it('insufficient credits -> InsufficientCreditsError (sync endpoint and enqueue)', async () => {
    const { client, server } = await setup();
    server.setCredits('alice', 0);
    const a = await rejectionOf(client.images.generate({ model: 'flux-1-dev', prompt: 'x' }));
    expect(a).toBeInstanceOf(InsufficientCreditsError);
    expect(a.message).toMatch(/credit/i);
    const b = await rejectionOf(client.queue.enqueue({ model: 'flux-1-dev', prompt: 'x', num_generations: 2 }));
    expect(b).toBeInstanceOf(InsufficientCreditsError);
    expect(server.count('POST', '/api/ai/queue')).toBe(1); // a 402 is not retried
  });
});
