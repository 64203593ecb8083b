// POST /api/ai/chat/completions: a deterministic model in the widely used chat-completions format that
// echoes, calls tools and answers with what they returned, and writes JSON on request.
//
// Ours (the description is silent on how a model answers): the content is `Echo: <last user text>`;
// while tools are offered (and tool_choice is not "none") and the last message is not a tool result,
// the answer is one call of the first tool (or the one tool_choice names) with arguments filled from
// its parameters' schema; once the last message is a tool result, the answer is text quoting the
// results since the last assistant message. JSON mode (`response_format` json_object or json_schema)
// makes the content a JSON object. A stream sends text one word per chunk and a tool call in
// fragments: the first with `id`, `type` and `function.name`, then the arguments in pieces. There is always
// one choice (`n`, `seed`, `stop` and the other sampling fields are accepted and ignored).
import { createHash } from 'node:crypto';
import { checkContentParts } from './chat-parts.ts';
import { STREAMED, badRequest, isObject, json, messageError, type HandlerResult } from './http.ts';
import { isChatModel } from './state.ts';
import { checkChatMessages } from './validate.ts';
import type { Handler, RequestCtx, ServerCtx } from './context.ts';
import type { OperationId } from '../runtime/operations.ts';

/** Text of a message content: a string, or the text parts of an array joined by spaces. */
function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) {
    return content
      .filter((p): p is Record<string, unknown> => isObject(p) && p.type === 'text' && typeof p.text === 'string')
      .map((p) => p.text as string)
      .join(' ');
  }
  return '';
}

function words(s: string): string[] {
  return s.split(/\s+/).filter(Boolean);
}

/** A value of JSON Schema `schema` (ours): strings are `text`, numbers 1, booleans true, objects filled property by property. */
function sampleOf(schema: unknown, text: string, depth = 0): unknown {
  const s = isObject(schema) ? schema : {};
  if (Array.isArray(s.enum) && s.enum.length > 0) return s.enum[0];
  const type = Array.isArray(s.type) ? s.type[0] : s.type;
  if (type === 'string') return text;
  if (type === 'number' || type === 'integer') return 1;
  if (type === 'boolean') return true;
  if (type === 'array') return depth > 4 ? [] : [sampleOf(s.items, text, depth + 1)];
  if (type === 'object' || isObject(s.properties)) {
    const out: Record<string, unknown> = {};
    if (depth <= 4 && isObject(s.properties))
      for (const [k, v] of Object.entries(s.properties)) out[k] = sampleOf(v, text, depth + 1);
    return out;
  }
  return null;
}

/** The JSON answer of JSON mode: an object following `json_schema.schema` when given and typed as an object, else `{ echo }`. */
function jsonContent(format: Record<string, unknown>, echo: string): string {
  const schema = isObject(format.json_schema) ? format.json_schema.schema : undefined;
  const sample = format.type === 'json_schema' ? sampleOf(schema, echo) : undefined;
  return JSON.stringify(isObject(sample) && Object.keys(sample).length > 0 ? sample : { echo });
}

/** `s` cut into pieces of `size` characters (at least one piece). */
function pieces(s: string, size: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < s.length; i += size) out.push(s.slice(i, i + size));
  return out.length > 0 ? out : [''];
}

interface ToolCall {
  index: number;
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}

async function chatCompletions(s: ServerCtx, r: RequestCtx): Promise<HandlerResult> {
  const body = await r.body();
  // Validation order per the description: no model, unknown model, empty messages, credits.
  if (typeof body.model !== 'string' || body.model === '') throw messageError(400, 'You must specify a model to call');
  const model = s.models.get(body.model);
  if (!model) throw messageError(404, `Model not found: ${body.model}`);
  if (!isChatModel(model)) {
    // Ours: the description shows no message for a non-chat model on this endpoint.
    throw badRequest(
      `Model ${model.id} is not a chat model (endpoint ${model.endpoint ?? 'unknown'}, output ${model.output.join(', ') || 'unknown'})`,
    );
  }
  const messages = body.messages;
  if (!Array.isArray(messages) || messages.length === 0) throw messageError(400, 'Messages array cannot be empty');
  checkChatMessages(messages); // ours: unknown roles and malformed messages are a 400
  checkContentParts(messages); // the docs' audio and file parts: their limits and shape
  // Ours: temperature outside the description's 0..2 range is a 400.
  if (
    body.temperature !== undefined &&
    body.temperature !== null &&
    (typeof body.temperature !== 'number' || body.temperature < 0 || body.temperature > 2)
  ) {
    throw badRequest('temperature must be a number between 0 and 2');
  }
  const namespace = s.accounts.namespaceFor(r.user, body.target_namespace);
  s.accounts.charge(namespace, 0); // chat is free here, but a namespace with no credits is refused

  const lastUser = [...messages].reverse().find((m) => isObject(m) && m.role === 'user');
  const userText = isObject(lastUser) ? contentText(lastUser.content) : '';
  const digest = createHash('sha256')
    .update(JSON.stringify({ model: model.id, messages }))
    .digest('hex');
  const id = `chatcmpl-${digest.slice(0, 24)}`;
  const created = s.clock.seconds();

  const last = messages[messages.length - 1] as Record<string, unknown>;
  const answeringTools = last.role === 'tool';
  // The tool results since the last assistant message, in order.
  const results: string[] = [];
  for (let i = messages.length - 1; i >= 0 && (messages[i] as Record<string, unknown>).role === 'tool'; i--)
    results.unshift(contentText((messages[i] as Record<string, unknown>).content));

  // Tool calling: with a non-empty `tools` (and tool_choice not "none"), call the first tool, or the one
  // tool_choice names, unless the last message is already a tool result.
  const tools = Array.isArray(body.tools) ? body.tools.filter(isObject) : [];
  let toolCall: ToolCall | undefined;
  if (tools.length > 0 && body.tool_choice !== 'none' && !answeringTools) {
    const chosen =
      isObject(body.tool_choice) && isObject(body.tool_choice.function) ? body.tool_choice.function.name : undefined;
    const tool = tools.find((t) => isObject(t.function) && t.function.name === chosen) ?? tools[0]!;
    const fn = isObject(tool.function) ? tool.function : {};
    const name = typeof chosen === 'string' ? chosen : typeof fn.name === 'string' ? fn.name : 'tool';
    const args = sampleOf(isObject(fn.parameters) ? fn.parameters : { type: 'object' }, userText);
    toolCall = {
      index: 0,
      id: `call_${digest.slice(24, 48)}`,
      type: 'function',
      function: { name, arguments: JSON.stringify(isObject(args) ? args : {}) },
    };
  }

  const echo = answeringTools ? `Tool results: ${results.join(' | ')}` : `Echo: ${userText}`;
  const format = isObject(body.response_format) ? body.response_format : undefined;
  const jsonMode = format !== undefined && (format.type === 'json_object' || format.type === 'json_schema');
  const text = jsonMode ? jsonContent(format, echo) : echo;

  const promptTokens = messages.reduce(
    (n: number, m) => n + (isObject(m) ? words(contentText(m.content)).length : 0),
    0,
  );
  const completionTokens = toolCall ? words(toolCall.function.arguments).length + 1 : words(text).length;
  const usage = {
    prompt_tokens: promptTokens,
    completion_tokens: completionTokens,
    total_tokens: promptTokens + completionTokens,
  };

  if (body.stream === true) {
    const res = r.res;
    res.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache', Connection: 'keep-alive' });
    r.markStatus(200);
    const chunk = (delta: Record<string, unknown>, finish: string | null): string =>
      `data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model: model.id, choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
    let out = '';
    if (toolCall) {
      // The first fragment names the call; the arguments follow in pieces of 6 characters; the last chunk ends it.
      const { index, id: callId, type, function: f } = toolCall;
      out += chunk(
        {
          role: 'assistant',
          content: null,
          tool_calls: [{ index, id: callId, type, function: { name: f.name, arguments: '' } }],
        },
        null,
      );
      for (const piece of pieces(f.arguments, 6))
        out += chunk({ tool_calls: [{ index, function: { arguments: piece } }] }, null);
      out += chunk({}, 'tool_calls');
    } else if (jsonMode) {
      // JSON in pieces of 8 characters (whitespace kept as it is), then a final empty delta with `stop`.
      pieces(text, 8).forEach(
        (p, i) => (out += chunk(i === 0 ? { role: 'assistant', content: p } : { content: p }, null)),
      );
      out += chunk({}, 'stop');
    } else {
      // One word per chunk (with its trailing space, so the deltas concatenate to the full content);
      // finish_reason is null until the last chunk, which carries `stop`.
      const ws = words(text);
      ws.forEach((w, i) => {
        const lastWord = i === ws.length - 1;
        out += chunk(
          i === 0 ? { role: 'assistant', content: lastWord ? w : `${w} ` } : { content: lastWord ? w : `${w} ` },
          lastWord ? 'stop' : null,
        );
      });
    }
    if (isObject(body.stream_options) && body.stream_options.include_usage === true) {
      out += `data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model: model.id, choices: [], usage })}\n\n`;
    }
    out += 'data: [DONE]\n\n';
    res.end(out);
    return STREAMED;
  }

  const message = toolCall
    ? { role: 'assistant', content: null, tool_calls: [toolCall] }
    : { role: 'assistant', content: text };
  return json(200, {
    id,
    object: 'chat.completion',
    created,
    model: model.id,
    choices: [{ index: 0, message, finish_reason: toolCall ? 'tool_calls' : 'stop' }],
    usage,
  });
}

export const chatHandlers = { chatCompletionsCreate: chatCompletions } satisfies Partial<Record<OperationId, Handler>>;
