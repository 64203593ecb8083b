// Fine-tunes: creation (validated per script_type, defaults filled), tokenization, and today's
// (fine-tuning-api/02_fine_tuning_image.mdx of Oxen-AI/docs) run, status and deploy.
import { randomUUID } from 'node:crypto';
import { badRequest, isObject, json, resourceNotFound, type HandlerResult } from './http.ts';
import type { Handler, RequestCtx, ServerCtx } from './context.ts';
import { deployModel } from './routes-models.ts';
import type { OperationId } from '../runtime/operations.ts';

export const SCRIPT_TYPES = [
  'text_generation',
  'text_chat_messages',
  'image_to_text',
  'image_generation',
  'image_editing',
  'multi_image_editing',
  'image_to_video',
  'text_to_video', // fine-tuning-api/reference/text_to_video.mdx: image_to_video's parameters without num_frames
] as const;
export type ScriptType = (typeof SCRIPT_TYPES)[number];

type ParamType = 'string' | 'integer' | 'number' | 'boolean' | 'string[]' | 'samples';
interface ParamSpec {
  type: ParamType;
  required?: boolean;
  default?: unknown;
  min?: number;
  enum?: string[];
}

// Default `samples`: the description says "a built-in list of two items" and omits the values; ours are placeholders.
function defaultSamples(st: ScriptType): Array<Record<string, unknown>> {
  const prompts = ['a photo of a red fox in the snow', 'a watercolor painting of a lighthouse'];
  return prompts.map((prompt, i) => {
    if (st === 'image_editing') return { ctrl_img_url: `https://example.com/samples/control-${i + 1}.png`, prompt };
    if (st === 'multi_image_editing')
      return {
        ctrl_img_urls: [
          `https://example.com/samples/control-${i + 1}a.png`,
          `https://example.com/samples/control-${i + 1}b.png`,
        ],
        prompt,
      };
    return { prompt };
  });
}

/** The description's training_params tables, by script type. */
export function paramSpecs(st: ScriptType): Record<string, ParamSpec> {
  if (st === 'text_generation' || st === 'text_chat_messages' || st === 'image_to_text') {
    const specs: Record<string, ParamSpec> = {};
    if (st === 'text_generation' || st === 'image_to_text') {
      specs.answer_column = { type: 'string', required: true };
      specs.question_column = { type: 'string', required: true };
    }
    if (st === 'text_chat_messages') specs.messages_column = { type: 'string', required: true };
    // Ours: image_columns is "(required)" with a default of []; we treat it as required (the default never applies).
    if (st === 'image_to_text') specs.image_columns = { type: 'string[]', required: true };
    Object.assign(specs, {
      batch_size: { type: 'integer', default: 1, min: 1 },
      enable_thinking: { type: 'boolean', default: false },
      epochs: { type: 'integer', default: 1, min: 1 },
      grad_accum: { type: 'integer', default: 1, min: 1 },
      learning_rate: { type: 'number', default: 0.0001, min: 0 },
      logging_steps: { type: 'integer', default: 10, min: 1 },
      lora_alpha: { type: 'integer', default: 16, min: 1 },
      lora_rank: { type: 'integer', default: 16, min: 1 },
      neftune_noise_alpha: { type: 'number', default: 0, min: 0 },
      save_steps_ratio: { type: 'number', default: 0.25 },
      save_strategy: { type: 'string', default: 'epoch' },
      seq_length: { type: 'integer', default: st === 'image_to_text' ? 4096 : 1024, min: 1 },
      use_lora: { type: 'boolean', default: true },
    } satisfies Record<string, ParamSpec>);
    return specs;
  }
  const specs: Record<string, ParamSpec> = {
    caption_column: { type: 'string', required: true },
    image_column: { type: 'string', required: true },
  };
  if (st === 'image_editing') specs.control_image_column = { type: 'string', required: true };
  // Ours: like image_columns, control_image_columns is "(required)" although a default [] is listed.
  if (st === 'multi_image_editing') specs.control_image_columns = { type: 'string[]', required: true };
  Object.assign(specs, {
    batch_size: { type: 'integer', default: 1, min: 1 },
    gradient_accumulation: { type: 'integer', default: 1, min: 1 },
    learning_rate: { type: 'number', default: 0.0002 },
    lora_alpha: { type: 'integer', default: 16, min: 1 },
    lora_rank: { type: 'integer', default: 16, min: 1 },
    sample_every: { type: 'integer', default: 200, min: 1 },
  } satisfies Record<string, ParamSpec>);
  if (st === 'image_editing' || st === 'multi_image_editing') {
    specs.sample_height = { type: 'integer', default: 1024, min: 1 };
    specs.sample_width = { type: 'integer', default: 1024, min: 1 };
  }
  if (st === 'image_editing') specs.cache_text_embeddings = { type: 'boolean', default: false };
  if (st === 'image_to_video') specs.num_frames = { type: 'integer', default: 81, min: 1 };
  specs.steps = { type: 'integer', default: st === 'image_generation' ? 2000 : 3000, min: 1 };
  specs.timestep_type = {
    type: 'string',
    enum: ['weighted', 'sigmoid', 'linear'],
    default: st === 'image_generation' ? 'sigmoid' : 'weighted',
  };
  // image_to_video, text_to_video: use_lora is accepted but has no default (the description: "present, default omitted").
  specs.use_lora = st.endsWith('_to_video') ? { type: 'boolean' } : { type: 'boolean', default: true };
  specs.samples = { type: 'samples', default: defaultSamples(st) };
  return specs;
}

function checkSample(st: ScriptType, v: unknown): boolean {
  if (!isObject(v) || typeof v.prompt !== 'string') return false;
  const keys = Object.keys(v);
  if (st === 'image_editing')
    return typeof v.ctrl_img_url === 'string' && keys.every((k) => k === 'prompt' || k === 'ctrl_img_url');
  if (st === 'multi_image_editing') {
    return (
      Array.isArray(v.ctrl_img_urls) &&
      v.ctrl_img_urls.every((u) => typeof u === 'string') &&
      keys.every((k) => k === 'prompt' || k === 'ctrl_img_urls')
    );
  }
  return keys.every((k) => k === 'prompt');
}

const TYPE_WORDS: Record<ParamType, string> = {
  string: 'a string',
  integer: 'an integer',
  number: 'a number',
  boolean: 'a boolean',
  'string[]': 'an array of strings',
  samples: 'an array of sample objects',
};

/** Validate training_params for a script type and fill defaults. Messages are ours (the description shows none). */
export function validateTrainingParams(st: ScriptType, params: Record<string, unknown>): Record<string, unknown> {
  const specs = paramSpecs(st);
  for (const key of Object.keys(params)) {
    if (!(key in specs))
      throw badRequest(
        `Unknown training parameter '${key}' for script_type ${st}; allowed: ${Object.keys(specs).join(', ')}`,
      );
  }
  const out: Record<string, unknown> = {};
  for (const [key, spec] of Object.entries(specs)) {
    const v = params[key];
    if (v === undefined) {
      if (spec.required) throw badRequest(`training_params.${key} is required for script_type ${st}`);
      if (spec.default !== undefined) out[key] = structuredClone(spec.default);
      continue;
    }
    const ok =
      spec.type === 'string'
        ? typeof v === 'string'
        : spec.type === 'integer'
          ? Number.isInteger(v)
          : spec.type === 'number'
            ? typeof v === 'number' && Number.isFinite(v)
            : spec.type === 'boolean'
              ? typeof v === 'boolean'
              : spec.type === 'string[]'
                ? Array.isArray(v) && v.every((x) => typeof x === 'string')
                : Array.isArray(v) && v.every((x) => checkSample(st, x));
    if (!ok) throw badRequest(`training_params.${key} must be ${TYPE_WORDS[spec.type]}`);
    if (spec.required && spec.type === 'string' && (v as string).trim() === '')
      throw badRequest(`training_params.${key} must not be empty`);
    if (spec.min !== undefined && (v as number) < spec.min)
      throw badRequest(`training_params.${key} must be >= ${spec.min} (got ${String(v)})`);
    if (spec.enum && !spec.enum.includes(v as string))
      throw badRequest(`training_params.${key} must be one of ${spec.enum.join(', ')}`);
    out[key] = v;
  }
  return out;
}

interface FineTune {
  id: string;
  status: string;
  resource: string;
  base_model: string;
  script_type: ScriptType;
  training_params: Record<string, unknown>;
  output_resource: string | null;
  error: string | null;
  /** While running: when the run ends, in milliseconds of the server's clock (the status is brought up to date when read). */
  endsAtMs?: number;
  /** Once deployed: the model slug. */
  model_slug?: string;
}

export class FineTuneStore {
  private readonly byRepo = new Map<string, Map<string, FineTune>>();
  add(ns: string, repo: string, ft: FineTune): void {
    const key = `${ns}/${repo}`;
    let m = this.byRepo.get(key);
    if (!m) this.byRepo.set(key, (m = new Map()));
    m.set(ft.id, ft);
  }
  get(ns: string, repo: string, id: string): FineTune | undefined {
    return this.byRepo.get(`${ns}/${repo}`)?.get(id);
  }
}

/** The fine-tune as the service shows it (no bookkeeping fields). */
function shown(ft: FineTune): Record<string, unknown> {
  const { endsAtMs: _e, model_slug: _m, ...rest } = ft;
  return structuredClone(rest);
}

/**
 * Ours: a run ends `fineTuneMs` after it started, `completed` with an `output_resource`, unless its
 * `resource` holds a marker: `[fail]` ends it `errored`, `[stop]` `stopped`, `[hold]` never ends.
 * (The docs name the terminal statuses only; `running` is ours.)
 */
function settle(s: ServerCtx, ft: FineTune): FineTune {
  if (ft.status !== 'running' || ft.endsAtMs === undefined || s.clock.now() < ft.endsAtMs) return ft;
  if (ft.resource.includes('[hold]')) return ft;
  delete ft.endsAtMs;
  if (ft.resource.includes('[fail]')) {
    ft.status = 'errored';
    ft.error = 'Training failed: the dataset has no usable rows';
  } else if (ft.resource.includes('[stop]')) ft.status = 'stopped';
  else {
    ft.status = 'completed';
    ft.output_resource = `main/models/${ft.id}`;
  }
  return ft;
}

/** The fine-tune of the path (`namespace`, `repo_name`, `id`) with its status current, else the 404 body. */
function find(s: ServerCtx, r: RequestCtx, [ns, repo, id]: string[]): { ft: FineTune; namespace: string } {
  const namespace = s.accounts.namespaceFor(r.user, ns, 'namespace');
  const ft = s.fineTunes.get(namespace, repo!, id!);
  if (!ft) throw resourceNotFound();
  return { ft: settle(s, ft), namespace };
}

async function create(s: ServerCtx, r: RequestCtx, [ns, repo]: string[]): Promise<HandlerResult> {
  const namespace = s.accounts.namespaceFor(r.user, ns, 'namespace');
  const body = await r.body();
  const { resource, base_model, script_type, training_params } = body;
  if (typeof resource !== 'string' || resource === '') throw badRequest('resource is required');
  if (!resource.includes('/') || resource.startsWith('/') || resource.endsWith('/')) {
    throw badRequest(`resource must be written as <revision>/<path to the dataset file>, got '${resource}'`);
  }
  if (typeof base_model !== 'string' || base_model === '') throw badRequest('base_model is required');
  if (typeof script_type !== 'string' || !(SCRIPT_TYPES as readonly string[]).includes(script_type)) {
    throw badRequest(`Unknown script_type '${String(script_type)}'; allowed: ${SCRIPT_TYPES.join(', ')}`);
  }
  if (!isObject(training_params)) throw badRequest('training_params is required and must be an object');
  const st = script_type as ScriptType;
  const filled = validateTrainingParams(st, training_params);
  // Ours: base model names are omitted by the description, so any non-empty base_model is accepted.
  const ft: FineTune = {
    id: `ft_${randomUUID().replace(/-/g, '').slice(0, 20)}`,
    status: 'created',
    resource,
    base_model,
    script_type: st,
    training_params: filled,
    output_resource: null,
    error: null,
  };
  s.fineTunes.add(namespace, repo!, ft);
  // The docs' body: {fine_tune: {...}} (0.224.2 does not show it).
  return json(200, { fine_tune: shown(ft) });
}

const tokenize: Handler = (s, r, params) => {
  const { ft } = find(s, r, params);
  // Ours: the state after `created` is not shown; we call it `tokenizing`. A second call is a 400.
  if (ft.status !== 'created') throw badRequest(`Fine-tune ${ft.id} is not in the created state`);
  ft.status = 'tokenizing';
  return json(200, { fine_tune: shown(ft) });
};

const retrieve: Handler = (s, r, params) => json(200, { fine_tune: shown(find(s, r, params).ft) });

const run: Handler = (s, r, params) => {
  const { ft } = find(s, r, params);
  // Ours: a created (or tokenized) fine-tune starts; any other is a 400 (the docs show no answer).
  if (ft.status !== 'created' && ft.status !== 'tokenizing')
    throw badRequest(`Fine-tune ${ft.id} cannot be started: its status is ${ft.status}`);
  ft.status = 'running';
  ft.endsAtMs = s.clock.now() + s.fineTuneMs;
  return json(200, { fine_tune: shown(ft) });
};

const deploy: Handler = (s, r, params) => {
  const { ft, namespace } = find(s, r, params);
  // Ours: only a completed fine-tune deploys (400 otherwise); deploying again answers the same slug.
  if (ft.status !== 'completed')
    throw badRequest(`Fine-tune ${ft.id} has not completed (its status is ${ft.status}): it cannot be deployed`);
  ft.model_slug ??= deployModel(s, namespace, ft);
  return json(200, { deployment: { model_slug: ft.model_slug, status: 'active' } });
};

export const fineTuneHandlers = {
  fineTunesCreate: create,
  fineTunesTokenize: tokenize,
  fineTunesRetrieve: retrieve,
  fineTunesRun: run,
  fineTunesDeploy: deploy,
} satisfies Partial<Record<OperationId, Handler>>;
