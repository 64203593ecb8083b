// The Vercel AI SDK (`ai` with `@ai-sdk/openai-compatible`) against the local server's /api/ai, directly and
// through createProxyHandler: an agent loop of generateText with a tool and stopWhen, the same loop streamed
// (streamText: tool-call fragments), a streamed answer with usage, and JSON mode (Output.object).
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { generateText, Output, stepCountIs, streamText, tool } from 'ai';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { answerFor, useTargets, weather } from './helpers.ts';

// The JSON mode test asks for an object without structured outputs: the SDK sends json_object and logs a warning about it.
(globalThis as { AI_SDK_LOG_WARNINGS?: boolean }).AI_SDK_LOG_WARNINGS = false;
const { targets } = useTargets();

const tools = {
  get_weather: tool({
    description: 'Current weather of a city',
    inputSchema: z.object({ city: z.string() }),
    execute: async (args) => weather(args),
  }),
};

describe.each(['direct', 'proxy'] as const)('ai %s', (name) => {
  const model = () => {
    const t = targets.find((x) => x.name === name)!;
    return createOpenAICompatible({ name: 'oxen', baseURL: t.baseURL, apiKey: t.apiKey, includeUsage: true }).chatModel(
      'gpt-4o-mini',
    );
  };

  it('runs an agent loop with generateText, tools and stopWhen: tool call, result, final text', async () => {
    const r = await generateText({ model: model(), prompt: 'Paris', tools, stopWhen: stepCountIs(5), maxRetries: 0 });
    expect(r.text).toBe(answerFor('Paris'));
    expect(r.steps).toHaveLength(2);
    expect(r.steps[0]!.toolCalls.map((c) => [c.toolName, c.input])).toEqual([['get_weather', { city: 'Paris' }]]);
    expect(r.finishReason).toBe('stop');
  });

  it('runs the loop streamed with streamText (the tool call arrives in fragments)', async () => {
    const r = streamText({ model: model(), prompt: 'Oslo', tools, stopWhen: stepCountIs(5), maxRetries: 0 });
    let text = '';
    for await (const delta of r.textStream) text += delta;
    expect(text).toBe(answerFor('Oslo'));
    expect((await r.steps).length).toBe(2);
  });

  it('streams an answer with usage', async () => {
    const r = streamText({ model: model(), prompt: 'one two three', maxRetries: 0 });
    const parts: string[] = [];
    for await (const delta of r.textStream) parts.push(delta);
    expect(parts.length).toBeGreaterThan(1);
    expect(parts.join('')).toBe('Echo: one two three');
    const usage = await r.usage;
    expect(usage.totalTokens).toBe((usage.inputTokens ?? 0) + (usage.outputTokens ?? 0));
  });

  it('answers a JSON object in JSON mode (Output.object)', async () => {
    const r = await generateText({
      model: model(),
      prompt: 'json please',
      output: Output.object({ schema: z.object({ echo: z.string() }) }),
      maxRetries: 0,
    });
    expect(r.output).toEqual({ echo: 'Echo: json please' });
  });
});
