// Synchronous media endpoints and the output files they point to.
import { badRequest, json, messageError, resourceNotFound, type HandlerResult } from './http.ts';
import { FILE_BYTES, mediaTypeOf, type ModelRecord } from './state.ts';
import type { MediaKind } from './validate.ts';
import type { Handler, RequestCtx, Route, ServerCtx } from './context.ts';
import { checkActive } from './routes-models.ts';
import type { OperationId } from '../runtime/operations.ts';

/** Model lookup shared by the media endpoints and the queue: missing model -> 400, unknown -> 404. */
export function lookupModel(s: ServerCtx, name: unknown): ModelRecord {
  // Ours: the description gives "You must specify a model to call" for chat only; we use it everywhere.
  if (typeof name !== 'string' || name === '') throw messageError(400, 'You must specify a model to call');
  const model = s.models.get(name);
  if (!model) throw messageError(404, `Model not found: ${name}`);
  checkActive(model);
  return model;
}

function mediaEndpoint(kind: MediaKind) {
  const wanted: 'image' | 'video' = kind === 'videos.generate' ? 'video' : 'image';
  return async (s: ServerCtx, r: RequestCtx): Promise<HandlerResult> => {
    const body = await r.body();
    const model = lookupModel(s, body.model);
    if (mediaTypeOf(model) !== wanted) {
      // Ours (not shown): 400 naming the model and what it produces.
      throw badRequest(
        `Model ${model.id} does not produce ${wanted} output (output: ${model.output.join(', ') || 'unknown'}), so it cannot be used with /api/ai/${kind.replace('.', '/')}`,
      );
    }
    const namespace = s.accounts.namespaceFor(r.user, body.target_namespace);
    const format = body.response_format ?? 'url';
    // Ours: any response_format other than url / b64_json is a 400.
    if (format !== 'url' && format !== 'b64_json') throw badRequest(`response_format must be 'url' or 'b64_json'`);
    s.validator.check(model, kind, body);
    s.accounts.charge(namespace, s.costPerGeneration);
    const item =
      format === 'b64_json'
        ? { b64_json: FILE_BYTES[wanted].toString('base64') }
        : { url: s.files.create(namespace, wanted) };
    return json(200, {
      model: model.id,
      created: s.clock.seconds(),
      [wanted === 'image' ? 'images' : 'videos']: [item],
    });
  };
}

function file(s: ServerCtx, r: RequestCtx): HandlerResult {
  const media = s.files.get(r.path);
  if (!media) throw resourceNotFound();
  return {
    status: 200,
    body: FILE_BYTES[media],
    headers: { 'Content-Type': media === 'image' ? 'image/png' : 'video/mp4' },
  };
}

export const mediaHandlers = {
  imagesGenerate: mediaEndpoint('images.generate'),
  imagesEdit: mediaEndpoint('images.edit'),
  videosGenerate: mediaEndpoint('videos.generate'),
} satisfies Partial<Record<OperationId, Handler>>;

/** Routes of the local server that are not operations of the API: output files (no auth: they stand in for presigned URLs). */
export const fileRoutes: Route[] = [{ method: 'GET', pattern: /^\/files\/[^/]+\/[^/]+$/, auth: false, handler: file }];
