// Model-parameter validation shared by the synchronous endpoints (immediate 4xx) and the queue worker
// (the generation fails later with the same message as its `error`).
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import { HttpError, isObject } from './http.ts';
import type { ModelRecord } from './state.ts';

export type MediaKind = 'images.generate' | 'images.edit' | 'videos.generate';

/** Prefix of every model-parameter error (the description's 422 text). */
export const MODEL_ERROR_PREFIX = 'Getting model response error: 422 - ';

/** SDK-level fields removed before validating against the model's schema (unless the schema declares them). */
const SDK_FIELDS = ['model', 'response_format', 'target_namespace'];

/** An URL the local server treats as not downloadable: hostname ending in `.invalid`, or `forbidden` in the path. */
export function isUnfetchable(url: string): boolean {
  try {
    const u = new URL(url);
    return u.hostname.endsWith('.invalid') || u.pathname.includes('forbidden');
  } catch {
    return false;
  }
}

export class ParamValidator {
  private readonly ajv = new Ajv({ strict: false, allErrors: true });
  private readonly cache = new Map<string, ValidateFunction>();

  constructor() {
    // The snapshot uses `format: uri`; without ajv-formats we register a light check (scheme present).
    this.ajv.addFormat('uri', /^[a-z][a-z0-9+.-]*:\S+$/i);
  }

  /**
   * Validate a request's model parameters. Throws HttpError (400 / 422) with the description's messages.
   * `extraSdkFields` are stripped as well (the queue strips `num_generations`).
   */
  check(model: ModelRecord, kind: MediaKind, body: Record<string, unknown>, extraSdkFields: string[] = []): void {
    const schema = model.schema;
    const props = schema && isObject(schema.properties) ? schema.properties : null;
    const required = schema && Array.isArray(schema.required) ? (schema.required as unknown[]) : [];

    if (kind === 'images.generate') {
      const p = body.prompt;
      const missingButRequired = p === undefined && (schema === null || required.includes('prompt'));
      if (missingButRequired || (p !== undefined && (typeof p !== 'string' || p.trim() === ''))) {
        throw new HttpError(400, 'Prompt cannot be empty');
      }
    }

    // prompt / multi_prompt: exactly one, for video models that take a prompt (schema has `prompt`, or no schema:
    // then the endpoint's described parameters apply). Models like topazlabs-video-upscale take no prompt.
    let usesMultiPrompt = false;
    if (kind === 'videos.generate' && (schema === null || (props !== null && 'prompt' in props))) {
      const hasPrompt = body.prompt !== undefined && body.prompt !== null;
      const hasMulti = body.multi_prompt !== undefined && body.multi_prompt !== null;
      if (hasPrompt && hasMulti) {
        throw new HttpError(422, `${MODEL_ERROR_PREFIX}Value error, Cannot provide both 'prompt' and 'multi_prompt'.`);
      }
      if (!hasPrompt && !hasMulti) {
        throw new HttpError(
          422,
          `${MODEL_ERROR_PREFIX}Value error, Either 'prompt' or 'multi_prompt' must be provided.`,
        );
      }
      usesMultiPrompt = hasMulti && !(props !== null && 'multi_prompt' in props);
      if (usesMultiPrompt) checkMultiPrompt(body.multi_prompt);
    }

    if (kind === 'images.edit') {
      const img = body.input_image;
      const urls =
        typeof img === 'string'
          ? [img]
          : Array.isArray(img)
            ? img.filter((x): x is string => typeof x === 'string')
            : [];
      for (const url of urls) {
        // The docs accept a data URI (`data:image/...;base64,...`) instead of a URL; ours: another data URI is a 400.
        if (url.startsWith('data:') && !/^data:image\/[\w.+-]+;base64,[A-Za-z0-9+/]+=*$/.test(url))
          throw new HttpError(400, 'input_image: a data URI must be data:image/<type>;base64,<data>');
        // Never fetched: the server has no network. The message follows the description ("403 Forbidden client error").
        if (isUnfetchable(url)) throw new HttpError(400, `Client error '403 Forbidden' for url '${url}'`);
      }
    }

    if (schema === null) return; // an image/video model without a schema takes the endpoint's parameters: not validated
    const params: Record<string, unknown> = { ...body };
    for (const f of [...SDK_FIELDS, ...extraSdkFields]) {
      if (!(props !== null && f in props)) delete params[f];
    }
    // `multi_prompt` is an endpoint-level parameter (ours): when used, the schema's `prompt` is not required.
    if (usesMultiPrompt) delete params.multi_prompt;
    const validate = this.compile(model, usesMultiPrompt);
    if (!validate(params)) {
      throw new HttpError(422, MODEL_ERROR_PREFIX + summarizeErrors(validate.errors ?? []));
    }
  }

  /** The model's schema, closed (unknown properties rejected, like the service validating model parameters). */
  private compile(model: ModelRecord, withoutPrompt: boolean): ValidateFunction {
    const key = `${model.id}\u0000${withoutPrompt}`;
    let fn = this.cache.get(key);
    if (!fn) {
      const schema: Record<string, unknown> = structuredClone(model.schema ?? {});
      if (!('additionalProperties' in schema)) schema.additionalProperties = false;
      if (withoutPrompt && Array.isArray(schema.required))
        schema.required = schema.required.filter((r) => r !== 'prompt');
      delete schema.$id;
      fn = this.ajv.compile(schema);
      this.cache.set(key, fn);
    }
    return fn;
  }
}

function checkMultiPrompt(v: unknown): void {
  const ok =
    Array.isArray(v) &&
    v.length > 0 &&
    v.every(
      (s) =>
        isObject(s) &&
        typeof s.prompt === 'string' &&
        Number.isInteger(s.duration) &&
        Object.keys(s).every((k) => k === 'prompt' || k === 'duration'),
    );
  if (!ok) {
    throw new HttpError(
      422,
      `${MODEL_ERROR_PREFIX}/multi_prompt must be a non-empty array of {prompt: string, duration: integer}`,
    );
  }
}

/** A readable list of ajv errors, each with its JSON pointer (`/` is the whole body), joined by `; `. */
export function summarizeErrors(errors: ErrorObject[]): string {
  return errors
    .map((e) => {
      const at = e.instancePath === '' ? '/' : e.instancePath;
      const base = e.instancePath;
      switch (e.keyword) {
        case 'additionalProperties':
          return `${base}/${String(e.params.additionalProperty)}: unknown property (must NOT have additional properties)`;
        case 'required':
          return `${base}/${String(e.params.missingProperty)}: is required`;
        case 'enum':
          return `${at}: must be one of ${(e.params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`;
        default:
          return `${at}: ${e.message ?? e.keyword}`;
      }
    })
    .join('; ');
}

/** The roles of a chat message: the description's `system`, `user`, `assistant`, and the format's `tool` (tool results). */
export const CHAT_ROLES = ['system', 'user', 'assistant', 'tool'] as const;

/**
 * Check the messages of a chat request (ours: the description shows no message for a malformed
 * one): each an object with a known role; `content` a string or an array of parts (an assistant's
 * may be null or absent, as when it only carries `tool_calls`); a `tool` message answers a `tool_call_id`.
 * Throws HttpError 400 naming the message's index.
 */
export function checkChatMessages(messages: unknown[]): void {
  messages.forEach((m, i) => {
    if (!isObject(m)) throw new HttpError(400, `messages[${i}] must be an object`);
    const role = m.role;
    if (typeof role !== 'string' || !(CHAT_ROLES as readonly string[]).includes(role)) {
      throw new HttpError(
        400,
        `messages[${i}].role: unknown role ${JSON.stringify(role)} (expected one of ${CHAT_ROLES.join(', ')})`,
      );
    }
    const c = m.content;
    const contentOk =
      typeof c === 'string' || Array.isArray(c) || (role === 'assistant' && (c === null || c === undefined));
    if (!contentOk) throw new HttpError(400, `messages[${i}].content must be a string or an array of content parts`);
    if (role === 'tool' && (typeof m.tool_call_id !== 'string' || m.tool_call_id === '')) {
      throw new HttpError(400, `messages[${i}].tool_call_id is required on a tool message`);
    }
  });
}
