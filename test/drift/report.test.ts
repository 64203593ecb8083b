// The drift report: each kind of change is detected and classified (on the structured report, no
// regeneration), the renderings, the deterministic order, and the exit codes of scripts/drift.ts
// (two directories, and the fetch mode against the local server serving a modified snapshot).
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  diffSnapshots,
  driftExitCode,
  driftReport,
  readSnapshot,
  renderMarkdown,
  renderText,
  type DriftChange,
  type DriftReport,
} from '../../generator/drift/index.ts';
import { SpecError } from '../../generator/errors.ts';
import { startServer } from '../../fake-service/index.ts';
import {
  cleanupTemp,
  copySpecs,
  editModel,
  FAKE_KEY,
  readList,
  readModel,
  runScript,
  schemaOf,
  SERVER_USERS,
  scratchDir,
  writeList,
  writeModel,
} from './helpers.ts';

let base: string; // an untouched copy of specs/
const MODEL = 'flux-2-pro'; // json_request_schema; prompt required; aspect_ratio enum; num_inference_steps 1..50; guidance number
const OTHER = 'black-forest-labs-flux-2-klein-4b'; // request_schema

beforeAll(() => {
  base = copySpecs(scratchDir());
});
afterAll(cleanupTemp);

/** A copy of specs/ changed by `edit(modelsDir, specsDir)`, compared with the untouched copy. */
async function drift(edit: (modelsDir: string, specsDir: string) => void): Promise<DriftReport> {
  const specs = copySpecs(scratchDir());
  edit(path.join(specs, 'models'), specs);
  return driftReport(base, specs);
}

/** The one change of the report matching, or a failure listing what the report holds. */
function only(report: DriftReport, match: Partial<DriftChange>): DriftChange {
  const hits = report.changes.filter((c) => Object.entries(match).every(([k, v]) => c[k as keyof DriftChange] === v));
  expect(
    hits,
    `one change matching ${JSON.stringify(match)} in ${JSON.stringify(report.changes, null, 1)}`,
  ).toHaveLength(1);
  return hits[0]!;
}

const props = (m: ReturnType<typeof readModel>) => schemaOf(m).properties;

describe('classification (structured report)', () => {
  test('identical snapshots: no change, exit code 0', async () => {
    const r = await drift(() => undefined);
    expect(r.changes).toEqual([]);
    expect(r.breaking + r.compatible).toBe(0);
    expect(r.unchanged).toBe(readList(base).length);
    expect(driftExitCode(r)).toBe(0);
    expect(renderText(r)).toContain('No schema drift');
  });

  test('model added is compatible, model removed is breaking', async () => {
    const r = await drift((models, specs) => {
      const copy = { ...readModel(models, MODEL), id: 'flux-2-pro-copy' };
      writeModel(models, copy);
      writeList(specs, [...readList(specs).filter((id) => id !== OTHER), 'flux-2-pro-copy'].sort());
    });
    expect(only(r, { model: 'flux-2-pro-copy', kind: 'model-added' }).severity).toBe('compatible');
    expect(only(r, { model: OTHER, kind: 'model-removed' }).severity).toBe('breaking');
    expect(r.added).toEqual(['flux-2-pro-copy']);
    expect(r.removed).toEqual([OTHER]);
    expect(r.changes).toHaveLength(2);
    expect(driftExitCode(r)).toBe(2);
  });

  test('parameters: optional added is compatible; required added and removed are breaking', async () => {
    const r = await drift((models) =>
      editModel(models, MODEL, (m) => {
        props(m)['style'] = { type: 'string', description: 'new optional' };
        props(m)['mask'] = { type: 'string', description: 'new required' };
        schemaOf(m).required.push('mask');
        delete props(m)['seed'];
      }),
    );
    expect(only(r, { param: 'style', kind: 'param-added' }).severity).toBe('compatible');
    expect(only(r, { param: 'mask', kind: 'param-added' }).severity).toBe('breaking');
    expect(only(r, { param: 'seed', kind: 'param-removed' }).severity).toBe('breaking');
    expect(r.changes.every((c) => c.model === MODEL)).toBe(true);
    expect(r.changes).toHaveLength(3);
  });

  test('type changes: narrowed and unrelated are breaking, widened is compatible', async () => {
    const r = await drift((models) => {
      editModel(models, MODEL, (m) => {
        props(m)['guidance']!['type'] = 'integer'; // number -> integer: narrowed
        props(m)['seed']!['type'] = 'number'; // integer -> number: widened
        props(m)['output_format']!['type'] = ['string', 'null']; // widened
        props(m)['prompt']!['type'] = 'integer'; // unrelated
        props(m)['disable_safety_checker']!['type'] = ['boolean', 'string']; // widened
      });
      editModel(models, OTHER, (m) => {
        props(m)['seed']!['type'] = ['integer', 'string'];
      });
    });
    expect(only(r, { model: MODEL, param: 'guidance', kind: 'type-changed' })).toMatchObject({
      severity: 'breaking',
      before: 'number',
      after: 'integer',
    });
    expect(only(r, { model: MODEL, param: 'seed', kind: 'type-changed' }).severity).toBe('compatible');
    expect(only(r, { model: MODEL, param: 'output_format', kind: 'type-changed' }).severity).toBe('compatible');
    expect(only(r, { model: MODEL, param: 'prompt', kind: 'type-changed' })).toMatchObject({
      severity: 'breaking',
      message: expect.stringContaining('unrelated'),
    });
    expect(only(r, { model: MODEL, param: 'disable_safety_checker', kind: 'type-changed' }).severity).toBe(
      'compatible',
    );
    expect(only(r, { model: OTHER, param: 'seed', kind: 'type-changed' }).severity).toBe('compatible');

    // and back: ["integer","string"] -> integer is narrowed
    const specs = copySpecs(scratchDir());
    editModel(path.join(specs, 'models'), OTHER, (m) => {
      props(m)['seed']!['type'] = ['integer', 'string'];
    });
    const back = await driftReport(specs, base);
    expect(only(back, { model: OTHER, param: 'seed', kind: 'type-changed' })).toMatchObject({
      severity: 'breaking',
      before: 'integer | string',
      after: 'integer',
    });
  });

  test('enum: value added is compatible, value removed is breaking, a new enum is breaking, a dropped enum is compatible', async () => {
    const r = await drift((models) =>
      editModel(models, MODEL, (m) => {
        const ar = props(m)['aspect_ratio']!;
        ar['enum'] = [...(ar['enum'] as string[]).filter((v) => v !== '3:2'), '21:9'];
        props(m)['prompt']!['enum'] = ['a cat', 'a dog'];
        delete props(m)['resolution']!['enum'];
      }),
    );
    expect(only(r, { param: 'aspect_ratio', kind: 'enum-added' })).toMatchObject({
      severity: 'compatible',
      after: '"21:9"',
    });
    expect(only(r, { param: 'aspect_ratio', kind: 'enum-removed' })).toMatchObject({
      severity: 'breaking',
      before: '"3:2"',
    });
    expect(only(r, { param: 'prompt', kind: 'enum-introduced' }).severity).toBe('breaking');
    expect(only(r, { param: 'resolution', kind: 'enum-dropped' }).severity).toBe('compatible');
    expect(r.changes).toHaveLength(4);
  });

  test('required: added is breaking, removed is compatible', async () => {
    const r = await drift((models) =>
      editModel(models, MODEL, (m) => {
        schemaOf(m).required = ['seed'];
      }),
    );
    expect(only(r, { param: 'seed', kind: 'required-added' }).severity).toBe('breaking');
    expect(only(r, { param: 'prompt', kind: 'required-removed' }).severity).toBe('compatible');
    expect(r.changes).toHaveLength(2);
  });

  test('default changes are compatible', async () => {
    const r = await drift((models) =>
      editModel(models, MODEL, (m) => {
        props(m)['aspect_ratio']!['default'] = '1:1';
        delete props(m)['output_quality']!['default'];
        props(m)['seed']!['default'] = 42;
      }),
    );
    expect(only(r, { param: 'aspect_ratio', kind: 'default-changed' })).toMatchObject({
      severity: 'compatible',
      before: '"16:9"',
      after: '"1:1"',
    });
    expect(only(r, { param: 'output_quality', kind: 'default-changed' }).severity).toBe('compatible');
    expect(only(r, { param: 'seed', kind: 'default-changed' }).severity).toBe('compatible');
    expect(driftExitCode(r)).toBe(1);
  });

  test('ranges: raised minimum, lowered maximum and new bounds are breaking; widened bounds are compatible', async () => {
    const r = await drift((models) =>
      editModel(models, MODEL, (m) => {
        props(m)['num_inference_steps']!['minimum'] = 4; // 1 -> 4: narrowed
        props(m)['num_inference_steps']!['maximum'] = 40; // 50 -> 40: narrowed
        props(m)['guidance']!['maximum'] = 20; // 10 -> 20: widened
        delete props(m)['guidance']!['minimum']; // removed: widened
        props(m)['seed']!['minimum'] = 0; // new: narrowed
        props(m)['prompt']!['maxLength'] = 1000; // new: narrowed
        props(m)['input_image']!['maxItems'] = 4; // new: narrowed
        props(m)['output_quality']!['minimum'] = -1; // 0 -> -1: widened
      }),
    );
    const range = (param: string, keyword: string) => only(r, { param, kind: 'range-changed', keyword });
    expect(range('num_inference_steps', 'minimum')).toMatchObject({ severity: 'breaking', before: '1', after: '4' });
    expect(range('num_inference_steps', 'maximum')).toMatchObject({ severity: 'breaking', before: '50', after: '40' });
    expect(range('guidance', 'maximum').severity).toBe('compatible');
    expect(range('guidance', 'minimum').severity).toBe('compatible');
    expect(range('seed', 'minimum').severity).toBe('breaking');
    expect(range('prompt', 'maxLength').severity).toBe('breaking');
    expect(range('input_image', 'maxItems').severity).toBe('breaking');
    expect(range('output_quality', 'minimum').severity).toBe('compatible');
    expect(r.breaking).toBe(5);
    expect(r.compatible).toBe(3);
  });

  test('schema field renamed, endpoint and capabilities changes are compatible; descriptions are only counted', async () => {
    const r = await drift((models) =>
      editModel(models, MODEL, (m) => {
        m['request_schema'] = m['json_request_schema'];
        delete m['json_request_schema'];
        m['endpoint'] = '/images/generate';
        (m['capabilities'] as { output: string[] }).output.push('video');
        m['description'] = 'SECRET-DESCRIPTION-TEXT';
        props(m)['prompt']!['description'] = 'SECRET-DESCRIPTION-TEXT 2';
      }),
    );
    expect(only(r, { kind: 'schema-field-renamed' })).toMatchObject({
      severity: 'compatible',
      before: 'json_request_schema',
      after: 'request_schema',
    });
    expect(only(r, { kind: 'endpoint-changed' })).toMatchObject({
      severity: 'compatible',
      before: '/images/edit',
      after: '/images/generate',
    });
    expect(only(r, { kind: 'capabilities-changed', keyword: 'output' })).toMatchObject({
      severity: 'compatible',
      message: expect.stringContaining('+video'),
    });
    expect(only(r, { kind: 'descriptions-changed' }).message).toContain('2 descriptions changed');
    expect(r.changes.filter((c) => c.param !== undefined)).toEqual([]); // the rename alone changes no parameter
    expect(renderText(r)).not.toContain('SECRET-DESCRIPTION-TEXT');
    expect(renderMarkdown(r)).not.toContain('SECRET-DESCRIPTION-TEXT');
    expect(driftExitCode(r)).toBe(1);
  });

  test('nested and array item schemas are followed', async () => {
    const r = await drift((models) =>
      editModel(models, MODEL, (m) => {
        (props(m)['input_image']!['items'] as Record<string, unknown>)['format'] = 'uri';
        props(m)['box'] = { type: 'object', properties: { x: { type: 'integer' } }, required: ['x'] };
      }),
    );
    expect(only(r, { param: 'input_image[]', kind: 'other', keyword: 'format' }).severity).toBe('compatible');
    // the new object parameter is reported once, not once per nested property
    expect(only(r, { param: 'box', kind: 'param-added' }).severity).toBe('compatible');
    expect(r.changes.filter((c) => c.param?.startsWith('box.'))).toEqual([]);
  });

  test('ordering is deterministic: by model id, then parameter (model-level first)', async () => {
    const edit = (models: string, specs: string) => {
      for (const id of [MODEL, OTHER])
        editModel(models, id, (m) => {
          delete props(m)['seed'];
          props(m)['zeta'] = { type: 'string' };
          props(m)['alpha'] = { type: 'string' };
          m['endpoint'] = '/x';
        });
      writeList(
        specs,
        readList(specs).filter((id) => id !== 'zai-org-glm-5'),
      );
    };
    const a = await drift(edit);
    const b = await drift(edit);
    expect(renderText(a).replace(/new: .*/, '')).toBe(renderText(b).replace(/new: .*/, ''));
    const keys = a.changes.map((c) => [c.model, c.param ?? '']);
    const sorted = [...keys].sort((x, y) =>
      x[0]! < y[0]! ? -1 : x[0]! > y[0]! ? 1 : x[1]! < y[1]! ? -1 : x[1]! > y[1]! ? 1 : 0,
    );
    expect(keys).toEqual(sorted);
    expect(a.models.map((m) => m.id)).toEqual([OTHER, MODEL, 'zai-org-glm-5']);
    expect(a.changes.find((c) => c.model === MODEL)?.kind).toBe('endpoint-changed');
  });

  test('an invalid model object is a SpecError naming file, model and pointer', async () => {
    const specs = copySpecs(scratchDir());
    editModel(path.join(specs, 'models'), MODEL, (m) => {
      m['id'] = 'someone-else';
    });
    const err = await driftReport(base, specs).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SpecError);
    expect((err as SpecError).model).toBe(MODEL);
    expect((err as SpecError).pointer).toBe('/id');
  });
});

describe('renderings', () => {
  let report: DriftReport;
  beforeAll(async () => {
    report = await drift((models, specs) => {
      editModel(models, MODEL, (m) => {
        const ar = props(m)['aspect_ratio']!;
        ar['enum'] = [...(ar['enum'] as string[]).filter((v) => v !== '3:2'), 'a|b'];
        props(m)['num_inference_steps']!['maximum'] = 40;
        props(m)['style'] = { type: 'string' };
      });
      writeList(
        specs,
        readList(specs).filter((id) => id !== OTHER),
      );
    });
  });

  test('text: summary line, one line per change, BREAKING marked', () => {
    const text = renderText(report);
    const lines = text.split('\n');
    expect(lines[0]).toBe(
      'Schema drift: 3 breaking, 2 compatible changes (2 models affected: 0 added, 1 removed, 1 changed; 109 unchanged)',
    );
    expect(text).toMatch(/BREAKING +aspect_ratio +enum value removed: "3:2"/);
    expect(text).toMatch(/compatible +aspect_ratio +enum value added: "a\|b"/);
    expect(text).toMatch(/BREAKING +num_inference_steps +maximum 50 -> 40: narrowed/);
    expect(text).toMatch(/compatible +style +parameter added \(optional, string\)/);
    expect(text).toMatch(
      new RegExp(`${OTHER} \\(removed: 1 breaking, 0 compatible\\)\\n +BREAKING +\\(model\\) +model removed`),
    );
    expect(text.endsWith('\n')).toBe(true);
  });

  test('markdown: summary with counts at the top, a table per model, pipes escaped', () => {
    const md = renderMarkdown(report);
    expect(md.split('\n')[0]).toBe(
      '**Schema drift: 3 breaking, 2 compatible changes (2 models affected: 0 added, 1 removed, 1 changed; 109 unchanged)**',
    );
    expect(md).toContain(`### \`${MODEL}\` (changed: 2 breaking, 2 compatible)`);
    expect(md).toContain(`### \`${OTHER}\` (removed: 1 breaking, 0 compatible)`);
    expect(md.match(/\| \| Parameter \| Change \| Before \| After \|/g)).toHaveLength(2);
    expect(md).toContain(
      '| :red_circle: breaking | `num_inference_steps` | maximum 50 -&gt; 40: narrowed | `50` | `40` |',
    );
    expect(md).toContain('`"a\\|b"`'); // a pipe inside a cell cannot end it
    // every table row has the same number of unescaped cell separators
    for (const row of md.split('\n').filter((l) => l.startsWith('| :')))
      expect(row.replace(/\\\|/g, '').split('|')).toHaveLength(7);
  });

  test('server text cannot inject terminal control characters or HTML', async () => {
    const r = await drift((models) =>
      editModel(models, MODEL, (m) => {
        props(m)['\u001b[31mevil<script>'] = { type: 'string', default: '\u001b]0;x\u0007' };
      }),
    );
    const text = renderText(r);
    expect(text).not.toMatch(/[\u0000-\u0008\u000b-\u001f]/);
    expect(text).toContain('\\u001b[31mevil');
    const md = renderMarkdown(r);
    expect(md).not.toMatch(/[\u0000-\u0008\u000b-\u001f]/);
    // HTML appears only inside code spans, where it is shown as text
    expect(md.replace(/`[^`]*`/g, '')).not.toContain('<script>');
  });
});

describe('scripts/drift.ts', () => {
  test('exit 0 / 1 / 2 for two directories (text, json and markdown output)', async () => {
    const compatible = copySpecs(scratchDir());
    editModel(path.join(compatible, 'models'), MODEL, (m) => {
      props(m)['seed']!['default'] = 7;
    });
    const breaking = copySpecs(scratchDir());
    editModel(path.join(breaking, 'models'), MODEL, (m) => {
      delete props(m)['seed'];
    });
    const [same, compat, brk] = await Promise.all([
      runScript('drift.ts', [base, base]),
      runScript('drift.ts', [base, compatible, '--format', 'json']),
      runScript('drift.ts', [base, breaking, '--format', 'markdown']),
    ]);
    expect(same).toMatchObject({ code: 0 });
    expect(same.stdout).toContain('No schema drift');
    expect(compat.code).toBe(1);
    expect(JSON.parse(compat.stdout)).toMatchObject({
      breaking: 0,
      compatible: 1,
      changes: [{ model: MODEL, param: 'seed', kind: 'default-changed' }],
    });
    expect(brk.code).toBe(2);
    expect(brk.stdout).toMatch(/^\*\*Schema drift: 1 breaking, 0 compatible/);
    expect(brk.stdout).toContain('| :red_circle: breaking | `seed` | parameter removed');
  });

  test('exit 3 (no report) for bad arguments and unreadable snapshots', async () => {
    const [badFormat, missing] = await Promise.all([
      runScript('drift.ts', [base, base, '--format', 'html']),
      runScript('drift.ts', [base, path.join(base, 'nope')]),
    ]);
    expect(badFormat.code).toBe(3);
    expect(missing.code).toBe(3);
    expect(missing.stderr).toContain('nope/models.json');
  });

  test('fetch mode: the committed snapshot vs the local server serving a modified copy; the key never shows', async () => {
    const dir = scratchDir();
    const specs = copySpecs(dir);
    const servedModels = path.join(copySpecs(path.join(dir, 'served')), 'models');
    editModel(servedModels, MODEL, (m) => {
      props(m)['num_inference_steps']!['maximum'] = 40;
      props(m)['style'] = { type: 'string' };
    });
    const server = await startServer({ modelsDir: servedModels, users: SERVER_USERS });
    try {
      const r = await runScript('drift.ts', ['--specs', specs, '--base-url', server.url, '--format', 'markdown'], {
        OXEN_API_KEY: FAKE_KEY,
      });
      expect(r.code).toBe(2);
      expect(r.stdout).toMatch(/^\*\*Schema drift: 1 breaking, 1 compatible/);
      expect(r.stdout).toContain('`num_inference_steps` | maximum 50 -&gt; 40: narrowed');
      expect(r.stdout + r.stderr).not.toContain(FAKE_KEY);
      expect(server.count('GET', '/api/ai/models/')).toBe(readList(specs).length);

      const noKey = await runScript('drift.ts', ['--specs', specs, '--base-url', server.url]);
      expect(noKey.code).toBe(3);
      expect(noKey.stderr).toContain('OXEN_API_KEY is not set');
    } finally {
      await server.close();
    }
  });
});

test('diffSnapshots works on in-memory snapshots (what drift fetch mode and refresh use)', async () => {
  const a = await readSnapshot(base);
  const models = new Map(a.models);
  const m = JSON.parse(JSON.stringify(models.get(MODEL))) as ReturnType<typeof readModel>;
  delete props(m)['seed'];
  models.set(MODEL, m);
  const r = diffSnapshots(a, { label: 'memory', ids: a.ids, models });
  expect(r.new).toBe('memory');
  expect(only(r, { param: 'seed', kind: 'param-removed' }).severity).toBe('breaking');
});
