// POST /api/ai/chat/completions: a deterministic echo model in the widely used chat-completions format.
import { createHash } from 'node:crypto';
import { HttpError, STREAMED, badRequest, isObject, json, type HandlerResult } from './http.ts';
import { isChatModel } from './state.ts';
import type { RequestCtx, Route, ServerCtx } from './context.ts';

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

async function chatCompletions(s: ServerCtx, r: RequestCtx): Promise<HandlerResult> {
  const body = await r.body();
  // Validation order per the description: no model, unknown model, empty messages, credits.
  if (typeof body.model !== 'string' || body.model === '') throw badRequest('You must specify a model to call');
  const model = s.models.get(body.model);
  if (!model) throw new HttpError(404, `Model not found: ${body.model}`);
  if (!isChatModel(model)) {
    // Ours: the description shows no message for a non-chat model on this endpoint.
    throw badRequest(`Model ${model.id} is not a chat model (endpoint ${model.endpoint ?? 'unknown'}, output ${model.output.join(', ') || 'unknown'})`);
  }
  const messages = body.messages;
  if (!Array.isArray(messages) || messages.length === 0) throw badRequest('Messages array cannot be empty');
  // Ours: temperature outside the description's 0..2 range is a 400.
  if (body.temperature !== undefined && body.temperature !== null && (typeof body.temperature !== 'number' || body.temperature < 0 || body.temperature > 2)) {
    throw badRequest('temperature must be a number between 0 and 2');
  }
  const namespace = s.accounts.namespaceFor(r.user, body.target_namespace);
  s.accounts.charge(namespace, 0); // chat is free here, but a namespace with no credits is refused

  const lastUser = [...messages].reverse().find((m) => isObject(m) && m.role === 'user');
  const text = 'Echo: ' + (isObject(lastUser) ? contentText(lastUser.content) : '');
  const digest = createHash('sha256').update(JSON.stringify({ model: model.id, messages })).digest('hex');
  const id = `chatcmpl-${digest.slice(0, 24)}`;
  const created = s.clock.seconds();

  // Tool calling: with a non-empty `tools` (and tool_choice not "none"), call the first tool, or the one tool_choice names.
  const tools = Array.isArray(body.tools) ? body.tools.filter(isObject) : [];
  let toolName: string | undefined;
  if (tools.length > 0 && body.tool_choice !== 'none') {
    const chosen = isObject(body.tool_choice) && isObject(body.tool_choice.function) ? body.tool_choice.function.name : undefined;
    const first = tools[0]!;
    toolName = typeof chosen === 'string' ? chosen : isObject(first.function) && typeof first.function.name === 'string' ? first.function.name : 'tool';
  }
  const toolCall = toolName === undefined ? undefined : { index: 0, id: `call_${digest.slice(24, 48)}`, type: 'function', function: { name: toolName, arguments: '{}' } };

  const promptTokens = messages.reduce((n: number, m) => n + (isObject(m) ? words(contentText(m.content)).length : 0), 0);
  const completionTokens = toolCall ? 1 : words(text).length;
  const usage = { prompt_tokens: promptTokens, completion_tokens: completionTokens, total_tokens: promptTokens + completionTokens };

  if (body.stream === true) {
    const res = r.res;
    res.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache', Connection: 'keep-alive' });
    r.markStatus(200);
    const chunk = (delta: Record<string, unknown>, finish: string | null): string =>
      `data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model: model.id, choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
    let out = '';
    if (toolCall) {
      out += chunk({ role: 'assistant', content: null, tool_calls: [toolCall] }, 'tool_calls');
    } else {
      // One word per chunk (with its trailing space, so the deltas concatenate to the full content);
      // finish_reason is null until the last chunk, which carries `stop`.
      const ws = words(text);
      ws.forEach((w, i) => {
        const last = i === ws.length - 1;
        out += chunk(i === 0 ? { role: 'assistant', content: last ? w : `${w} ` } : { content: last ? w : `${w} ` }, last ? 'stop' : null);
      });
    }
    if (isObject(body.stream_options) && body.stream_options.include_usage === true) {
      out += `data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model: model.id, choices: [], usage })}\n\n`;
    }
    out += 'data: [DONE]\n\n';
    res.end(out);
    return STREAMED;
  }

  const message = toolCall ? { role: 'assistant', content: null, tool_calls: [toolCall] } : { role: 'assistant', content: text };
  return json(200, {
    id,
    object: 'chat.completion',
    created,
    model: model.id,
    choices: [{ index: 0, message, finish_reason: toolCall ? 'tool_calls' : 'stop' }],
    usage,
  });
}

export const chatRoutes: Route[] = [{ method: 'POST', pattern: /^\/api\/ai\/chat\/completions$/, handler: chatCompletions }];
