// LangChain (`@langchain/openai`'s ChatOpenAI) against the local server's /api/ai, directly and through
// createProxyHandler: the bindTools agent loop (invoke, run the tool calls, send back the ToolMessages, until
// the model answers with text), the same loop streamed (tool-call chunks concatenated by LangChain), a
// streamed answer with usage, and JSON mode (withStructuredOutput, method jsonMode).
import type { AIMessageChunk, BaseMessage } from '@langchain/core/messages';
import { HumanMessage } from '@langchain/core/messages';
import { tool } from '@langchain/core/tools';
import { ChatOpenAI } from '@langchain/openai';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { answerFor, useTargets, weather } from './helpers.ts';

const { targets } = useTargets();

const getWeather = tool(async (args: { city: string }) => JSON.stringify(weather(args)), {
  name: 'get_weather',
  description: 'Current weather of a city',
  schema: z.object({ city: z.string() }),
});

/** The agent loop: at most 5 model calls. */
async function agentLoop(
  llm: ChatOpenAI,
  question: string,
  streamed: boolean,
): Promise<{ text: string; messages: BaseMessage[] }> {
  const model = llm.bindTools([getWeather]);
  const messages: BaseMessage[] = [new HumanMessage(question)];
  for (let step = 0; step < 5; step++) {
    let reply: AIMessageChunk | undefined;
    if (streamed) {
      for await (const chunk of await model.stream(messages)) reply = reply === undefined ? chunk : reply.concat(chunk);
    } else {
      reply = await model.invoke(messages);
    }
    messages.push(reply!);
    if (!reply!.tool_calls?.length) return { text: reply!.text, messages };
    for (const call of reply!.tool_calls) messages.push(await getWeather.invoke(call));
  }
  throw new Error('the agent loop did not end with text');
}

describe.each(['direct', 'proxy'] as const)('langchain %s', (name) => {
  const llm = () => {
    const t = targets.find((x) => x.name === name)!;
    return new ChatOpenAI({
      model: 'gpt-4o-mini',
      apiKey: t.apiKey,
      configuration: { baseURL: t.baseURL },
      maxRetries: 0,
    });
  };

  it('runs the bindTools agent loop: tool call, ToolMessage, final text', async () => {
    const { text, messages } = await agentLoop(llm(), 'Paris', false);
    expect(text).toBe(answerFor('Paris'));
    expect(messages.map((m) => m.getType())).toEqual(['human', 'ai', 'tool', 'ai']);
  });

  it('runs the loop streamed (tool-call fragments concatenated)', async () => {
    const { text, messages } = await agentLoop(llm(), 'Oslo', true);
    expect(text).toBe(answerFor('Oslo'));
    expect((messages[1] as AIMessageChunk).tool_calls).toEqual([
      expect.objectContaining({ name: 'get_weather', args: { city: 'Oslo' } }),
    ]);
  });

  it('streams an answer with usage', async () => {
    const parts: string[] = [];
    let last: AIMessageChunk | undefined;
    for await (const chunk of await llm().stream('one two three')) {
      parts.push(chunk.text);
      last = last === undefined ? chunk : last.concat(chunk);
    }
    expect(parts.filter(Boolean).length).toBeGreaterThan(1);
    expect(parts.join('')).toBe('Echo: one two three');
    expect(last?.usage_metadata?.total_tokens).toBeGreaterThan(0);
  });

  it('answers a JSON object in JSON mode (withStructuredOutput, jsonMode)', async () => {
    const structured = llm().withStructuredOutput(z.object({ echo: z.string() }), { method: 'jsonMode' });
    expect(await structured.invoke('json please')).toEqual({ echo: 'Echo: json please' });
  });
});
