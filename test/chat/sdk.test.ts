// The SDK's own client runs the same round trip as the real clients, typed and with no cast, directly and
// through createProxyHandler: the response's message is sent back as it came, then one tool message per
// call; a streamed tool call collected by finalChatCompletion(); a stream iterated chunk by chunk and then
// collected; JSON mode; a chat model's own function with its generated parameter type.
import { describe, expect, it } from 'vitest';
import {
  Client,
  SDKError,
  type ChatCompletionChunk,
  type ChatMessage,
  type ChatTool,
  type Gpt4oMiniParams,
} from '../../index.ts';
import { ChatCompletionAccumulator } from '../../runtime/chat/index.ts';
import { gpt4oMiniCreateChatCompletion } from '../../generated/models/gpt-4o-mini.ts';
import { answerFor, useTargets, weather, WEATHER_PARAMETERS } from './helpers.ts';

const { targets } = useTargets();

/** The `city` argument of a tool call (the model's JSON is data: checked, not cast). */
function cityOf(json: string): string {
  const args: unknown = JSON.parse(json);
  return typeof args === 'object' && args !== null && 'city' in args && typeof args.city === 'string' ? args.city : '';
}
const tools: ChatTool[] = [
  {
    type: 'function',
    function: { name: 'get_weather', description: 'Current weather of a city', parameters: { ...WEATHER_PARAMETERS } },
  },
];

describe.each(['direct', 'proxy'] as const)('the SDK client %s', (name) => {
  const client = () => {
    const t = targets.find((x) => x.name === name)!;
    return new Client({ baseUrl: t.sdkBaseUrl, ...(name === 'direct' ? { apiKey: t.apiKey } : {}), maxRetries: 0 });
  };

  it('runs the agent loop: the message sent back as received, a tool message per call, then text', async () => {
    const c = client();
    const messages: ChatMessage[] = [{ role: 'user', content: 'Paris' }];
    for (let step = 0; step < 5; step++) {
      const completion = await c.chat.completions.create({
        model: 'gpt-4o-mini',
        messages,
        tools,
        seed: 7,
        stop: ['\n\n'],
        user: 'u-1',
      });
      const choice = completion.choices[0]!;
      messages.push(choice.message);
      if (choice.finish_reason !== 'tool_calls') break;
      for (const call of choice.message.tool_calls ?? []) {
        messages.push({
          role: 'tool',
          tool_call_id: call.id,
          content: JSON.stringify(weather({ city: cityOf(call.function.arguments) })),
        });
      }
    }
    expect(messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
    expect(messages.at(-1)).toEqual({ role: 'assistant', content: answerFor('Paris') });
  });

  it('collects a streamed tool call (fragments concatenated) and the final text with finalChatCompletion()', async () => {
    const c = client();
    const messages: ChatMessage[] = [{ role: 'user', content: 'Oslo' }];
    const stream = await c.chat.completions.create({
      model: 'gpt-4o-mini',
      messages,
      tools,
      stream: true,
      stream_options: { include_usage: true },
    });
    const first = await stream.finalChatCompletion();
    const call = first.choices[0]!.message.tool_calls![0]!;
    expect(call).toMatchObject({
      index: 0,
      type: 'function',
      function: { name: 'get_weather', arguments: '{"city":"Oslo"}' },
    });
    expect(call.id).toMatch(/^call_/);
    expect(first.choices[0]!.finish_reason).toBe('tool_calls');
    expect(first.choices[0]!.message.content).toBeNull();
    expect(first.usage?.total_tokens).toBeGreaterThan(0);
    messages.push(first.choices[0]!.message, {
      role: 'tool',
      tool_call_id: call.id,
      content: JSON.stringify(weather({ city: 'Oslo' })),
    });
    const second = await c.chat.completions.create({ model: 'gpt-4o-mini', messages, tools, stream: true });
    expect(await second.finalContent()).toBe(answerFor('Oslo'));
  });

  it('iterates a stream chunk by chunk and still collects it afterwards; a second read is refused', async () => {
    const stream = await client().chat.completions.create({
      model: 'gpt-4o-mini',
      messages: [{ role: 'user', content: 'one two three' }],
      stream: true,
    });
    const deltas: string[] = [];
    for await (const chunk of stream) deltas.push(chunk.choices[0]?.delta.content ?? '');
    expect(deltas).toEqual(['Echo: ', 'one ', 'two ', 'three']);
    const final = await stream.finalChatCompletion();
    expect(final.object).toBe('chat.completion');
    expect(final.choices).toEqual([
      { index: 0, message: { role: 'assistant', content: 'Echo: one two three' }, finish_reason: 'stop' },
    ]);
    await expect(async () => {
      for await (const _ of stream) break;
    }).rejects.toThrow(SDKError);
  });

  it('a stream left early ends its final completion with AbortError, and releases the connection', async () => {
    const stream = await client().chat.completions.create({
      model: 'gpt-4o-mini',
      messages: [{ role: 'user', content: 'one two three' }],
      stream: true,
    });
    for await (const chunk of stream) {
      expect(chunk.choices[0]?.delta.content).toBe('Echo: ');
      break;
    }
    await expect(stream.finalChatCompletion()).rejects.toMatchObject({ name: 'AbortError' });
  });

  it('answers JSON in JSON mode', async () => {
    const c = await client().chat.completions.create({
      model: 'gpt-4o-mini',
      messages: [{ role: 'user', content: 'json please' }],
      response_format: { type: 'json_object' },
    });
    expect(JSON.parse(c.choices[0]!.message.content!)).toEqual({ echo: 'Echo: json please' });
  });

  it("takes a chat model's generated parameter type, in its own function and in create()", async () => {
    const c = client();
    const params: Gpt4oMiniParams = { messages: [{ role: 'user', content: 'typed' }], max_tokens: 100 };
    expect((await gpt4oMiniCreateChatCompletion(c, params)).choices[0]!.message.content).toBe('Echo: typed');
    const viaCreate = await c.chat.completions.create({ model: 'gpt-4o-mini', ...params });
    expect(viaCreate.choices[0]!.message.content).toBe('Echo: typed');
  });
});

describe('ChatCompletionAccumulator', () => {
  const head = { id: 'chatcmpl-1', object: 'chat.completion.chunk', created: 1, model: 'm' } as const;
  it('concatenates text and tool-call arguments by index, keeps the last finish_reason and the usage', () => {
    const chunks: ChatCompletionChunk[] = [
      {
        ...head,
        choices: [
          {
            index: 0,
            delta: {
              role: 'assistant',
              content: null,
              tool_calls: [{ index: 0, id: 'call_a', type: 'function', function: { name: 'f', arguments: '' } }],
            },
            finish_reason: null,
          },
        ],
      },
      {
        ...head,
        choices: [
          {
            index: 0,
            delta: {
              tool_calls: [{ index: 1, id: 'call_b', type: 'function', function: { name: 'g', arguments: '{"y"' } }],
            },
            finish_reason: null,
          },
        ],
      },
      {
        ...head,
        choices: [
          { index: 0, delta: { tool_calls: [{ index: 0, function: { arguments: '{"x":' } }] }, finish_reason: null },
        ],
      },
      {
        ...head,
        choices: [
          {
            index: 0,
            delta: {
              tool_calls: [
                { index: 0, function: { arguments: '1}' } },
                { index: 1, function: { arguments: ':2}' } },
              ],
            },
            finish_reason: null,
          },
        ],
      },
      { ...head, choices: [{ index: 0, delta: {}, finish_reason: 'tool_calls' }] },
      { ...head, choices: [], usage: { prompt_tokens: 3, completion_tokens: 2, total_tokens: 5 } },
    ];
    const acc = new ChatCompletionAccumulator();
    for (const c of chunks) acc.add(c);
    expect(acc.result()).toEqual({
      id: 'chatcmpl-1',
      object: 'chat.completion',
      created: 1,
      model: 'm',
      choices: [
        {
          index: 0,
          message: {
            role: 'assistant',
            content: null,
            tool_calls: [
              { id: 'call_a', index: 0, type: 'function', function: { name: 'f', arguments: '{"x":1}' } },
              { id: 'call_b', index: 1, type: 'function', function: { name: 'g', arguments: '{"y":2}' } },
            ],
          },
          finish_reason: 'tool_calls',
        },
      ],
      usage: { prompt_tokens: 3, completion_tokens: 2, total_tokens: 5 },
    });
  });

  it('refuses to make a completion of no chunk', () => {
    expect(() => new ChatCompletionAccumulator().result()).toThrow(/no chunk/);
  });
});
