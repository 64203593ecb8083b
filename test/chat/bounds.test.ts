// Collecting a streamed chat completion is bounded by maxResponseBytes (text, tool-call arguments,
// and the number of tool calls and choices): an endless stream from the local server (the
// `chat-flood` fault: 180 MB of tool-call arguments, or countless tool calls or choices) ends in
// ResponseTooLargeError soon after the cap, the connection closed, with the memory of the process
// that reads it bounded by a small multiple of the cap (measured in a child process).
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { DEFAULT_MAX_RESPONSE_BYTES, ResponseTooLargeError, SDKError, type ChatCompletionChunk } from '../../index.ts';
import { CHAT_ENTRY_BYTES, ChatCompletionAccumulator } from '../../runtime/chat/index.ts';
import { run, tsxArgs } from '../support/index.ts';
import { rejectionOf, useServers } from '../runtime/helpers.ts';

const setup = useServers();
const MiB = 1024 * 1024;
const FLOOD_BYTES = 180_000_000;
const messages = [{ role: 'user' as const, content: 'one two' }];

describe('ChatCompletionAccumulator is bounded by maxBytes', () => {
  const head = { id: 'chatcmpl-1', object: 'chat.completion.chunk', created: 1, model: 'm' } as const;
  const chunk = (choices: ChatCompletionChunk['choices']): ChatCompletionChunk => ({ ...head, choices });

  it('counts text, arguments, longer ids and names, and each new choice and tool call; the chunk beyond is not added', () => {
    const acc = new ChatCompletionAccumulator({ maxBytes: 2 * CHAT_ENTRY_BYTES + 10 });
    acc.add(chunk([{ index: 0, delta: { content: 'abcd' }, finish_reason: null }])); // 256 + 4
    acc.add(
      chunk([
        {
          index: 0,
          delta: { tool_calls: [{ index: 0, id: 'c1', function: { name: 'f', arguments: '{}' } }] },
          finish_reason: null,
        },
      ]),
    ); // 256 + 2 + 1 + 2 = 521 of 522
    const before = acc.result();
    const err = (() => {
      try {
        acc.add(chunk([{ index: 0, delta: { content: 'xy' }, finish_reason: null }]));
      } catch (e) {
        return e;
      }
    })();
    expect(err).toBeInstanceOf(ResponseTooLargeError);
    expect((err as ResponseTooLargeError).limitBytes).toBe(2 * CHAT_ENTRY_BYTES + 10);
    expect(acc.result()).toEqual(before); // nothing of the refused chunk
    acc.add(chunk([{ index: 0, delta: { content: 'z' }, finish_reason: 'stop' }])); // exactly at the bound
    expect(acc.result().choices[0]!.message.content).toBe('abcdz');
  });

  it('a new choice or tool call counts even when it carries no text; the default bound is DEFAULT_MAX_RESPONSE_BYTES', () => {
    const calls = new ChatCompletionAccumulator({ maxBytes: 4 * CHAT_ENTRY_BYTES });
    const call = (i: number) =>
      chunk([{ index: 0, delta: { tool_calls: [{ index: i, function: { arguments: '' } }] }, finish_reason: null }]);
    for (let i = 0; i < 3; i++) calls.add(call(i)); // the choice and three calls: 4 entries
    expect(() => calls.add(call(3))).toThrow(ResponseTooLargeError);
    const choices = new ChatCompletionAccumulator({ maxBytes: 2 * CHAT_ENTRY_BYTES });
    choices.add(chunk([{ index: 0, delta: {}, finish_reason: null }]));
    choices.add(chunk([{ index: 1, delta: {}, finish_reason: null }]));
    expect(() => choices.add(chunk([{ index: 2, delta: {}, finish_reason: null }]))).toThrow(ResponseTooLargeError);
    expect(new ChatCompletionAccumulator().maxBytes).toBe(DEFAULT_MAX_RESPONSE_BYTES);
    expect(() => new ChatCompletionAccumulator({ maxBytes: 0 })).toThrow(SDKError);
  });
});

describe('an endless chat stream ends in ResponseTooLargeError at maxResponseBytes', () => {
  it.each(['arguments', 'calls', 'choices'] as const)(
    'endless %s: finalChatCompletion() and the iteration reject soon after the cap, the connection closed',
    async (flood) => {
      const { client, server } = await setup({}, { maxResponseBytes: MiB, maxRetries: 0 });
      server.faults.add({ method: 'POST', path: '/api/ai/chat/completions', kind: 'chat-flood', flood, times: 2 });
      const stream = await client.chat.completions.create({ model: 'gpt-4o-mini', messages, stream: true });
      const err = await rejectionOf(stream.finalChatCompletion());
      expect(err).toBeInstanceOf(ResponseTooLargeError);
      expect((err as ResponseTooLargeError).limitBytes).toBe(MiB);
      let chunks = 0;
      const iterated = await rejectionOf(
        (async () => {
          for await (const _ of await client.chat.completions.create({ model: 'gpt-4o-mini', messages, stream: true }))
            chunks++;
        })(),
      );
      expect(iterated).toBeInstanceOf(ResponseTooLargeError);
      expect(chunks).toBeGreaterThan(0);
      for (const r of server.requests.filter((x) => x.path === '/api/ai/chat/completions')) {
        await expect.poll(() => r.closedEarly).toBe(true);
        // The server is stopped by the client's close: far less than the flood was written (socket buffers aside).
        expect(r.bytesSent!).toBeLessThan(FLOOD_BYTES / 10);
      }
    },
  );

  it('180 MB of tool-call arguments under a 1 MiB cap: the reading process grows by a small multiple of the cap', async () => {
    const { server } = await setup();
    // The fixture's first chat call warms it up: a stream, on which a slow-body fault has no effect.
    server.faults.add({ method: 'POST', path: '/api/ai/chat/completions', kind: 'slow-body', delayMs: 0 });
    server.faults.add({ method: 'POST', path: '/api/ai/chat/completions', kind: 'chat-flood', bytes: FLOOD_BYTES });
    const script = fileURLToPath(new URL('./fixtures/flood-memory.ts', import.meta.url));
    const child = run(process.execPath, ['--expose-gc', ...tsxArgs(script), server.url, String(MiB)], {
      timeoutMs: 120_000,
    });
    const { code, stdout, stderr } = await child;
    expect(code, stderr).toBe(0);
    const m = JSON.parse(stdout) as {
      name: string;
      limitBytes: number;
      heapBefore: number;
      heapPeak: number;
      rssBefore: number;
      rssPeak: number;
    };
    expect(m.name).toBe('ResponseTooLargeError');
    expect(m.limitBytes).toBe(MiB);
    // Unbounded, the arguments grew to V8's string limit (hundreds of MiB); bounded, a few times the cap.
    expect((m.heapPeak - m.heapBefore) / MiB).toBeLessThan(16);
    expect((m.rssPeak - m.rssBefore) / MiB).toBeLessThan(64);
    const flood = server.requests.filter((r) => r.path === '/api/ai/chat/completions')[1]!;
    expect(flood.bytesSent!).toBeLessThan(FLOOD_BYTES / 10);
  }, 150_000);
});
