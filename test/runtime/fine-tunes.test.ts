// A fine-tune from creation to a deployed model, end to end over loopback against the local server:
// create (text_to_video typed), run, wait for a terminal status (bounded polling), deploy, then
// the deployment's `oxen:` slug served by `models.retrieve` (with the base model's request schema)
// and accepted by the queue.
import { describe, expect, expectTypeOf, it } from 'vitest';
import {
  AbortError,
  BadRequestError,
  FineTuneWaitTimeoutError,
  InvalidResponseError,
  NotFoundError,
  OutcomeUnknownError,
  SDKError,
  type FineTune,
  type FineTuneCreateParams,
  type TextToVideoTrainingParams,
} from '../../index.ts';
import { isFineTuneEnded, retrieveFineTune, waitForFineTune } from '../../runtime/index.ts';
import { rejectionOf, useServers } from './helpers.ts';

const setup = useServers();
const repo = { namespace: 'alice', repo_name: 'data' };

/** An `image_editing` fine-tune of `Qwen/Qwen-Image-Edit` (the snapshot's `qwen-image-edit`) on `resource`. */
const editing = (resource = 'main/edits.parquet'): FineTuneCreateParams => ({
  resource,
  base_model: 'Qwen/Qwen-Image-Edit',
  script_type: 'image_editing',
  training_params: { caption_column: 'caption', image_column: 'edited', control_image_column: 'control' },
});

describe('fineTunes: create -> run -> wait -> deploy -> call the slug', () => {
  it('goes from created through running to completed, deploys an oxen: slug that retrieve and the queue serve', async () => {
    // 1 s of running: long enough that the retrieve right after `run` sees it running on a loaded machine
    const { client, server } = await setup({ fineTuneMs: 1_000 });
    const { fine_tune: created } = await client.fineTunes.create(repo, editing());
    expect(created.status).toBe('created');
    const ref = { ...repo, id: created.id };
    await client.fineTunes.run(ref);
    expect((await client.fineTunes.retrieve(ref)).fine_tune.status).toBe('running');

    const seen: string[] = [];
    const done = await client.fineTunes.wait(ref, {
      intervalMs: 50,
      onStatus: (ft) => void seen.push(String(ft.status)),
    });
    expect(done.status).toBe('completed');
    expect(done.output_resource).toEqual(expect.any(String));
    expect(isFineTuneEnded(done)).toBe(true);
    expect(seen.at(-1)).toBe('completed');
    expect(seen.slice(0, -1).every((s) => s === 'running')).toBe(true);
    // bounded: about one read per interval over the run (1,000 ms / 50 ms), never a burst
    expect(seen.length).toBeGreaterThan(1);
    expect(seen.length).toBeLessThan(40);

    const { deployment } = await client.fineTunes.deploy(ref);
    expect(deployment.model_slug).toMatch(/^oxen:alice-ft_[0-9a-f]+$/);
    expect((await client.fineTunes.deploy(ref)).deployment.model_slug).toBe(deployment.model_slug); // again: the same

    const model = await client.models.retrieve(deployment.model_slug);
    const base = await client.models.retrieve('qwen-image-edit');
    expect(model).toMatchObject({ id: deployment.model_slug, model_type: 'custom', owned_by: 'alice' });
    expect(model.source_model).toBe('qwen-image-edit');
    expect(model.request_schema).toEqual(base.request_schema);
    expect(model.request_schema).not.toBeNull();
    // the slug's path segment is encoded (`:`), and the catalog lists the custom model for its owner
    expect(server.requests.some((r) => r.path === '/api/ai/models/oxen%3Aalice-' + created.id.toLowerCase())).toBe(
      true,
    );
    expect((await client.models.list()).data.some((m) => m.id === deployment.model_slug)).toBe(true);

    const outcomes = await client.untyped.queue.run(
      { model: deployment.model_slug, prompt: 'make it blue', input_image: 'https://example.com/a.png' },
      { timeoutMs: 10_000 },
    );
    expect(outcomes.map((o) => o.status)).toEqual(['succeeded']);
  });

  it('types text_to_video from its reference page: image_to_video without num_frames', async () => {
    const { client } = await setup({ fineTuneMs: 10 });
    const body: FineTuneCreateParams = {
      resource: 'main/clips.parquet',
      base_model: 'Wan-AI/Wan2.1-T2V-1.3B-Diffusers',
      script_type: 'text_to_video',
      training_params: { caption_column: 'caption', image_column: 'video', steps: 10, timestep_type: 'linear' },
    };
    expectTypeOf<TextToVideoTrainingParams>().not.toHaveProperty('num_frames');
    const bad: FineTuneCreateParams = {
      ...body,
      // @ts-expect-error num_frames is image_to_video's, not text_to_video's
      training_params: { caption_column: 'c', image_column: 'v', num_frames: 81 },
    };
    expect(bad.script_type).toBe('text_to_video');
    const { fine_tune } = await client.fineTunes.create(repo, body);
    expect(fine_tune.script_type).toBe('text_to_video');
    expect(fine_tune.training_params).toMatchObject({ steps: 10, timestep_type: 'linear', learning_rate: 0.0002 });
    const ref = { ...repo, id: fine_tune.id };
    await client.fineTunes.run(ref);
    await client.fineTunes.wait(ref, { intervalMs: 10, timeoutMs: 5_000 });
    const { deployment } = await client.fineTunes.deploy(ref);
    const model = await client.models.retrieve(deployment.model_slug);
    expect(model.source_model).toBe('wan-ai-wan2-1-t2v-1-3b-diffusers');
    expect(model.capabilities?.output).toEqual(['video']);
  });
});

describe('fineTunes.wait', () => {
  it('resolves an errored or stopped fine-tune too (the caller reads its status and error)', async () => {
    const { client } = await setup({ fineTuneMs: 20 });
    for (const [marker, status] of [
      ['[fail]', 'errored'],
      ['[stop]', 'stopped'],
    ] as const) {
      const { fine_tune } = await client.fineTunes.create(repo, editing(`main/${marker}.parquet`));
      const ref = { ...repo, id: fine_tune.id };
      await client.fineTunes.run(ref);
      const ended: FineTune = await client.fineTunes.wait(ref, { intervalMs: 10, timeoutMs: 5_000 });
      expect(ended.status).toBe(status);
      if (status === 'errored') expect(ended.error).toEqual(expect.any(String));
      // only a completed fine-tune deploys
      expect(await rejectionOf(client.fineTunes.deploy(ref))).toBeInstanceOf(BadRequestError);
    }
  });

  it('times out with the last fine-tune read, having read at most once per interval', async () => {
    const { client, server } = await setup();
    const { fine_tune } = await client.fineTunes.create(repo, editing('main/[hold].parquet'));
    const ref = { ...repo, id: fine_tune.id };
    await client.fineTunes.run(ref);
    const reads = () => server.count('GET', `/api/repos/alice/data/fine_tunes/${fine_tune.id}`);
    const started = performance.now();
    const err = await rejectionOf(waitForFineTune(client, ref, { intervalMs: 50, timeoutMs: 300 }));
    const elapsed = performance.now() - started;
    expect(err).toBeInstanceOf(FineTuneWaitTimeoutError);
    expect((err as FineTuneWaitTimeoutError).fineTune?.status).toBe('running');
    expect(err.message).toContain('did not end within 300 ms');
    expect(elapsed).toBeGreaterThanOrEqual(250);
    expect(elapsed).toBeLessThan(5_000);
    expect(reads()).toBeGreaterThanOrEqual(2);
    expect(reads()).toBeLessThanOrEqual(300 / 50 + 1);
    // nothing polls once it ended (a read sent before the end may still arrive: counted from 150 ms on)
    await new Promise((r) => setTimeout(r, 150));
    const after = reads();
    await new Promise((r) => setTimeout(r, 300));
    expect(reads()).toBe(after);
  });

  it('ends with AbortError on the caller’s signal; checks its options before sending', async () => {
    const { client, server } = await setup();
    const { fine_tune } = await client.fineTunes.create(repo, editing('main/[hold].parquet'));
    const ref = { ...repo, id: fine_tune.id };
    await client.fineTunes.run(ref);
    const controller = new AbortController();
    const waiting = client.fineTunes.wait(ref, { intervalMs: 30, signal: controller.signal });
    setTimeout(() => controller.abort(), 80);
    const aborted = await rejectionOf(waiting);
    expect(aborted).toBeInstanceOf(AbortError);
    expect(aborted).not.toBeInstanceOf(FineTuneWaitTimeoutError);
    const before = server.requests.length;
    for (const options of [{ intervalMs: 0 }, { timeoutMs: -1 }, { intervalMs: Number.NaN }])
      expect(await rejectionOf(client.fineTunes.wait(ref, options))).toBeInstanceOf(SDKError);
    expect(await rejectionOf(client.fineTunes.wait({ ...ref, id: '..' }, { intervalMs: 10 }))).toBeInstanceOf(SDKError);
    expect(server.requests.length).toBe(before);
  });
});

describe('fineTunes errors', () => {
  it('an unknown fine-tune is NotFoundError for run, retrieve, deploy and wait; running twice is a BadRequestError', async () => {
    const { client } = await setup();
    const missing = { ...repo, id: 'ft_nope' };
    for (const call of [
      client.fineTunes.run(missing),
      client.fineTunes.retrieve(missing),
      client.fineTunes.deploy(missing),
      client.fineTunes.wait(missing, { intervalMs: 10 }),
    ])
      expect(await rejectionOf(call)).toBeInstanceOf(NotFoundError);
    const { fine_tune } = await client.fineTunes.create(repo, editing('main/[hold].parquet'));
    await client.fineTunes.run({ ...repo, id: fine_tune.id });
    expect(await rejectionOf(client.fineTunes.run({ ...repo, id: fine_tune.id }))).toBeInstanceOf(BadRequestError);
  });

  it('answers without the documented shape: InvalidResponseError (a GET), OutcomeUnknownError (deploy: probably done)', async () => {
    const { client, server } = await setup();
    const { fine_tune } = await client.fineTunes.create(repo, editing());
    const ref = { ...repo, id: fine_tune.id };
    server.faults.add({ path: `/api/repos/alice/data/fine_tunes/${fine_tune.id}`, kind: 'wrong-shape', times: 1 });
    expect(await rejectionOf(retrieveFineTune(client, ref))).toBeInstanceOf(InvalidResponseError);
    server.faults.add({ path: `/api/repos/alice/data/fine_tunes/${fine_tune.id}/deploy`, kind: 'wrong-shape' });
    const deploy = await rejectionOf(client.fineTunes.deploy(ref));
    expect(deploy).toBeInstanceOf(OutcomeUnknownError);
    expect((deploy as OutcomeUnknownError).reason).toBe('invalid_response');
  });
});
