/**
 * Compiled type tests of chat (round trip, streamed tool-call fragments, the format's common fields, chat
 * models' parameter types, results typed by `stream`) and of videos' `multi_prompt`. Compiled by
 * tsc through tsconfig.json (test/generator/typecheck.test.ts) and under exactOptionalPropertyTypes through
 * test/types/tsconfig.strict.json (both in that file); never run. Each `@ts-expect-error` is a
 * negative case that must stay an error.
 */
import { expectTypeOf } from 'vitest';
import {
  Client,
  type ChatCompletion,
  type ChatCompletionChunk,
  type ChatCompletionChunkToolCall,
  type ChatCompletionStream,
  type ChatContentPart,
  type ChatContentPartFile,
  type ChatMessage,
  type ClaudeSonnet45Params,
  type Gpt4oMiniParams,
  type MultiPromptShot,
  type VideoParams,
} from 'oxen-inference-sdk';
import { claudeSonnet45CreateChatCompletion } from 'oxen-inference-sdk/models/claude-sonnet-4-5';
import {
  bytedanceSeedance20TextToVideoEnqueue,
  bytedanceSeedance20TextToVideoGenerateVideo,
} from 'oxen-inference-sdk/models/bytedance-seedance-2-0-text-to-video';

declare const client: Client;
declare const runtime: boolean;

export async function roundTrip(): Promise<string | null> {
  const messages: ChatMessage[] = [
    { role: 'system', content: 'be brief', name: 'rules' },
    {
      role: 'user',
      content: [
        { type: 'text', text: 'what is this?' },
        { type: 'image_url', image_url: { url: 'https://example.com/a.png', detail: 'low' } },
        { type: 'video_url', video_url: { url: 'https://example.com/a.mp4' } },
      ],
    },
  ];
  const tools = [{ type: 'function' as const, function: { name: 'get_weather', parameters: { type: 'object' } } }];
  const first = await client.chat.completions.create({
    model: 'gpt-4o-mini',
    messages,
    tools,
    tool_choice: 'auto',
    stop: ['\n'],
    seed: 1,
    n: 1,
    user: 'u',
    logprobs: true,
    top_logprobs: 2,
    max_completion_tokens: 10,
    parallel_tool_calls: false,
  });
  expectTypeOf(first).toEqualTypeOf<ChatCompletion>();
  const message = first.choices[0]!.message;
  messages.push(message); // the response's message goes back as it came
  for (const call of message.tool_calls ?? [])
    messages.push({ role: 'tool', tool_call_id: call.id, content: '{"temp":21}' });
  messages.push({
    role: 'assistant',
    content: null,
    tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'f', arguments: '{}' } }],
  });
  // @ts-expect-error a tool message answers a tool_call_id
  messages.push({ role: 'tool', content: 'x' });
  // @ts-expect-error unknown role
  messages.push({ role: 'wizard', content: 'x' });
  // @ts-expect-error only an assistant message may have null content
  messages.push({ role: 'user', content: null });
  // @ts-expect-error image detail is auto, low or high
  messages.push({ role: 'user', content: [{ type: 'image_url', image_url: { url: 'u', detail: 'max' } }] });
  const second = await client.chat.completions.create({ model: 'gpt-4o-mini', messages, tools });
  return second.choices[0]!.message.content;
}

export async function streams(): Promise<void> {
  const stream = await client.chat.completions.create({
    model: 'gpt-4o-mini',
    messages: [{ role: 'user', content: 'hi' }],
    stream: true,
    stream_options: { include_usage: true },
  });
  expectTypeOf(stream).toEqualTypeOf<ChatCompletionStream>();
  for await (const chunk of stream) {
    const call = chunk.choices[0]?.delta.tool_calls?.[0];
    expectTypeOf(call?.id).toEqualTypeOf<string | undefined>();
    expectTypeOf(call?.function?.name).toEqualTypeOf<string | undefined>();
    expectTypeOf(chunk.usage).toEqualTypeOf<ChatCompletionChunk['usage']>();
  }
  expectTypeOf(await stream.finalChatCompletion()).toEqualTypeOf<ChatCompletion>();
  // A later fragment carries only index and a piece of the arguments.
  const fragment: ChatCompletionChunkToolCall = { index: 0, function: { arguments: '{"ci' } };
  // @ts-expect-error a fragment has an index
  const noIndex: ChatCompletionChunkToolCall = { function: { arguments: '' } };
  void fragment;
  void noIndex;
}

/** The docs' audio and document parts: a `file` part gives exactly one of `file_data` and `file_url`. */
export async function audioAndFileParts(): Promise<void> {
  const parts: ChatContentPart[] = [
    { type: 'audio_url', audio_url: { url: 'data:audio/mp3;base64,SUQzBAAAAAA' } },
    { type: 'file', file: { filename: 'report.pdf', file_data: 'data:application/pdf;base64,JVBERi0xLjQK' } },
    { type: 'file', file: { file_url: 'https://arxiv.org/pdf/1706.03762' } },
    { type: 'text', text: 'Summarize the key findings.' },
  ];
  await client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: parts }] });
  // @ts-expect-error both file_data and file_url
  parts.push({ type: 'file', file: { file_data: 'data:application/pdf;base64,JVBE', file_url: 'https://x/a.pdf' } });
  // @ts-expect-error neither file_data nor file_url
  parts.push({ type: 'file', file: { filename: 'report.pdf' } });
  // @ts-expect-error OpenAI's file_id is not supported by the service
  parts.push({ type: 'file', file: { file_id: 'file-abc' } });
  // @ts-expect-error an audio part has a url
  parts.push({ type: 'audio_url', audio_url: {} });
  // Not only literals: a value typed with both keys is refused too.
  const both = { file_data: 'data:application/pdf;base64,JVBE', file_url: 'https://x/a.pdf' };
  // @ts-expect-error both file_data and file_url
  const part: ChatContentPartFile = { type: 'file', file: both };
  // @ts-expect-error audio and files belong to user messages; a system message takes text parts
  const system: ChatMessage = { role: 'system', content: [{ type: 'audio_url', audio_url: { url: 'u' } }] };
  void part;
  void system;
}

export async function chatModelParams(): Promise<void> {
  const body: ClaudeSonnet45Params = { messages: [{ role: 'user', content: 'hi' }], max_tokens: 100 };
  expectTypeOf(await claudeSonnet45CreateChatCompletion(client, body)).toEqualTypeOf<ChatCompletion>();
  expectTypeOf(
    await client.chat.completions.create({ model: 'claude-sonnet-4-5', ...body }),
  ).toEqualTypeOf<ChatCompletion>();
  expectTypeOf(
    await client.chat.completions.create({ model: 'claude-sonnet-4-5', ...body, stream: true }),
  ).toEqualTypeOf<ChatCompletionStream>();
  expectTypeOf(
    await client.chat.completions.create({ model: 'claude-sonnet-4-5', ...body, stream: false }),
  ).toEqualTypeOf<ChatCompletion>();
  const explicit: Gpt4oMiniParams = { messages: [{ role: 'user', content: 'hi' }], stream: false };
  expectTypeOf(
    await client.chat.completions.create({ model: 'gpt-4o-mini', ...explicit }),
  ).toEqualTypeOf<ChatCompletion>();
  expectTypeOf(await client.chat.completions.create({ model: 'gpt-4o-mini', ...body, stream: runtime })).toEqualTypeOf<
    ChatCompletion | ChatCompletionStream
  >();
  // @ts-expect-error a model's own function does not stream
  await claudeSonnet45CreateChatCompletion(client, { ...body, stream: true });
  // @ts-expect-error stop is a string or an array of strings
  await client.chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'x' }], stop: 3 });
}

export async function videos(): Promise<void> {
  await client.videos.generate({ model: 'bytedance-seedance-2-0-text-to-video', prompt: 'a fox' });
  await client.videos.generate({
    model: 'bytedance-seedance-2-0-text-to-video',
    multi_prompt: [
      { prompt: 'a fox', duration: 3 },
      { prompt: 'runs', duration: 2 },
    ],
    resolution: '720p',
  });
  const b64 = await client.videos.generate({
    model: 'bytedance-seedance-2-0-text-to-video',
    multi_prompt: [{ prompt: 'a fox', duration: 3 }],
    response_format: 'b64_json',
  });
  expectTypeOf(b64.videos[0]!).toEqualTypeOf<{ b64_json: string }>();
  // @ts-expect-error both prompt and multi_prompt
  await client.videos.generate({
    model: 'bytedance-seedance-2-0-text-to-video',
    prompt: 'a fox',
    multi_prompt: [{ prompt: 'a fox', duration: 3 }],
  });
  // @ts-expect-error neither prompt nor multi_prompt
  await client.videos.generate({ model: 'bytedance-seedance-2-0-text-to-video', resolution: '720p' });
  // @ts-expect-error a shot has a duration
  await client.videos.generate({ model: 'bytedance-seedance-2-0-text-to-video', multi_prompt: [{ prompt: 'a fox' }] });
  await client.queue.enqueue({
    model: 'bytedance-seedance-2-0-text-to-video',
    multi_prompt: [{ prompt: 'a fox', duration: 3 }],
    num_generations: 2,
  });
  // @ts-expect-error both on the queue
  await client.queue.enqueue({
    model: 'bytedance-seedance-2-0-text-to-video',
    prompt: 'a',
    multi_prompt: [{ prompt: 'a fox', duration: 3 }],
  });
  // @ts-expect-error neither on the queue
  await client.queue.run({ model: 'bytedance-seedance-2-0-text-to-video' });
  // @ts-expect-error multi_prompt is a video parameter, not an image one
  await client.queue.enqueue({ model: 'flux-2-pro', multi_prompt: [{ prompt: 'a fox', duration: 3 }] });
  await bytedanceSeedance20TextToVideoGenerateVideo(client, { multi_prompt: [{ prompt: 'a fox', duration: 3 }] });
  await bytedanceSeedance20TextToVideoEnqueue(client, { prompt: 'a fox' });
  // @ts-expect-error both, in the model's own function
  await bytedanceSeedance20TextToVideoEnqueue(client, {
    prompt: 'a fox',
    multi_prompt: [{ prompt: 'a fox', duration: 3 }],
  });
}

// VideoParams: a schema that declares multi_prompt itself wins; a model without prompt is unchanged; an optional prompt allows neither.
expectTypeOf<VideoParams<{ prompt: string; multi_prompt?: string }>>().toEqualTypeOf<{
  prompt: string;
  multi_prompt?: string;
}>();
expectTypeOf<VideoParams<{ video: string }>>().toEqualTypeOf<{ video: string }>();
type OptionalPrompt = VideoParams<{ prompt?: string; fps?: number }>;
export const neither: OptionalPrompt = { fps: 24 };
export const shots: OptionalPrompt = { multi_prompt: [{ prompt: 'a', duration: 2 }] satisfies MultiPromptShot[] };
// @ts-expect-error not both, even when prompt is optional
export const both: OptionalPrompt = { prompt: 'a', multi_prompt: [{ prompt: 'a', duration: 2 }] };
