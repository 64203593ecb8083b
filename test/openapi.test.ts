// Checks specs/openapi.yaml: Redocly lint (recommended ruleset, see redocly.yaml) reports no
// errors, the document carries the contract of the API description (v0.224.2) and what the
// service's docs say today (each difference with its x-source) that the generator and runtime
// rely on, and openapi-typescript turns it into strict-clean types.
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import openapiTS, { astToString } from 'openapi-typescript';
import ts from 'typescript';
import { load as parse } from 'js-yaml';
import { beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT, run, tempDir } from './support/index.ts';

const specPath = join(REPO_ROOT, 'specs', 'openapi.yaml');
const redoclyBin = join(REPO_ROOT, 'node_modules', '.bin', process.platform === 'win32' ? 'redocly.cmd' : 'redocly');

type Json = Record<string, any>;

let doc: Json;
beforeAll(async () => {
  doc = parse(await readFile(specPath, 'utf8')) as Json;
});

const schema = (name: string): Json => {
  const s = doc.components?.schemas?.[name];
  expect(s, `components.schemas.${name} exists`).toBeDefined();
  return s as Json;
};
const ref = (name: string) => `#/components/schemas/${name}`;

interface LintProblem {
  ruleId: string;
  severity: 'error' | 'warn';
  message: string;
  location?: Array<{ pointer?: string }>;
}
interface LintReport {
  totals: { errors: number; warnings: number; ignored: number };
  problems: LintProblem[];
}

describe('specs/openapi.yaml lint', () => {
  it('passes `redocly lint` (recommended + redocly.yaml) with zero errors', { timeout: 60_000 }, async () => {
    // redocly exits 1 when there are errors; the JSON report is still on stdout.
    const r = await run(redoclyBin, ['lint', 'specs/openapi.yaml', '--format=json'], {
      env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
      timeoutMs: 60_000,
    });
    if (!r.stdout) throw new Error(`redocly lint failed without a report (exit ${r.code}):\n${r.stderr}`);
    const stdout = r.stdout;
    const report = JSON.parse(stdout.slice(stdout.indexOf('{'))) as LintReport;
    const list = (severity: LintProblem['severity']) =>
      report.problems
        .filter((p) => p.severity === severity)
        .map((p) => `  ${p.ruleId} at ${p.location?.[0]?.pointer ?? '?'}: ${p.message}`)
        .join('\n');
    expect(report.totals.errors, `redocly lint errors:\n${list('error')}`).toBe(0);
    // Warnings do not fail the test (the contract is zero errors) but are shown.
    if (report.totals.warnings > 0) console.warn(`redocly lint warnings:\n${list('warn')}`);
  });
});

describe('specs/openapi.yaml contract', () => {
  it('is OpenAPI 3.1 for description version 0.224.2 on https://hub.oxen.ai', () => {
    expect(String(doc.openapi)).toMatch(/^3\.1\.\d+$/);
    expect(String(doc.info.version)).toBe('0.224.2');
    expect(doc.servers[0].url).toBe('https://hub.oxen.ai');
  });

  it('applies bearer security globally and no operation opts out', () => {
    expect(doc.components.securitySchemes.bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(doc.security).toEqual([{ bearerAuth: [] }]);
    for (const [path, item] of Object.entries<Json>(doc.paths)) {
      for (const [method, op] of Object.entries<Json>(item)) {
        if (method === 'parameters') continue;
        if (op.security !== undefined) expect(op.security, `${method} ${path}`).toEqual([{ bearerAuth: [] }]);
      }
    }
  });

  it('has exactly these operations with their operationIds (0.224.2 and the docs’ today)', () => {
    const ops: Record<string, string> = {};
    for (const [path, item] of Object.entries<Json>(doc.paths)) {
      for (const [method, op] of Object.entries<Json>(item)) {
        if (method === 'parameters') continue;
        ops[op.operationId] = `${method.toUpperCase()} ${path}`;
      }
    }
    expect(ops).toEqual({
      chatCompletionsCreate: 'POST /api/ai/chat/completions',
      imagesGenerate: 'POST /api/ai/images/generate',
      imagesEdit: 'POST /api/ai/images/edit',
      videosGenerate: 'POST /api/ai/videos/generate',
      queueEnqueue: 'POST /api/ai/queue',
      queueList: 'GET /api/ai/queue',
      queueGet: 'GET /api/ai/queue/{generation_id}',
      queueCancel: 'DELETE /api/ai/queue/{generation_id}',
      eventsStream: 'GET /api/events',
      modelsList: 'GET /api/ai/models',
      modelsSearch: 'GET /api/ai/models/search',
      modelsRetrieve: 'GET /api/ai/models/{id}',
      modelsActivate: 'POST /api/ai/models/{id}/activate',
      modelsDeactivate: 'POST /api/ai/models/{id}/deactivate',
      fineTunesCreate: 'POST /api/repos/{namespace}/{repo_name}/fine_tunes',
      fineTunesRetrieve: 'GET /api/repos/{namespace}/{repo_name}/fine_tunes/{id}',
      fineTunesTokenize: 'POST /api/repos/{namespace}/{repo_name}/fine_tunes/{id}/tokenize',
      fineTunesRun: 'POST /api/repos/{namespace}/{repo_name}/fine_tunes/{id}/actions/run',
      fineTunesDeploy: 'POST /api/repos/{namespace}/{repo_name}/fine_tunes/{id}/deploy',
    });
  });

  it('notes every difference from 0.224.2 with the docs file it comes from (x-source)', () => {
    // The files of Oxen-AI/docs that the description draws on.
    const docs = new Set([
      'inference-api/overview.mdx',
      'inference-api/reference/async_queue.mdx',
      'inference-api/reference/models/overview.mdx',
      'fine-tuning-api/02_fine_tuning_image.mdx',
      'fine-tuning-api/reference/text_to_video.mdx',
    ]);
    const sources: string[] = [];
    const walk = (v: unknown): void => {
      if (Array.isArray(v)) v.forEach(walk);
      else if (v && typeof v === 'object')
        for (const [k, child] of Object.entries(v)) {
          if (k === 'x-source') sources.push(String(child));
          walk(child);
        }
    };
    walk(doc);
    expect(sources.length).toBeGreaterThan(30);
    expect([...new Set(sources)].filter((f) => !docs.has(f))).toEqual([]);
    expect(doc.info['x-source-repository']).toBe('https://github.com/Oxen-AI/docs');
    // every operation 0.224.2 does not have names its source
    const added = [
      'modelsList',
      'modelsSearch',
      'modelsActivate',
      'modelsDeactivate',
      'fineTunesRetrieve',
      'fineTunesRun',
      'fineTunesDeploy',
    ];
    for (const item of Object.values<Json>(doc.paths))
      for (const op of Object.values<Json>(item))
        if (added.includes(op.operationId)) expect(op['x-source'], op.operationId).toMatch(/\.mdx$/);
  });

  it('keeps what 0.224.2 says beside what the docs say today', () => {
    // the enqueue answer: `processing` (0.224.2) or `queued` (today)
    expect(schema('EnqueuedGeneration').properties.status.enum).toEqual(['processing', 'queued']);
    // a generation: `model` (0.224.2) and `model_name` (today), both optional; the statuses today
    const g = schema('Generation').properties;
    expect(g.model.type).toBe('string');
    expect(g.model_name.type).toBe('string');
    expect(schema('Generation').required).not.toContain('model');
    expect(schema('GenerationStatus').enum).toEqual(['queued', 'processing', 'succeeded', 'failed', 'cancelled']);
    for (const f of ['result_url', 'error_message', 'started_at', 'completed_at'])
      expect(g[f].type, f).toContain('null');
    // a 404 still means gone (0.224.2); the list's filters of today
    expect(doc.paths['/api/ai/queue/{generation_id}'].get.responses['404']).toBeDefined();
    const listed = doc.paths['/api/ai/queue'].get.parameters.map((p: Json) => String(p.$ref).split('/').pop());
    expect(listed).toEqual([
      'QueueNamespace',
      'QueueModel',
      'QueueStatus',
      'QueueMediaType',
      'QueueRepo',
      'QueueFolder',
    ]);
  });

  it('describes the models catalog and the fine-tune lifecycle as the docs show them', () => {
    expect(schema('ModelList')).toMatchObject({ required: ['object', 'data'] });
    expect(schema('ModelList').properties.data.items.$ref).toBe(ref('Model'));
    for (const f of [
      'created',
      'owned_by',
      'model_type',
      'pricing',
      'fine_tuning',
      'deployments',
      'developer',
      'source_model',
      'released_at',
    ])
      expect(schema('Model').properties[f], f).toBeDefined();
    expect(schema('Model').additionalProperties).toBe(true);
    expect(schema('FineTuneDeployResponse').properties.deployment.$ref).toBe(ref('FineTuneDeployment'));
    expect(schema('FineTuneDeployment').required).toEqual(['model_slug']);
    expect(schema('FineTuneWrapped').properties.fine_tune.$ref).toBe(ref('FineTune'));
    const search = doc.paths['/api/ai/models/search'].get.parameters[0];
    expect(search).toMatchObject({ name: 'search', in: 'query', required: true });
  });

  it('gives queueGet and queueCancel the exact 404 body', () => {
    const item = doc.paths['/api/ai/queue/{generation_id}'];
    for (const method of ['get', 'delete']) {
      let res: Json = item[method].responses['404'];
      if (res.$ref) res = doc.components.responses[String(res.$ref).split('/').pop()!];
      expect(res.content['application/json'].schema.$ref, method).toBe(ref('ResourceNotFoundError'));
    }
    const nf = schema('ResourceNotFoundError');
    expect(nf.required).toEqual(expect.arrayContaining(['error', 'status', 'status_message']));
    const constOf = (s: Json) => s.const ?? (s.enum?.length === 1 ? s.enum[0] : undefined);
    expect(constOf(nf.properties.status)).toBe('error');
    expect(constOf(nf.properties.status_message)).toBe('resource_not_found');
    expect(nf.properties.error.required).toEqual(expect.arrayContaining(['type', 'title']));
    expect(constOf(nf.properties.error.properties.type)).toBe('resource_not_found');
    expect(nf.properties.error.properties.title.type).toBe('string');
  });

  it('serves text/event-stream on eventsStream and on chatCompletionsCreate 200 (besides JSON)', () => {
    const events = doc.paths['/api/events'].get.responses['200'].content;
    expect(Object.keys(events)).toContain('text/event-stream');
    const chat = doc.paths['/api/ai/chat/completions'].post.responses['200'].content;
    expect(Object.keys(chat).sort()).toEqual(['application/json', 'text/event-stream']);
    expect(chat['application/json'].schema.$ref).toBe(ref('ChatCompletion'));
    // the stream's data payloads are the chunk and completion-event schemas
    expect(JSON.stringify(schema('ChatCompletionStreamEvent'))).toContain(ref('ChatCompletionChunk'));
    expect(JSON.stringify(schema('MediaGenerationCompletedServerSentEvent'))).toContain(
      ref('MediaGenerationCompletedEvent'),
    );
  });

  it('models FineTuneCreateRequest as a oneOf of 8 discriminated by script_type', () => {
    const req = schema('FineTuneCreateRequest');
    const variants = {
      text_generation: ['FineTuneCreateTextGeneration', 'TextGenerationTrainingParams'],
      text_chat_messages: ['FineTuneCreateTextChatMessages', 'TextChatMessagesTrainingParams'],
      image_to_text: ['FineTuneCreateImageToText', 'ImageToTextTrainingParams'],
      image_generation: ['FineTuneCreateImageGeneration', 'ImageGenerationTrainingParams'],
      image_editing: ['FineTuneCreateImageEditing', 'ImageEditingTrainingParams'],
      multi_image_editing: ['FineTuneCreateMultiImageEditing', 'MultiImageEditingTrainingParams'],
      image_to_video: ['FineTuneCreateImageToVideo', 'ImageToVideoTrainingParams'],
      text_to_video: ['FineTuneCreateTextToVideo', 'TextToVideoTrainingParams'],
    } as const;
    expect(req.oneOf).toHaveLength(8);
    expect(req.discriminator.propertyName).toBe('script_type');
    expect(req.discriminator.mapping).toEqual(
      Object.fromEntries(Object.entries(variants).map(([k, [v]]) => [k, ref(v)])),
    );
    expect(req.oneOf.map((s: Json) => s.$ref).sort()).toEqual(
      Object.values(variants)
        .map(([v]) => ref(v))
        .sort(),
    );
    for (const [scriptType, [variant, params]] of Object.entries(variants)) {
      const v = schema(variant);
      expect(v.required, variant).toEqual(
        expect.arrayContaining(['resource', 'base_model', 'script_type', 'training_params']),
      );
      const st = v.properties.script_type;
      expect(st.const ?? (st.enum?.length === 1 ? st.enum[0] : undefined), variant).toBe(scriptType);
      expect(v.properties.training_params.$ref, variant).toBe(ref(params));
    }
  });

  it('carries the training_params table values', () => {
    const p = (name: string) => schema(name).properties as Json;
    expect(p('TextGenerationTrainingParams').seq_length).toMatchObject({ type: 'integer', default: 1024, minimum: 1 });
    expect(p('TextChatMessagesTrainingParams').seq_length.default).toBe(1024);
    expect(p('ImageToTextTrainingParams').seq_length.default).toBe(4096);
    expect(p('TextGenerationTrainingParams').learning_rate).toMatchObject({ default: 0.0001, minimum: 0 });
    expect(p('ImageGenerationTrainingParams').learning_rate.default).toBe(0.0002);
    expect(p('ImageGenerationTrainingParams').learning_rate.minimum).toBeUndefined();

    expect(p('ImageGenerationTrainingParams').steps).toMatchObject({ default: 2000, minimum: 1 });
    for (const n of ['ImageEditingTrainingParams', 'MultiImageEditingTrainingParams', 'ImageToVideoTrainingParams']) {
      expect(p(n).steps.default, n).toBe(3000);
      expect(p(n).timestep_type, n).toMatchObject({ enum: ['weighted', 'sigmoid', 'linear'], default: 'weighted' });
    }
    expect(p('ImageGenerationTrainingParams').timestep_type.default).toBe('sigmoid');

    expect(schema('ImageEditingTrainingParams').required).toEqual(
      expect.arrayContaining(['caption_column', 'image_column', 'control_image_column']),
    );
    expect(schema('MultiImageEditingTrainingParams').required).toContain('control_image_columns');
    expect(schema('ImageGenerationTrainingParams').required).not.toContain('control_image_column');
    expect(schema('ImageToTextTrainingParams').required).toEqual(
      expect.arrayContaining(['answer_column', 'question_column', 'image_columns']),
    );
    expect(schema('TextChatMessagesTrainingParams').required).toEqual(['messages_column']);

    // text_to_video (fine-tuning-api/reference/text_to_video.mdx): image_to_video's parameters without num_frames
    const t2v = p('TextToVideoTrainingParams');
    expect(Object.keys(t2v).sort()).toEqual(
      Object.keys(p('ImageToVideoTrainingParams'))
        .filter((k) => k !== 'num_frames')
        .sort(),
    );
    expect(t2v.timestep_type).toMatchObject({ default: 'weighted' });
    expect(t2v.use_lora).not.toHaveProperty('default');

    const i2v = p('ImageToVideoTrainingParams');
    expect(i2v.num_frames).toMatchObject({ type: 'integer', default: 81, minimum: 1 });
    expect(i2v.use_lora.type).toBe('boolean');
    expect(i2v.use_lora).not.toHaveProperty('default');
    expect(p('ImageGenerationTrainingParams').use_lora.default).toBe(true);

    expect(p('ImageGenerationTrainingParams').samples.items.$ref).toBe(ref('TrainingSample'));
    expect(p('ImageEditingTrainingParams').samples.items.$ref).toBe(ref('ControlImageTrainingSample'));
    expect(p('MultiImageEditingTrainingParams').samples.items.$ref).toBe(ref('MultiControlImageTrainingSample'));
    expect(p('ImageToVideoTrainingParams').samples.items.$ref).toBe(ref('TrainingSample'));
  });

  it('keeps the enqueue limits and open model-parameter bodies', () => {
    expect(schema('EnqueueRequest').properties.num_generations).toMatchObject({ minimum: 1, maximum: 4, default: 1 });
    for (const n of ['EnqueueRequest', 'ImageGenerateRequest', 'ImageEditRequest', 'VideoGenerateRequest']) {
      expect(schema(n).additionalProperties, n).toBe(true);
    }
    expect(schema('ResponseFormat')).toMatchObject({ enum: ['url', 'b64_json'], default: 'url' });
  });

  it('describes chat tool round trips: every message role, streamed tool-call fragments, usage on the last chunk', () => {
    expect(schema('ChatMessage').discriminator.mapping).toEqual({
      system: ref('ChatSystemMessage'),
      user: ref('ChatUserMessage'),
      assistant: ref('ChatAssistantMessage'),
      tool: ref('ChatToolMessage'),
    });
    expect(schema('ChatToolMessage').required).toEqual(['role', 'tool_call_id', 'content']);
    expect(schema('ChatAssistantMessage').required).toEqual(['role']);
    expect(schema('ChatCompletionMessage').properties.role.const).toBe('assistant');
    expect(schema('ChatCompletionChunkDelta').properties.tool_calls.items.$ref).toBe(
      ref('ChatCompletionChunkToolCall'),
    );
    expect(schema('ChatCompletionChunkToolCall').required).toEqual(['index']);
    expect(schema('ChatCompletionChunk').properties.usage.oneOf[0].$ref).toBe(ref('Usage'));
    const req = schema('ChatCompletionRequest').properties;
    for (const f of [
      'stop',
      'seed',
      'n',
      'stream_options',
      'user',
      'logprobs',
      'top_logprobs',
      'max_completion_tokens',
    ])
      expect(req[f], f).toBeDefined();
    expect(req.temperature).toMatchObject({ minimum: 0, maximum: 2 });
  });
});

describe('openapi-typescript over specs/openapi.yaml', () => {
  it('generates types that compile under --strict', { timeout: 60_000 }, async () => {
    const source = astToString(await openapiTS(pathToFileURL(specPath)));
    for (const name of ['ChatCompletion', 'Generation', 'FineTuneCreateRequest', 'ResourceNotFoundError', 'Model']) {
      expect(source).toContain(`${name}: `);
    }
    const { dir, remove } = tempDir('openapi-check-');
    try {
      const file = join(dir, 'openapi-check.d.ts');
      await writeFile(file, source);
      const program = ts.createProgram([file], { strict: true, noEmit: true, types: [] });
      const diagnostics = ts
        .getPreEmitDiagnostics(program)
        .map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
      expect(diagnostics, diagnostics.join('\n')).toEqual([]);
    } finally {
      remove();
    }
  });
});
