// The official `openai` package against the local server's /api/ai, directly and through createProxyHandler:
// an agent loop with runTools (plain and streamed: tool calls arrive in fragments), a streamed answer with
// usage, finalChatCompletion(), JSON mode, and the docs' document and audio parts.
import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { INPUT_MAX_BYTES, toDataUri, type ChatContentPart, type ChatContentPartFile } from '../../index.ts';
import { answerFor, useTargets, weather, WEATHER_PARAMETERS } from './helpers.ts';

const { targets } = useTargets();
const MODEL = 'gpt-4o-mini';

const tools = [
  {
    type: 'function' as const,
    function: {
      name: 'get_weather',
      description: 'Current weather of a city',
      parameters: WEATHER_PARAMETERS,
      parse: JSON.parse,
      function: (args: { city: string }) => weather(args),
    },
  },
];

describe.each(['direct', 'proxy'] as const)('openai %s', (name) => {
  const client = () => {
    const t = targets.find((x) => x.name === name)!;
    return new OpenAI({ apiKey: t.apiKey, baseURL: t.baseURL, maxRetries: 0 });
  };

  it('runs an agent loop with runTools: a tool call, its result, then the final text', async () => {
    const runner = client().chat.completions.runTools({
      model: MODEL,
      messages: [{ role: 'user', content: 'Paris' }],
      tools,
    });
    expect(await runner.finalContent()).toBe(answerFor('Paris'));
    const messages = runner.messages;
    expect(messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
    expect(await runner.totalUsage()).toMatchObject({ total_tokens: expect.any(Number) });
  });

  it('runs the loop streamed: tool-call fragments are reassembled by the client', async () => {
    const runner = client().chat.completions.runTools({
      model: MODEL,
      stream: true,
      messages: [{ role: 'user', content: 'Oslo' }],
      tools,
    });
    const calls: string[] = [];
    runner.on('functionToolCall', (c) => calls.push(`${c.name}(${c.arguments})`));
    expect(await runner.finalContent()).toBe(answerFor('Oslo'));
    expect(calls).toEqual(['get_weather({"city":"Oslo"})']);
  });

  it('streams an answer chunk by chunk, with usage on the last chunk, and collects it', async () => {
    const stream = await client().chat.completions.create({
      model: MODEL,
      stream: true,
      stream_options: { include_usage: true },
      messages: [{ role: 'user', content: 'one two three' }],
    });
    let text = '';
    let usage: OpenAI.CompletionUsage | null | undefined;
    for await (const chunk of stream) {
      text += chunk.choices[0]?.delta.content ?? '';
      usage = chunk.usage ?? usage;
    }
    expect(text).toBe('Echo: one two three');
    expect(usage?.total_tokens).toBe((usage?.prompt_tokens ?? 0) + (usage?.completion_tokens ?? 0));
    const helper = client().chat.completions.stream({
      model: MODEL,
      messages: [{ role: 'user', content: 'four five' }],
    });
    expect((await helper.finalChatCompletion()).choices[0]?.message.content).toBe('Echo: four five');
  });

  it('answers a JSON object in JSON mode', async () => {
    const c = await client().chat.completions.create({
      model: MODEL,
      response_format: { type: 'json_object' },
      messages: [{ role: 'user', content: 'json please' }],
    });
    expect(JSON.parse(c.choices[0]!.message.content!)).toEqual({ echo: 'Echo: json please' });
  });

  it("sends a PDF as openai's own file part (the SDK's file_data part is one); the parts it lacks as the docs shape them", async () => {
    const file_data = await toDataUri(new TextEncoder().encode('%PDF-1.4\n%%EOF\n'), {
      maxBytes: INPUT_MAX_BYTES.file,
    });
    const ours: ChatContentPartFile = { type: 'file', file: { filename: 'report.pdf', file_data } };
    const part: OpenAI.ChatCompletionContentPart = ours; // compiles: the SDK's file_data part is openai's type
    // openai's types have no audio_url part and no file_url: the SDK's types, cast for openai's client
    const docsOnly: ChatContentPart[] = [
      { type: 'audio_url', audio_url: { url: 'https://cdn.example/clip.mp3' } },
      { type: 'file', file: { file_url: 'https://arxiv.org/pdf/1706.03762' } },
    ];
    const c = await client().chat.completions.create({
      model: MODEL,
      messages: [
        {
          role: 'user',
          content: [
            part,
            ...(docsOnly as unknown as OpenAI.ChatCompletionContentPart[]),
            { type: 'text', text: 'sum up' },
          ],
        },
      ],
    });
    expect(c.choices[0]?.message.content).toBe('Echo: sum up');
    const tiff: OpenAI.ChatCompletionContentPart = {
      type: 'file',
      file: { file_data: 'data:image/tiff;base64,SUkqAA==' },
    };
    const err: unknown = await client()
      .chat.completions.create({ model: MODEL, messages: [{ role: 'user', content: [tiff] }] })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OpenAI.BadRequestError);
    expect((err as InstanceType<typeof OpenAI.BadRequestError>).status).toBe(400);
  });
});
