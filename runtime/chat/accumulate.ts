/**
 * `ChatCompletionAccumulator`: the chunks of a streamed chat completion folded into the
 * `ChatCompletion` the same request would have returned unstreamed. Used by `ChatCompletionStream`
 * (`chat-stream.ts`); usable alone on chunks read another way (e.g. through a proxy). No I/O.
 */
import { SDKError } from '../errors.ts';
import type { ChatCompletion, ChatCompletionChoice, ChatCompletionChunk, ToolCall } from './types.ts';

/**
 * Folds stream chunks into one `ChatCompletion`: per choice (by `index`) the `content` pieces
 * concatenated (null when none came), the tool calls by their `index` — `id`, `type` and
 * `function.name` from the fragment that carries them, `function.arguments` concatenated —, the last
 * non-null `finish_reason`; `id`, `created` and `model` of the first chunk; `usage` of the chunk that
 * has it (the last one, with `stream_options.include_usage`).
 */
export class ChatCompletionAccumulator {
  private head: Pick<ChatCompletion, 'id' | 'created' | 'model'> | undefined;
  private usage: ChatCompletion['usage'];
  private readonly choices = new Map<
    number,
    {
      content: string | null;
      refusal: string | null;
      finish: ChatCompletionChoice['finish_reason'];
      calls: Map<number, ToolCall>;
    }
  >();

  /** Add one chunk. */
  add(chunk: ChatCompletionChunk): void {
    this.head ??= { id: chunk.id, created: chunk.created, model: chunk.model };
    if (chunk.usage) this.usage = chunk.usage;
    for (const c of chunk.choices ?? []) {
      let choice = this.choices.get(c.index);
      if (!choice)
        this.choices.set(c.index, (choice = { content: null, refusal: null, finish: null, calls: new Map() }));
      const delta = c.delta ?? {};
      if (typeof delta.content === 'string') choice.content = (choice.content ?? '') + delta.content;
      if (typeof delta.refusal === 'string') choice.refusal = (choice.refusal ?? '') + delta.refusal;
      if (c.finish_reason != null) choice.finish = c.finish_reason;
      for (const f of delta.tool_calls ?? []) {
        let call = choice.calls.get(f.index);
        if (!call)
          choice.calls.set(
            f.index,
            (call = { id: '', index: f.index, type: 'function', function: { name: '', arguments: '' } }),
          );
        if (f.id) call.id = f.id;
        if (f.type) call.type = f.type;
        if (f.function?.name) call.function.name = f.function.name;
        if (f.function?.arguments) call.function.arguments += f.function.arguments;
      }
    }
  }

  /**
   * The completion so far (after the last chunk: the final one), `object: 'chat.completion'`.
   * @throws SDKError when no chunk was added.
   */
  result(): ChatCompletion {
    if (!this.head) throw new SDKError('The chat stream carried no chunk: there is no completion to collect');
    const choices = [...this.choices.entries()]
      .sort(([a], [b]) => a - b)
      .map(([index, c]): ChatCompletionChoice => {
        const calls = [...c.calls.values()].sort((a, b) => (a.index ?? 0) - (b.index ?? 0));
        const message: ChatCompletionChoice['message'] = { role: 'assistant', content: c.content };
        if (calls.length > 0) message.tool_calls = calls.map((t) => ({ ...t, function: { ...t.function } }));
        if (c.refusal !== null) message.refusal = c.refusal;
        return { index, message, finish_reason: c.finish };
      });
    const completion: ChatCompletion = { ...this.head, object: 'chat.completion', choices };
    if (this.usage) completion.usage = { ...this.usage };
    return completion;
  }
}
