// The models catalog end to end over loopback against the local server: list (with its filters),
// search, retrieve (with `deployment_status`), activate and deactivate of a custom deployment.
import { describe, expect, it } from 'vitest';
import { BadRequestError, InvalidResponseError, NotFoundError, SDKError, type Model } from '../../index.ts';
import { listModels, searchModels } from '../../runtime/index.ts';
import { rejectionOf, useServers } from './helpers.ts';

const setup = useServers();

describe('models.list', () => {
  it('lists the catalog OpenAI-style, every item with request_schema null and the docs’ model fields', async () => {
    const { client, server } = await setup();
    const list = await client.models.list();
    expect(list.object).toBe('list');
    expect(list.data.length).toBeGreaterThan(100);
    const flux = list.data.find((m) => m.id === 'flux-1-dev')!;
    expect(flux).toMatchObject({
      object: 'model',
      model_type: 'base',
      endpoint: '/images/generate',
      pricing: { method: 'per_image' },
      deployments: [],
      developer: { name: 'Black Forest Labs' },
    });
    expect(list.data.every((m) => m.request_schema === null)).toBe(true);
    expect(server.count('GET', /^\/api\/ai\/models$/)).toBe(1);
  });

  it('filters by developer_name and by fine-tuning action (query parameters sent only when given)', async () => {
    const urls: string[] = [];
    const { client, server } = await setup({}, { onRequest: (r) => void urls.push(r.url) });
    const openai = await client.models.list({ developer_name: 'openai' });
    expect(openai.data.length).toBeGreaterThan(3);
    expect(openai.data.every((m) => m.developer?.name === 'OpenAI')).toBe(true);
    const editing = await client.models.list({ action: 'image_editing' });
    expect(editing.data.map((m) => m.id).sort()).toEqual(['flux-kontext-dev', 'qwen-image-edit']);
    expect(editing.data.every((m) => m.fine_tuning?.actions?.includes('image_editing'))).toBe(true);
    const none = await client.models.list({ developer_name: 'nobody' });
    expect(none.data).toEqual([]);
    expect(server.count('GET', /^\/api\/ai\/models$/)).toBe(3);
    expect(urls.map((u) => new URL(u).search)).toEqual([
      '?developer_name=openai',
      '?action=image_editing',
      '?developer_name=nobody',
    ]);
  });

  it('a light function over any transport does the same', async () => {
    const { client } = await setup();
    const list = await listModels(client, { developer_name: 'anthropic' });
    expect(list.data.length).toBeGreaterThan(0);
    expect(list.data.every((m) => m.id.startsWith('claude'))).toBe(true);
  });

  it('an answer without a data array is an InvalidResponseError', async () => {
    const { client, server } = await setup();
    server.faults.add({ path: '/api/ai/models', kind: 'wrong-shape' });
    expect(await rejectionOf(client.models.list())).toBeInstanceOf(InvalidResponseError);
  });
});

describe('models.search', () => {
  it('finds models by id or display name, in the list shape; a literal path, not a model id', async () => {
    const { client, server } = await setup();
    const found = await client.models.search('KLING');
    expect(found.object).toBe('list');
    expect(found.data.length).toBeGreaterThan(2);
    expect(found.data.every((m) => m.id.includes('kling') && m.request_schema === null)).toBe(true);
    expect((await searchModels(client, 'no-such-model-anywhere')).data).toEqual([]);
    expect(server.count('GET', '/api/ai/models/search')).toBe(2);
    // `search` is required: the service's 400 reaches the caller
    expect(await rejectionOf(client.models.search(''))).toBeInstanceOf(BadRequestError);
  });
});

describe('models.retrieve', () => {
  it('passes deployment_status and keeps rejecting an unknown id and a bad path parameter', async () => {
    const urls: string[] = [];
    const { client, server } = await setup({}, { onRequest: (r) => void urls.push(r.url) });
    const veo = await client.models.retrieve('google-veo-3-1', { deployment_status: 'live' });
    expect(veo.id).toBe('google-veo-3-1');
    expect(veo.request_schema).not.toBeNull();
    expect(urls).toEqual([`${server.url}/api/ai/models/google-veo-3-1?deployment_status=live`]);
    const err = await rejectionOf(client.models.retrieve('no-such-model'));
    expect(err).toBeInstanceOf(NotFoundError);
    expect(err.message).toBe('Model not found: no-such-model');
    const before = server.requests.length;
    expect(await rejectionOf(client.models.retrieve('..'))).toBeInstanceOf(SDKError);
    expect(server.requests.length).toBe(before);
  });
});

describe('models.activate / models.deactivate', () => {
  /** A fine-tune of `flux-kontext-dev` deployed as a custom model of alice; resolves to its slug. */
  async function deployed(client: Awaited<ReturnType<typeof setup>>['client']): Promise<string> {
    const repo = { namespace: 'alice', repo_name: 'data' };
    const { fine_tune } = await client.fineTunes.create(repo, {
      resource: 'main/edits.parquet',
      base_model: 'black-forest-labs/FLUX.1-Kontext-dev',
      script_type: 'image_editing',
      training_params: { caption_column: 'c', image_column: 'i', control_image_column: 'ctrl' },
    });
    const ref = { ...repo, id: fine_tune.id };
    await client.fineTunes.run(ref);
    await client.fineTunes.wait(ref, { intervalMs: 20, timeoutMs: 5_000 });
    return (await client.fineTunes.deploy(ref)).deployment.model_slug;
  }

  it('deactivates and activates a custom deployment; an inactive one cannot be called', async () => {
    const { client } = await setup({ fineTuneMs: 30 });
    const slug = await deployed(client);
    const status = (m: Model) => m.deployments?.[0]?.status;
    expect(status(await client.models.retrieve(slug))).toBe('active');
    const off = await client.models.deactivate(slug);
    expect(off.model_type).toBe('custom');
    expect(status(off)).toBe('inactive');
    const refused = await rejectionOf(
      client.untyped.images.edit({ model: slug, prompt: 'x', input_image: 'https://example.com/a.png' }),
    );
    expect(refused).toBeInstanceOf(BadRequestError);
    expect(refused.message).toContain('not active');
    expect(status(await client.models.activate(slug))).toBe('active');
    const res = await client.untyped.images.edit({
      model: slug,
      prompt: 'x',
      input_image: 'https://example.com/a.png',
    });
    expect(res.images).toHaveLength(1);
  });

  it('a base model is always active (the service refuses to toggle it); an unknown id is NotFoundError', async () => {
    const { client } = await setup();
    expect(await rejectionOf(client.models.activate('flux-1-dev'))).toBeInstanceOf(BadRequestError);
    expect(await rejectionOf(client.models.deactivate('no-such-model'))).toBeInstanceOf(NotFoundError);
  });
});
