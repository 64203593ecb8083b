/**
 * Stage 3, classify: decide which endpoints of the SDK serve each model.
 *
 * Rules (in order):
 * 1. A model whose `endpoint` (as the models API writes it, e.g. `/audio/speech`) is not a path of
 *    `specs/openapi.yaml` under `/api/ai` is *uncovered*: it gets its parameter type but no
 *    endpoint function, and the run reports it once.
 * 2. Output modalities come from `capabilities.output` when present; otherwise from the schema
 *    (a `messages` property means chat) and the `endpoint` path (`/videos/...` video, `/images/...` image, `/chat/...` text).
 * 3. Text output: `chat`. Video output: `videos.generate`. Image output: `images.edit` when the
 *    model takes an input image (`capabilities.input` has `image`, or the schema has `input_image`);
 *    `images.generate` unless `input_image` is required (edit-only models) or the model takes no text.
 * 4. Image and video models are queueable (`queue`).
 */
import type { LoadedModel, OpenApiDoc } from './load.ts';

/** An endpoint group of the SDK. */
export type Endpoint = 'chat' | 'images.generate' | 'images.edit' | 'videos.generate' | 'queue';

/** Endpoint groups in a fixed order (for deterministic output). */
export const ENDPOINTS: readonly Endpoint[] = ['images.generate', 'images.edit', 'videos.generate', 'queue', 'chat'];

/** A model with its endpoints. */
export interface ClassifiedModel extends LoadedModel {
  /** SDK endpoints that serve the model, in `ENDPOINTS` order; empty for uncovered models. */
  endpoints: Endpoint[];
  /** The model's endpoint path when the API description does not cover it, else undefined. */
  uncovered: string | undefined;
  /** What the model produces: decides the result type and which described parameters a null schema means. */
  output: 'text' | 'image' | 'video' | 'other';
}

/** A note for the run's output (said once per model). */
export interface ClassifyNote {
  model: string;
  message: string;
}

function properties(m: LoadedModel): Record<string, unknown> {
  return (m.schema?.['properties'] ?? {}) as Record<string, unknown>;
}

function required(m: LoadedModel): readonly string[] {
  return (m.schema?.['required'] ?? []) as string[];
}

function outputOf(m: LoadedModel): ClassifiedModel['output'] {
  const out = m.capabilities?.output;
  if (out && out.length > 0) {
    if (out.includes('video')) return 'video';
    if (out.includes('image')) return 'image';
    if (out.includes('text')) return 'text';
    return 'other';
  }
  if ('messages' in properties(m)) return 'text';
  const ep = m.endpoint ?? '';
  if (ep.startsWith('/videos/')) return 'video';
  if (ep.startsWith('/images/')) return 'image';
  if (ep.startsWith('/chat/')) return 'text';
  return 'other';
}

/** Paths of the API description, for deciding whether a model's endpoint is covered. */
export function coveredPaths(openapi: OpenApiDoc): Set<string> {
  return new Set(Object.keys(openapi.paths));
}

/** Classify every model. Pure: returns new objects, never mutates its inputs. */
export function classify(
  models: readonly LoadedModel[],
  openapi: OpenApiDoc,
): { models: ClassifiedModel[]; notes: ClassifyNote[] } {
  const paths = coveredPaths(openapi);
  const notes: ClassifyNote[] = [];
  const result = models.map((m): ClassifiedModel => {
    const output = outputOf(m);
    if (m.endpoint !== undefined && !paths.has(`/api/ai${m.endpoint}`)) {
      notes.push({
        model: m.id,
        message: `endpoint ${m.endpoint} is not covered by the API description: parameter type generated, no endpoint function`,
      });
      return { ...m, endpoints: [], uncovered: m.endpoint, output };
    }
    const endpoints = new Set<Endpoint>();
    const props = properties(m);
    const input = m.capabilities?.input;
    if (output === 'text') endpoints.add('chat');
    if (output === 'video') endpoints.add('videos.generate');
    if (output === 'image') {
      const takesImage = (input?.includes('image') ?? false) || 'input_image' in props;
      const takesText = input ? input.includes('text') : true;
      const editOnly = required(m).includes('input_image');
      if (takesImage) endpoints.add('images.edit');
      if ((takesText && !editOnly) || !takesImage) endpoints.add('images.generate');
    }
    if (output === 'image' || output === 'video') endpoints.add('queue');
    if (endpoints.size === 0)
      notes.push({
        model: m.id,
        message: `produces ${m.capabilities?.output?.join(', ') || 'nothing known'}: no SDK endpoint serves it; parameter type generated, no endpoint function`,
      });
    return {
      ...m,
      endpoints: ENDPOINTS.filter((e) => endpoints.has(e)),
      uncovered: endpoints.size === 0 ? (m.endpoint ?? '(none)') : undefined,
      output,
    };
  });
  return { models: result, notes };
}
