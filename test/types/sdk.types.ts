/**
 * Type tests of the generated SDK. This file is never run: `tsc --noEmit` (strict) compiles it in
 * test/generator/typecheck.test.ts. Each negative case carries `@ts-expect-error`, so it fails the
 * compile both when the error disappears (unused directive) and when a positive case breaks.
 */
import { expectTypeOf } from 'vitest';
import {
  Client,
  type ModelId,
  type ModelParams,
  type Flux2ProParams,
  type ChatModelId,
  type QueueModelId,
} from 'oxen-inference-sdk';
import {
  flux2ProEditImage,
  flux2ProGenerateImage,
  flux2ProSchema,
  type Flux2ProParams as DirectFlux2ProParams,
} from 'oxen-inference-sdk/models/flux-2-pro';
import { fluxKontextDevEditImage } from 'oxen-inference-sdk/models/flux-kontext-dev';
import type { TopazlabsProteusVideoParams } from 'oxen-inference-sdk/models/topazlabs-proteus-video';

declare const client: Client;

export async function validCalls(): Promise<void> {
  // chat
  const completion = await client.chat.completions.create({
    model: 'gpt-4o-mini',
    messages: [{ role: 'user', content: 'hi' }],
  });
  expectTypeOf(completion.choices[0]!.message.content).toEqualTypeOf<string | null>();
  // images.generate, with a non-identifier enum value
  const image = await client.images.generate({
    model: 'flux-2-pro',
    prompt: 'a fox',
    aspect_ratio: '16:9',
    resolution: '1 MP',
  });
  expectTypeOf(image.images[0]!).toEqualTypeOf<{ url: string }>();
  // images.edit: flux-2-pro takes an array of input images
  await client.images.edit({ model: 'flux-2-pro', prompt: 'make it blue', input_image: ['https://example.com/a.png'] });
  // images.edit: flux-kontext-dev takes one input image URL
  await client.images.edit({
    model: 'flux-kontext-dev',
    prompt: 'make it blue',
    input_image: 'https://example.com/a.png',
  });
  // videos.generate, number enum
  const video = await client.videos.generate({
    model: 'google-veo-3-1',
    prompt: 'waves',
    duration: 8,
    aspect_ratio: '9:16',
  });
  expectTypeOf(video.videos[0]!).toEqualTypeOf<{ url: string }>();
  // queue
  const queued = await client.queue.enqueue({ model: 'google-veo-3-1', prompt: 'waves', num_generations: 2 });
  expectTypeOf(queued.generations[0]!.generation_id).toEqualTypeOf<string>();
  const outcomes = await client.queue.run(
    { model: 'flux-2-pro', prompt: 'a fox', num_generations: 2 },
    { timeoutMs: 60_000 },
  );
  expectTypeOf(outcomes[0]!.status).toEqualTypeOf<'succeeded' | 'failed' | 'cancelled' | 'lost'>();
  const first = outcomes[0]!;
  if (first.status === 'succeeded') expectTypeOf(first.url).toEqualTypeOf<string>();
  // a model whose schema has no prompt takes none
  await client.videos.generate({ model: 'topazlabs-video-upscale', input_video: 'https://example.com/a.mp4' });
  // a required field that has a default stays required
  await client.videos.generate({
    model: 'kling-video-v3-pro-motion-control',
    prompt: 'dance',
    input_image: 'https://e.com/a.png',
    input_video: 'https://e.com/a.mp4',
    character_orientation: 'video',
  });
  // array<object> field
  await client.videos.generate({ model: 'kling-video-o3-omni', prompt: 'x', elements: [{ anything: 1 }] });
  // target_namespace is added to every model
  await client.images.generate({ model: 'flux-1-dev', prompt: 'x', target_namespace: 'acme' });
  // model details
  const model = await client.models.retrieve('flux-2-pro');
  expectTypeOf(model.request_schema).toEqualTypeOf<Record<string, unknown> | null>();
}

export async function responseFormat(): Promise<void> {
  const b64 = await client.images.generate({ model: 'flux-2-pro', prompt: 'x', response_format: 'b64_json' });
  expectTypeOf(b64.images[0]!).toEqualTypeOf<{ b64_json: string }>();
  // @ts-expect-error b64_json results have no url
  b64.images[0]!.url;
  const url = await client.images.generate({ model: 'flux-2-pro', prompt: 'x', response_format: 'url' });
  expectTypeOf(url.images[0]!).toEqualTypeOf<{ url: string }>();
  const v = await client.videos.generate({ model: 'google-veo-3-1', prompt: 'x', response_format: 'b64_json' });
  expectTypeOf(v.videos[0]!).toEqualTypeOf<{ b64_json: string }>();
  // @ts-expect-error response_format is url or b64_json
  await client.images.generate({ model: 'flux-2-pro', prompt: 'x', response_format: 'png' });
}

export async function negativeCases(): Promise<void> {
  // @ts-expect-error wrong enum value
  await client.images.generate({ model: 'flux-2-pro', prompt: 'x', aspect_ratio: '16:10' });
  // @ts-expect-error wrong number enum value (google-veo-3-1 takes 4, 6 or 8 seconds)
  await client.videos.generate({ model: 'google-veo-3-1', prompt: 'x', duration: 5 });
  // @ts-expect-error missing required field (prompt)
  await client.images.generate({ model: 'flux-2-pro', aspect_ratio: '16:9' });
  // @ts-expect-error missing required field that has a default (character_orientation)
  await client.videos.generate({
    model: 'kling-video-v3-pro-motion-control',
    prompt: 'd',
    input_image: 'https://e.com/a.png',
    input_video: 'https://e.com/a.mp4',
  });
  // @ts-expect-error misspelled property
  await client.images.generate({ model: 'flux-2-pro', prompt: 'x', aspect_ratoi: '16:9' });
  // @ts-expect-error misspelled property on the queue
  await client.queue.enqueue({ model: 'flux-2-pro', prompt: 'x', num_generation: 2 });
  // @ts-expect-error a video model on images.generate
  await client.images.generate({ model: 'google-veo-3-1', prompt: 'x' });
  // @ts-expect-error a chat model on queue.enqueue
  await client.queue.enqueue({ model: 'gpt-4o-mini', prompt: 'x' });
  // @ts-expect-error a chat model on queue.run
  await client.queue.run({ model: 'gpt-4o-mini', prompt: 'x' });
  // @ts-expect-error a wrong enum value on queue.run
  await client.queue.run({ model: 'google-veo-3-1', prompt: 'x', duration: 5 });
  // @ts-expect-error a text-only image model on images.edit
  await client.images.edit({ model: 'flux-1-dev', prompt: 'x', input_image: 'https://e.com/a.png' });
  // @ts-expect-error an edit-only model on images.generate
  await client.images.generate({ model: 'flux-kontext-dev', prompt: 'x' });
  // @ts-expect-error an image model on chat
  await client.chat.completions.create({ model: 'flux-2-pro', messages: [{ role: 'user', content: 'hi' }] });
  // @ts-expect-error an unknown model id
  await client.images.generate({ model: 'flux-9-ultra', prompt: 'x' });
  // @ts-expect-error flux-kontext-dev takes one input image, not an array
  await client.images.edit({ model: 'flux-kontext-dev', prompt: 'x', input_image: ['https://e.com/a.png'] });
  // @ts-expect-error flux-2-pro takes an array of input images, not a string
  await client.images.edit({ model: 'flux-2-pro', prompt: 'x', input_image: 'https://e.com/a.png' });
  // @ts-expect-error an edit-only model's schema requires input_image
  await client.images.edit({ model: 'flux-kontext-dev', prompt: 'x' });
  // @ts-expect-error topazlabs-video-upscale's schema has no prompt
  await client.videos.generate({ model: 'topazlabs-video-upscale', input_video: 'https://e.com/a.mp4', prompt: 'x' });
  // @ts-expect-error the audio model's endpoint is not covered: no SDK endpoint takes it
  await client.queue.enqueue({ model: 'bytedance-seed-audio-1-0', prompt: 'x' });
}

export function modelParams(): void {
  expectTypeOf<ModelParams['flux-2-pro']>().toEqualTypeOf<Flux2ProParams>();
  expectTypeOf<DirectFlux2ProParams>().toEqualTypeOf<Flux2ProParams>();
  // mixed integer/decimal number enum
  expectTypeOf<TopazlabsProteusVideoParams['target_fps']>().toEqualTypeOf<
    24 | 23.976 | 25 | 29.97 | 30 | 50 | 59.94 | 60 | undefined
  >();
  // input_image is exactly as each schema says
  expectTypeOf<ModelParams['flux-2-pro']['input_image']>().toEqualTypeOf<string[] | undefined>();
  expectTypeOf<ModelParams['flux-kontext-dev']['input_image']>().toEqualTypeOf<string>();
  expectTypeOf<ModelParams['bytedance-seedance-2-0-image-to-video']['input_image']>().toEqualTypeOf<string>();
  // ids with dots and capitals are ids like any other
  expectTypeOf<'happyhorse-1.0-video-edit'>().toMatchTypeOf<ModelId>();
  expectTypeOf<'ltx-2-3-pro-22b-IC-LoRA-Union-Control'>().toMatchTypeOf<QueueModelId>();
  expectTypeOf<'gpt-4o-mini'>().toMatchTypeOf<ChatModelId>();
  // @ts-expect-error chat models are not queueable
  expectTypeOf<'gpt-4o-mini'>().toMatchTypeOf<QueueModelId>();
  // the schema const is data, loosely typed (deep literal types made every consumer's compile slower)
  expectTypeOf(flux2ProSchema).toEqualTypeOf<Readonly<Record<string, unknown>>>();
}

export async function editAsTheSchemaSays(): Promise<void> {
  // flux-2-pro can also generate: its schema does not require input_image
  await client.images.edit({ model: 'flux-2-pro', prompt: 'x' });
  await flux2ProEditImage(client, { prompt: 'x' });
}

export async function perModelFunctions(): Promise<void> {
  const r = await flux2ProGenerateImage(client, { prompt: 'x', aspect_ratio: '1:1', response_format: 'b64_json' });
  expectTypeOf(r.images[0]!).toEqualTypeOf<{ b64_json: string }>();
  await fluxKontextDevEditImage(client, { prompt: 'x', input_image: 'https://e.com/a.png' });
  // @ts-expect-error per-model functions are closed too
  await flux2ProGenerateImage(client, { prompt: 'x', aspect_ratoi: '1:1' });
  // @ts-expect-error and need the model's required fields
  await fluxKontextDevEditImage(client, { prompt: 'x' });
}

export async function escapeHatch(): Promise<void> {
  // a model newer than the snapshot: visibly untyped, any parameters
  await client.untyped.images.generate({ model: 'flux-9-ultra', prompt: 'x', anything: 1 });
}
