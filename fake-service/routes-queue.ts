// The async queue endpoints and the event stream.
import { randomUUID } from 'node:crypto';
import { badRequest, json, resourceNotFound, STREAMED, type HandlerResult } from './http.ts';
import { mediaTypeOf } from './state.ts';
import { lookupModel } from './routes-media.ts';
import type { Handler, RequestCtx, ServerCtx } from './context.ts';
import type { OperationId } from '../runtime/operations.ts';

async function enqueue(s: ServerCtx, r: RequestCtx): Promise<HandlerResult> {
  const body = await r.body();
  const model = lookupModel(s, body.model);
  const media = mediaTypeOf(model);
  if (!media) throw badRequest(`Model ${model.id} does not produce image or video output`);
  const n = body.num_generations ?? 1;
  if (typeof n !== 'number' || !Number.isInteger(n) || n < 1 || n > 4) {
    throw badRequest('num_generations must be an integer from 1 to 4'); // message ours
  }
  const namespace = s.accounts.namespaceFor(r.user, body.target_namespace);
  s.accounts.charge(namespace, s.costPerGeneration * n);
  // No model-parameter validation here (per the description): the worker fails invalid generations later.
  const params: Record<string, unknown> = { ...body };
  const ids = s.queue.enqueue(r.user.user, namespace, model, media, params, n);
  if (s.unrelatedEvents) {
    // Ours (payloads of other event types are not shown): an unrelated deployment event, so clients must filter.
    s.hub.emit(r.user.user, 'deployment_updated', {
      deployment_id: `dep_${randomUUID().slice(0, 8)}`,
      status: 'running',
      model: model.id,
    });
  }
  const status = s.queue.enqueuedStatus;
  return json(200, { generations: ids.map((generation_id) => ({ generation_id, status })) });
}

function list(s: ServerCtx, r: RequestCtx): HandlerResult {
  const namespace = s.accounts.namespaceFor(r.user, r.query.get('namespace'), 'namespace');
  const param = (name: string): string | undefined => r.query.get(name) || undefined;
  const generations = s.queue.list({
    namespace,
    model: param('model'),
    status: param('status'),
    media_type: param('media_type'),
    repo: param('repo'),
    folder: param('folder'),
  });
  return json(200, { count: generations.length, generations });
}

function get(s: ServerCtx, r: RequestCtx, [id]: string[]): HandlerResult {
  // Unknown, in a namespace this user cannot access, or (0.224.2) ended: the exact 404 body.
  const g = s.queue.find(id!, (ns) => s.accounts.canAccess(r.user, ns));
  if (!g) throw resourceNotFound();
  return json(200, s.queue.resource(g));
}

function cancel(s: ServerCtx, r: RequestCtx, [id]: string[]): HandlerResult {
  const g = s.queue.find(id!, (ns) => s.accounts.canAccess(r.user, ns));
  if (!g) throw resourceNotFound();
  // Today an ended generation is left as it is; the answer is still the success body (ours: the docs say only "no effect").
  s.queue.cancel(id!);
  return json(200, { status: 'success', generation_id: id });
}

function events(s: ServerCtx, r: RequestCtx): HandlerResult {
  s.hub.open(r.user.user, r.res);
  r.markStatus(200);
  return STREAMED;
}

export const queueHandlers = {
  queueEnqueue: enqueue,
  queueList: list,
  queueGet: get,
  queueCancel: cancel,
  eventsStream: events,
} satisfies Partial<Record<OperationId, Handler>>;
