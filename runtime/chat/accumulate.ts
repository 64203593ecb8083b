/**
 * `ChatCompletionAccumulator`: the chunks of a streamed chat completion folded into the
 * `ChatCompletion` the same request would have returned unstreamed, within a size bound. Used by
 * `ChatCompletionStream` (`stream.ts`); usable alone on chunks read another way (e.g. through a
 * proxy). No I/O.
 */
import { DEFAULT_MAX_RESPONSE_BYTES, SDKError } from '../errors.ts';
import { ResponseTooLargeError } from '../error-classes.ts';
import { chatCompletionsCreate } from '../operations.ts';
import type { ChatCompletion, ChatCompletionChoice, ChatCompletionChunk, ToolCall } from './types.ts';

/**
 * What each choice and each tool call counts towards `maxBytes`, in bytes, besides its text: about
 * what one takes in memory, so that a stream of countless empty tool calls is bounded too.
 */
export const CHAT_ENTRY_BYTES = 256;

/** Options of `ChatCompletionAccumulator`. */
export interface ChatCompletionAccumulatorOptions {
  /**
   * The largest completion collected, in bytes: every character of the choices' `content` and
   * `refusal` and of the tool calls' `id`, `function.name` and `function.arguments` counts one byte
   * (at most its UTF-8 size; in memory, at most two), and each choice and each tool call counts
   * `CHAT_ENTRY_BYTES` (256). Beyond it `add` throws `ResponseTooLargeError`. Default 104_857_600
   * (100 MiB, `DEFAULT_MAX_RESPONSE_BYTES`); the client's stream uses its `maxResponseBytes`.
   */
  maxBytes?: number | undefined;
}

/**
 * Folds stream chunks into one `ChatCompletion`: per choice (by `index`) the `content` pieces
 * concatenated (null when none came), the tool calls by their `index` — `id`, `type` and
 * `function.name` from the fragment that carries them, `function.arguments` concatenated —, the last
 * non-null `finish_reason`; `id`, `created` and `model` of the first chunk; `usage` of the chunk that
 * has it (the last one, with `stream_options.include_usage`). What it holds is bounded by
 * `maxBytes` (see `ChatCompletionAccumulatorOptions`), so an endless stream of arguments, text,
 * tool calls or choices ends in `ResponseTooLargeError` instead of exhausting memory.
 */
export class ChatCompletionAccumulator {
  /** The bound, in bytes (see `ChatCompletionAccumulatorOptions.maxBytes`). */
  readonly maxBytes: number;
  /** What the completion holds so far, counted as `maxBytes` says. */
  private bytes = 0;
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

  /** @throws SDKError for a `maxBytes` that is not a positive number. */
  constructor(options: ChatCompletionAccumulatorOptions = {}) {
    const max = options.maxBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
    if (!(max > 0)) throw new SDKError(`maxBytes must be a positive number of bytes; got ${String(max)}`);
    this.maxBytes = max;
  }

  /**
   * Add one chunk.
   * @throws ResponseTooLargeError when the completion would hold more than `maxBytes` (the chunk is
   * then not added: what was collected before it stays as it was).
   */
  add(chunk: ChatCompletionChunk): void {
    this.reserve(chunk);
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
   * Count what `chunk` adds (new choices and tool calls, appended text, longer ids and names).
   * @throws ResponseTooLargeError beyond `maxBytes`.
   */
  private reserve(chunk: ChatCompletionChunk): void {
    let added = 0;
    const longer = (next: unknown, now: string | undefined) =>
      typeof next === 'string' ? Math.max(0, next.length - (now?.length ?? 0)) : 0;
    // (a choice or a call new to the completion and named twice in this chunk counts twice: an over-count, never an under-count)
    for (const c of chunk.choices ?? []) {
      const choice = this.choices.get(c.index);
      if (!choice) added += CHAT_ENTRY_BYTES;
      const delta = c.delta ?? {};
      if (typeof delta.content === 'string') added += delta.content.length;
      if (typeof delta.refusal === 'string') added += delta.refusal.length;
      for (const f of delta.tool_calls ?? []) {
        const call = choice?.calls.get(f.index);
        if (!call) added += CHAT_ENTRY_BYTES;
        added += longer(f.id, call?.id) + longer(f.function?.name, call?.function.name);
        if (typeof f.function?.arguments === 'string') added += f.function.arguments.length;
      }
    }
    if (this.bytes + added > this.maxBytes) {
      throw new ResponseTooLargeError(
        `The chat completion collected from the stream is larger than maxResponseBytes (${this.maxBytes} bytes: text, tool-call arguments, tool calls and choices); the SDK stopped collecting it`,
        {
          request: { method: chatCompletionsCreate.method, path: chatCompletionsCreate.path },
          limitBytes: this.maxBytes,
        },
      );
    }
    this.bytes += added;
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
