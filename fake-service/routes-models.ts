// The models catalog (inference-api/reference/models/overview.mdx of Oxen-AI/docs): list, search,
// details, activate/deactivate of custom deployments, and the models deployed from fine-tunes.
// The snapshot holds only each model's id, names, endpoint, capabilities and schema; the other
// catalog fields (developer, pricing, fine_tuning, created, ...) are ours, derived from the id.
import { badRequest, json, messageError } from './http.ts';
import type { ModelRecord } from './state.ts';
import type { Handler, RequestCtx, ServerCtx } from './context.ts';
import type { OperationId } from '../runtime/operations.ts';

/** Ours: the developer of a snapshot model, from its id (the docs' filter takes e.g. `openai`, `anthropic`, `google`). */
const DEVELOPERS: Array<[RegExp, string]> = [
  [/^(gpt|o\d|openai)/, 'OpenAI'],
  [/^claude/, 'Anthropic'],
  [/^(gemini|gemma|google|nano-banana)/, 'Google'],
  [/^(flux|black-forest-labs)/, 'Black Forest Labs'],
  [/^bytedance/, 'ByteDance'],
  [/^qwen/, 'Qwen'],
  [/^kling/, 'Kling'],
  [/^(mistral|ministral|open-mistral)/, 'Mistral'],
  [/^wan/, 'Wan-AI'],
];

/** Ours: the snapshot models a fine-tune can start from, and with which actions (`script_type`s). */
const FINE_TUNE_ACTIONS: Record<string, string[]> = {
  'flux-1-dev': ['image_generation'],
  'flux-2-dev': ['image_generation'],
  'qwen-image': ['image_generation'],
  'flux-kontext-dev': ['image_editing'],
  'qwen-image-edit': ['image_editing'],
  'qwen-image-edit-plus': ['multi_image_editing'],
  'qwen3-vl-4b-instruct': ['image_to_text'],
  'wan-ai-wan2-1-t2v-1-3b-diffusers': ['image_to_video', 'text_to_video'],
  'wan-ai-wan2-1-t2v-14b-diffusers': ['image_to_video', 'text_to_video'],
  'wan-ai-wan2-2-t2v-a14b-diffusers': ['image_to_video', 'text_to_video'],
};

/** Lower case, letters and digits only: how names are compared (`Black Forest Labs` is `black-forest-labs`). */
const plain = (text: string): string => text.toLowerCase().replace(/[^a-z0-9]/g, '');

function developerOf(id: string): string {
  const hit = DEVELOPERS.find(([re]) => re.test(id));
  if (hit) return hit[1];
  const first = id.split('-')[0] ?? id;
  return first.charAt(0).toUpperCase() + first.slice(1);
}

/** Ours: the pricing of a snapshot model, by what it outputs. */
function pricingOf(m: ModelRecord): Record<string, unknown> {
  if (m.output.includes('video')) return { method: 'per_video_output_second', cost_per_second: 0.1 };
  if (m.output.includes('image')) return { method: 'per_image', cost_per_image: 0.03 };
  if (m.endpoint === '/chat/completions')
    return { method: 'token', input_cost_per_token: 1e-6, output_cost_per_token: 4e-6 };
  return { method: 'time', cost_per_second: 0.001 };
}

/** The model object of `m` as the catalog shows it (the schema left out: `request_schema: null`). */
function catalogObject(m: ModelRecord): Record<string, unknown> {
  if (m.custom) return { ...customObject(m), request_schema: null };
  const { request_schema: _r, json_request_schema: _j, ...data } = m.data;
  const actions = FINE_TUNE_ACTIONS[m.id];
  return {
    created: 1_750_000_000,
    owned_by: 'oxen',
    summary: null,
    model_type: 'base',
    pricing: pricingOf(m),
    fine_tuning: actions ? { actions, cost_per_second: 0.002 } : null,
    deployments: [],
    developer: { name: developerOf(m.id), logo: null },
    source_model: null,
    image_url: null,
    released_at: null,
    ...data,
    request_schema: null,
  };
}

/** A deployed fine-tune's model object, its deployment's status current, its base's schema included. */
function customObject(m: ModelRecord): Record<string, unknown> {
  return { ...m.data, deployments: [{ status: m.custom!.status }], request_schema: m.schema };
}

/** The models `r.user` may see: the snapshot's, and the custom ones of their namespaces. */
function visible(s: ServerCtx, r: RequestCtx): ModelRecord[] {
  return [...s.models.values()].filter((m) => !m.custom || s.accounts.canAccess(r.user, m.custom.owner));
}

/** A model `r.user` may see, else 404 `Model not found: <id>` (the docs' message). */
function visibleModel(s: ServerCtx, r: RequestCtx, id: string): ModelRecord {
  const m = s.models.get(id);
  if (!m || (m.custom && !s.accounts.canAccess(r.user, m.custom.owner)))
    throw messageError(404, `Model not found: ${id}`);
  return m;
}

const list: Handler = (s, r) => {
  const developer = r.query.get('developer_name');
  const action = r.query.get('action');
  const data = visible(s, r)
    .filter((m) => !developer || plain(developerOf(m.id)) === plain(developer))
    .filter((m) => !action || (FINE_TUNE_ACTIONS[m.id] ?? []).includes(action))
    .map(catalogObject);
  return json(200, { object: 'list', data });
};

const search: Handler = (s, r) => {
  const text = r.query.get('search');
  // Ours: the docs mark `search` required without saying what its absence answers.
  if (!text) throw badRequest('search is required');
  const want = text.toLowerCase();
  const data = visible(s, r)
    .filter(
      (m) =>
        m.id.toLowerCase().includes(want) ||
        String(m.data['display_name'] ?? '')
          .toLowerCase()
          .includes(want),
    )
    .map(catalogObject);
  return json(200, { object: 'list', data });
};

const retrieve: Handler = (s, r, [id]) => {
  const m = visibleModel(s, r, id!);
  // `deployment_status=live` (ours): the statuses here are always current.
  if (m.custom) return json(200, customObject(m));
  // The stored file, byte for byte (whichever schema field it uses).
  return { status: 200, body: m.bytes, headers: { 'Content-Type': 'application/json' } };
};

/** activate / deactivate: a custom model's deployment to `status`; a base model is always active (ours: 400). */
const setStatus =
  (status: 'active' | 'inactive'): Handler =>
  (s, r, [id]) => {
    const m = visibleModel(s, r, id!);
    if (!m.custom) throw badRequest(`Model ${m.id} is a base model: base models are always active`);
    m.custom.status = status;
    return json(200, customObject(m));
  };

/** Ours: the snapshot model a fine-tune's canonical `base_model` names (`Qwen/Qwen-Image-Edit` is `qwen-image-edit`). */
export function baseModelOf(s: ServerCtx, baseModel: string): ModelRecord | undefined {
  const norm = (text: string): string => text.toLowerCase().replace(/[/._]/g, '-');
  const name = baseModel.includes('/') ? baseModel.slice(baseModel.indexOf('/') + 1) : baseModel;
  for (const id of [baseModel, norm(baseModel), norm(name)]) {
    const m = s.models.get(id);
    if (m && !m.custom) return m;
  }
  return undefined;
}

/** What a script type's deployed model outputs and where it is served, when its base is not in the snapshot (ours). */
function servedAs(scriptType: string): { endpoint: string; output: string[] } {
  if (scriptType.endsWith('_to_video')) return { endpoint: '/videos/generate', output: ['video'] };
  if (scriptType === 'image_editing' || scriptType === 'multi_image_editing')
    return { endpoint: '/images/edit', output: ['image'] };
  if (scriptType === 'image_generation') return { endpoint: '/images/generate', output: ['image'] };
  return { endpoint: '/chat/completions', output: ['text'] };
}

/**
 * Deploy a completed fine-tune as the custom model `oxen:<namespace>-<id>` (ours: the docs show
 * only the `oxen:` prefix), served on its base model's endpoint with the base's request schema,
 * active at once; deploying again answers the same slug. Returns the slug.
 */
export function deployModel(
  s: ServerCtx,
  owner: string,
  ft: { id: string; base_model: string; script_type: string },
): string {
  const slug = `oxen:${owner}-${ft.id}`.toLowerCase();
  if (s.models.has(slug)) return slug;
  const base = baseModelOf(s, ft.base_model);
  const served = servedAs(ft.script_type);
  const input = base?.input ?? (served.output[0] === 'text' ? ['text'] : ['text', 'image']);
  const output = base?.output ?? served.output;
  const endpoint = base?.endpoint ?? served.endpoint;
  const data: Record<string, unknown> = {
    id: slug,
    object: 'model',
    created: s.clock.seconds(),
    owned_by: owner,
    display_name: `${ft.id} (fine-tuned from ${ft.base_model})`,
    description: null,
    summary: null,
    model_type: 'custom',
    endpoint,
    capabilities: { input, output },
    pricing: { method: 'time', cost_per_second: 0.002 },
    fine_tuning: null,
    developer: null,
    source_model: base?.id ?? ft.base_model,
    image_url: null,
    released_at: null,
  };
  s.models.set(slug, {
    id: slug,
    bytes: Buffer.alloc(0), // unused: a custom model's object is built when asked (its status changes)
    data,
    schema: base?.schema ?? null,
    input,
    output,
    endpoint,
    custom: { owner, status: 'active' },
  });
  return slug;
}

/** A custom model that is not active cannot be called (ours: 400; the docs say only that billing stops). */
export function checkActive(m: ModelRecord): void {
  if (m.custom && m.custom.status !== 'active')
    throw badRequest(`Model ${m.id} is not active (its deployment is ${m.custom.status}): activate it first`);
}

export const modelHandlers = {
  modelsList: list,
  modelsSearch: search,
  modelsRetrieve: retrieve,
  modelsActivate: setStatus('active'),
  modelsDeactivate: setStatus('inactive'),
} satisfies Partial<Record<OperationId, Handler>>;
