/**
 * Streamed chat completions: `ChatCompletionStream` (the result of
 * `chat.completions.create({ ..., stream: true })`), read with the SSE parser of `sse.ts`, which
 * collects its chunks with `ChatCompletionAccumulator` (`accumulate.ts`) into the
 * `ChatCompletion` the same request would have returned unstreamed, as openai-node's
 * `finalChatCompletion()` does. Loaded on demand by the client (a dynamic `import()`).
 */
import { AbortError, APIError, ConnectionError, MAX_ERROR_BODY_BYTES, SDKError, truncate } from '../errors.ts';
import { classOfAnswer, infoFromBody, redactedJsonError, withBodyInfo } from '../internal/failure.ts';
import { chatCompletionsCreate } from '../operations.ts';
import type { HttpRequest } from '../request.ts';
import { endpointTimeout, type CallScope, type RequestOptions } from '../scope.ts';
import { expectEventStream } from '../streaming/event-stream.ts';
import { sseBatches } from '../streaming/sse.ts';
import type { Transport } from '../transport.ts';
import { ChatCompletionAccumulator } from './accumulate.ts';
import type { ChatCompletion, ChatCompletionChunk } from './types.ts';

// Method and path from the operations table (`specs/openapi.yaml`).
const CHAT_REQUEST = { method: chatCompletionsCreate.method, path: chatCompletionsCreate.path };

/**
 * The result of `chat.completions.create({ ..., stream: true })`: an async iterable of
 * `ChatCompletionChunk`, ending at the server's `data: [DONE]`, that also collects what it reads:
 * `finalChatCompletion()` resolves to the whole completion (text, tool calls with their arguments
 * concatenated, `finish_reason`, `usage`), reading the rest of the stream itself when the chunks
 * are not iterated. Iterate it once. `abort()` (or the call's `signal`) stops it; breaking out of
 * `for await` releases the connection. The call's `timeoutMs` covers the whole stream.
 * @throws (from iteration and `finalChatCompletion`) `APIError` when the server sends an error
 * object in the stream (its message, `type`, `title`, `detail` and body read and redacted as those of
 * an error answer; the class by its `type`, e.g. `InsufficientCreditsError`), `ConnectionError` when the
 * connection drops or the stream ends before `[DONE]`, `ResponseTooLargeError` for a chunk beyond
 * the size cap or a completion that collects more than it (`maxResponseBytes`: text, tool-call
 * arguments, tool calls and choices; the connection is then closed), `TimeoutError`, `AbortError`.
 */
export class ChatCompletionStream implements AsyncIterable<ChatCompletionChunk> {
  private used = false;
  private aborted = false;
  private readonly collected: ChatCompletionAccumulator;
  private readonly ended: Promise<ChatCompletion>;
  private settle!: { resolve: (c: ChatCompletion) => void; reject: (e: unknown) => void };

  constructor(
    /** The live HTTP response the stream reads (its body belongs to the stream: do not read it). */
    readonly response: Response,
    private readonly scope: CallScope,
    private readonly maxEventBytes: number = Infinity,
  ) {
    // The whole completion is bounded like one event: by `maxResponseBytes`.
    this.collected = new ChatCompletionAccumulator({ maxBytes: maxEventBytes });
    this.ended = new Promise<ChatCompletion>((resolve, reject) => (this.settle = { resolve, reject }));
    this.ended.catch(() => undefined); // observed through finalChatCompletion() or the iteration
  }

  /** Stop the stream; a pending or later iteration step throws `AbortError`. */
  abort(): void {
    this.aborted = true;
    this.scope.abort();
  }

  /**
   * The whole completion, as the same request unstreamed would have returned it (see
   * `ChatCompletionAccumulator`). Reads the stream to its end when nobody iterates it; while (or
   * after) it is iterated, resolves when the iteration reaches `data: [DONE]`.
   * @throws the stream's error (see the class), or `AbortError` when the iteration stopped early.
   */
  async finalChatCompletion(): Promise<ChatCompletion> {
    if (!this.used) for await (const _ of this);
    return this.ended;
  }

  /** The text of the first choice of `finalChatCompletion()` (null when the model only called tools). */
  async finalContent(): Promise<string | null> {
    return (await this.finalChatCompletion()).choices[0]?.message.content ?? null;
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<ChatCompletionChunk, void, undefined> {
    if (this.used)
      throw new SDKError('A ChatCompletionStream can be iterated only once (finalChatCompletion() reads it too)');
    this.used = true;
    const request = CHAT_REQUEST;
    const body = this.response.body;
    let done = false;
    try {
      if (!body) throw new ConnectionError('The chat stream has no body', { request });
      for await (const batch of sseBatches(body, { maxEventBytes: this.maxEventBytes, request }))
        for (const m of batch) {
          // abort() and the signal take effect even for chunks already received.
          if (this.aborted) throw new AbortError('The chat stream was aborted');
          if (this.scope.signal.aborted) throw this.scope.endError('POST /api/ai/chat/completions');
          if (m.data === '[DONE]') {
            done = true;
            this.settle.resolve(this.collected.result());
            return;
          }
          let chunk: unknown;
          try {
            chunk = JSON.parse(m.data);
          } catch (err) {
            const redactor = this.scope.redactor;
            throw new APIError('Invalid JSON in a chat stream chunk', {
              status: this.response.status,
              body: truncate(redactor ? redactor.text(m.data) : m.data, MAX_ERROR_BODY_BYTES),
              request,
              cause: redactedJsonError(err, m.data, redactor),
              redactor,
            });
          }
          if (chunk && typeof chunk === 'object' && 'error' in chunk && chunk.error) {
            const redactor = this.scope.redactor;
            const { message, ...fields } = infoFromBody(chunk, 'The chat stream reported an error', redactor);
            const ErrorClass = classOfAnswer(this.response.status, fields.type);
            throw withBodyInfo(
              new ErrorClass(message, { status: this.response.status, body: chunk, request, redactor }),
              fields,
            );
          }
          this.collected.add(chunk as ChatCompletionChunk);
          yield chunk as ChatCompletionChunk;
        }
      throw new ConnectionError('The chat stream ended before data: [DONE]', { request });
    } catch (err) {
      const e = this.mapError(err);
      this.settle.reject(e);
      throw e;
    } finally {
      if (!done) {
        this.scope.abort(); // the consumer stopped early, or an error: release the connection
        this.settle.reject(new AbortError('The chat stream was not read to its end'));
      }
      this.scope.dispose();
    }
  }

  private mapError(err: unknown): Error {
    if (err instanceof APIError || err instanceof AbortError) return err;
    if (this.aborted)
      return new AbortError('The chat stream was aborted', { cause: err, redactor: this.scope.redactor });
    if (this.scope.signal.aborted) return this.scope.endError('POST /api/ai/chat/completions', err);
    return new ConnectionError(`The chat stream was interrupted: ${err instanceof Error ? err.message : String(err)}`, {
      request: CHAT_REQUEST,
      cause: err,
      redactor: this.scope.redactor,
    });
  }
}

/**
 * `POST /api/ai/chat/completions` with `stream: true` through `t`: resolves once the response
 * headers arrived. Never resent unless the service surely did not process it. `options.timeoutMs`
 * (milliseconds) covers the whole stream; default the chat endpoint's (`DEFAULT_TIMEOUTS_MS.chat`,
 * 10 minutes) unless the client set `timeoutMs`.
 * @throws as `Transport.request`, and APIError when the answer is not an event stream.
 */
export async function openChatStream(
  t: Transport,
  body: Record<string, unknown>,
  options?: RequestOptions,
): Promise<ChatCompletionStream> {
  const req: HttpRequest = { ...CHAT_REQUEST, body };
  const { response, scope } = await t.openStream(req, endpointTimeout(t, 'chat', options));
  await expectEventStream(response, scope, { method: req.method, path: req.path }, 'a streaming chat completion');
  return new ChatCompletionStream(response, scope, t.settings.maxResponseBytes);
}
