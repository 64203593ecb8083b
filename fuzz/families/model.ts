/**
 * Families that attack the model object and the snapshot files themselves: ids, collisions, the
 * model fields (capabilities, endpoint, names), the JSON text of the files, random mutations of
 * real models, random JSON, size, and an unmodified control.
 */
import { clone, RawText, setKey, snapshotModels, type CaseFile } from '../case.ts';
import {
  baseModel,
  KINDS,
  objectSchema,
  schemaField,
  schemaNodes,
  simpleSchema,
  validId,
  withSchema,
  type Ctx,
  type Family,
  type Kind,
} from '../build.ts';
import { anyJson, anyString } from '../rng.ts';

/** A hostile id, listed in models.json, its file named after it where possible, its object's id the same (or not). */
function ids(ctx: Ctx) {
  const { rng, plant } = ctx;
  const id = plant.id();
  const m = baseModel(ctx);
  m['id'] = rng.chance(0.85) ? id : validId(ctx);
  const files: CaseFile[] = [{ name: id, content: m }];
  const list = [id];
  if (rng.chance(0.3)) {
    const other = validId(ctx, 1);
    list.push(other);
    files.push({ name: other, content: withSchema(ctx, objectSchema({ prompt: { type: 'string' } }), { id: other }) });
  }
  return {
    note: `model id ${JSON.stringify(id)}${m['id'] !== id ? ` (object id ${JSON.stringify(m['id'])})` : ''}`,
    list,
    files,
  };
}

/** Ids equal but for case, ids that name the same identifier, duplicates in models.json, prototype names. */
function collisions(ctx: Ctx) {
  const { rng } = ctx;
  const sets = [
    ['Flux', 'flux'],
    ['a-b', 'a_b'],
    ['a-b', 'a b'],
    ['1-0', '10'],
    ['x-1.0', 'x-1-0'],
    ['model-3d', 'Model-3d'],
    ['3d', 'model3d'],
    ['__proto__', 'constructor', 'toString'],
    ['dup', 'dup'],
    ['index', 'Index'],
    ['a', 'b', 'a'],
  ];
  const set = rng.pick(sets);
  const files: CaseFile[] = [...new Set(set)].map((id) => ({
    name: id,
    content: withSchema(ctx, objectSchema({ prompt: { type: 'string' } }), { id }),
  }));
  return { note: `ids ${JSON.stringify(set)}`, list: set, files };
}

/** Chat models with a schema, every kind, missing fields, wrong types of capabilities/endpoint/display_name/description. */
function modelFields(ctx: Ctx) {
  const { rng, plant } = ctx;
  const kind = rng.pick(Object.keys(KINDS) as Kind[]);
  const id = validId(ctx);
  const schema = rng.chance(0.3)
    ? null
    : objectSchema({ prompt: { type: 'string' }, extra: simpleSchema(ctx) }, rng.chance(0.3) ? ['prompt'] : []);
  const m = withSchema(ctx, schema, { id, kind });
  const edits: string[] = [`${kind} model${schema ? ' with a schema' : ''}`];
  const wrong = (): unknown =>
    rng.pick([5, null, true, [], {}, plant.text(), [1, 2], { input: 'text' }, { input: [1], output: [null] }, '']);
  for (let i = rng.int(0, 3); i > 0; i--) {
    const field = rng.pick([
      'capabilities',
      'endpoint',
      'display_name',
      'description',
      'id',
      'object',
      'request_schema',
      'json_request_schema',
    ]);
    const what = rng.float();
    if (what < 0.3) {
      delete m[field];
      edits.push(`no ${field}`);
    } else if (what < 0.7) {
      m[field] = wrong();
      edits.push(`${field}: ${JSON.stringify(m[field])}`);
    } else if (field === 'endpoint') {
      m[field] = rng.pick([
        '/chat/completions',
        '/images/generate',
        '/images/edit',
        '/videos/generate',
        '/audio/speech',
        '/unknown',
        '/../../etc/passwd',
        'javascript:alert(1)',
        '',
        plant.text(),
      ]);
      edits.push(`endpoint ${JSON.stringify(m[field])}`);
    } else if (field === 'capabilities') {
      const caps = ['text', 'image', 'video', 'audio', plant.text(), ''];
      m[field] = { input: rng.pickMany(caps, rng.int(0, 3)), output: rng.pickMany(caps, rng.int(0, 2)) };
      edits.push(`capabilities ${JSON.stringify(m[field])}`);
    } else {
      m[field] = plant.text();
      edits.push(`${field}: hostile text`);
    }
  }
  if (rng.chance(0.3)) {
    setKey(m, plant.key(), plant.text());
    edits.push('an unknown field');
  }
  return { note: edits.join(', '), list: [id], files: [{ name: id, content: m }] };
}

/** The files' JSON text: invalid JSON, duplicate keys, BOM, number literals, models.json of the wrong shape. */
function files(ctx: Ctx) {
  const { rng } = ctx;
  const id = validId(ctx);
  const m = withSchema(ctx, objectSchema({ prompt: { type: 'string' }, n: { type: 'integer', default: 1 } }), { id });
  const text = JSON.stringify(m, null, 2);
  const variants: Array<[string, () => { list: unknown; content: unknown }]> = [
    ['truncated JSON', () => ({ list: [id], content: new RawText(text.slice(0, rng.int(1, text.length - 1))) })],
    ['empty file', () => ({ list: [id], content: new RawText('') })],
    ['BOM', () => ({ list: [id], content: new RawText(`\ufeff${text}`) })],
    [
      'duplicate keys',
      () => ({ list: [id], content: new RawText(text.replace('{', `{"id": "other-id", "json_request_schema": 5,`)) }),
    ],
    [
      'big number literals',
      () => ({
        list: [id],
        content: new RawText(
          text.replace('"default": 1', '"default": 123456789012345678901234567890, "maximum": 1e400'),
        ),
      }),
    ],
    [
      'escaped NUL and separators',
      () => ({ list: [id], content: new RawText(text.replace('"prompt": {', '"pro\\u0000mpt\\u2028": {')) }),
    ],
    ['trailing garbage', () => ({ list: [id], content: new RawText(`${text} trailing`) })],
    ['not an object', () => ({ list: [id], content: rng.pick([[], 'model', 5, null, true]) })],
    ['models.json is an object', () => ({ list: { [id]: true }, content: m })],
    ['models.json holds non-strings', () => ({ list: [id, 5, null, { id }], content: m })],
    ['models.json is empty', () => ({ list: [], content: m })],
    ['models.json is invalid JSON', () => ({ list: new RawText(`["${id}",`), content: m })],
    ['models.json lists a missing file', () => ({ list: [id, 'no-such-model'], content: m })],
    [
      'deep arrays',
      () => ({
        list: [id],
        content: new RawText(
          text.replace(
            '"default": 1',
            (() => {
              const d = rng.logInt(10, 20000);
              return `"default": ${'['.repeat(d)}${']'.repeat(d)}`;
            })(),
          ),
        ),
      }),
    ],
  ];
  const [what, make] = rng.pick(variants);
  const { list, content } = make();
  return { note: what, list, files: [{ name: id, content }] };
}

/** A real model with 1 to 6 random edits anywhere in its tree. */
function mutate(ctx: Ctx) {
  const { rng, plant } = ctx;
  const m = baseModel(ctx);
  const field = schemaField(m);
  const edits: string[] = [];
  for (let i = rng.int(1, 6); i > 0; i--) {
    const nodes = [m, ...schemaNodes(m[field])];
    const node = rng.pick(nodes);
    const keys = Object.keys(node);
    const r = rng.float();
    if (r < 0.25 && keys.length > 0) {
      const k = rng.pick(keys);
      if (node === m && k === 'id') continue;
      delete node[k];
      edits.push(`-${k}`);
    } else if (r < 0.55 && keys.length > 0) {
      const k = rng.pick(keys);
      if (node === m && k === 'id') continue;
      node[k] = rng.pick([() => plant.text(), () => anyJson(rng), () => anyString(rng), () => null, () => []])();
      edits.push(`~${k}`);
    } else if (r < 0.8) {
      const k = rng.pick([
        'description',
        'default',
        'enum',
        'type',
        'format',
        'pattern',
        'title',
        'examples',
        'const',
        'minimum',
        plant.key(),
      ]);
      setKey(node, k, rng.chance(0.5) ? plant.text() : anyJson(rng, 2));
      edits.push(`+${k.slice(0, 20)}`);
    } else {
      const props = node['properties'];
      if (props && typeof props === 'object' && !Array.isArray(props)) {
        setKey(props as Record<string, unknown>, plant.key(), simpleSchema(ctx));
        edits.push('+property');
      }
    }
  }
  const id = String(m['id']);
  return { note: `${id}: ${edits.join(' ')}`, list: [id], files: [{ name: id, content: m }] };
}

/** Random JSON (fast-check) as the whole schema, as parameter schemas, or as the whole model object's extra fields. */
function random(ctx: Ctx) {
  const { rng } = ctx;
  const where = rng.int(0, 2);
  if (where === 0) {
    const id = validId(ctx);
    return {
      note: 'random JSON as the schema',
      list: [id],
      files: [{ name: id, content: withSchema(ctx, anyJson(rng, 4), { id }) }],
    };
  }
  const props: Record<string, unknown> = { prompt: { type: 'string' } };
  for (let i = rng.int(1, 5); i > 0; i--)
    setKey(
      props,
      rng.chance(0.5) ? anyString(rng, 12) : `p${i}`,
      where === 1
        ? anyJson(rng, 3)
        : {
            type: 'string',
            description: anyString(rng, 60),
            default: anyString(rng, 20),
            enum: [anyString(rng, 10), anyString(rng, 10)],
          },
    );
  const id = validId(ctx);
  return {
    note: where === 1 ? 'random JSON parameter schemas' : 'random unicode text in descriptions, defaults and enums',
    list: [id],
    files: [{ name: id, content: withSchema(ctx, objectSchema(props), { id }) }],
  };
}

/** Size: thousands of properties, 100k-character descriptions, long enum strings, dozens of models. */
function big(ctx: Ctx) {
  const { rng, plant } = ctx;
  const what = rng.int(0, 3);
  if (what === 3) {
    const n = rng.int(10, 40);
    const list = Array.from({ length: n }, (_, i) => validId(ctx, i));
    return {
      note: `${n} models`,
      list,
      files: list.map((id) => ({
        name: id,
        content: withSchema(ctx, objectSchema({ prompt: { type: 'string', description: plant.text() } }), { id }),
      })),
    };
  }
  const props: Record<string, unknown> = {};
  if (what === 0)
    for (let i = rng.logInt(200, 3000); i > 0; i--)
      props[`param_${i}`] = { type: 'string', description: `parameter ${i}` };
  if (what === 1)
    props['long'] = { type: 'string', description: `${'long text '.repeat(rng.logInt(1000, 20000))}${plant.text()}` };
  if (what === 2) props['choice'] = { enum: [`${'v'.repeat(rng.logInt(1000, 100000))}*/`, plant.text()] };
  const id = validId(ctx);
  return {
    note: ['many properties', 'long description', 'long enum strings'][what]!,
    list: [id],
    files: [{ name: id, content: withSchema(ctx, objectSchema(props), { id }) }],
  };
}

/** Control: 1 to 3 real models as they are. Must always generate and compile. */
function baseline(ctx: Ctx) {
  const { rng } = ctx;
  const all = [...snapshotModels().keys()];
  const chosen = [...new Set(rng.pickMany(all, rng.int(1, 3)))].sort();
  return {
    note: `real models ${chosen.join(', ')}`,
    list: chosen,
    files: chosen.map((id) => ({ name: id, content: clone(snapshotModels().get(id)) })),
  };
}

export const MODEL_FAMILIES: readonly Family[] = [
  {
    name: 'ids',
    about:
      'model ids with CR, LF, #, ?, %, spaces, unicode, .., /, 129-300 characters, __proto__, leading digits; object id different from the file name',
    build: ids,
  },
  {
    name: 'collisions',
    about: 'ids equal but for case, ids naming the same identifier, duplicates in models.json',
    build: collisions,
  },
  {
    name: 'model-fields',
    about:
      'chat models with a schema, every kind, missing fields, wrong types of capabilities/endpoint/display_name/description',
    build: modelFields,
  },
  {
    name: 'files',
    about:
      'JSON text: truncated, empty, BOM, duplicate keys, huge number literals, deep arrays; models.json of the wrong shape',
    build: files,
  },
  {
    name: 'mutate',
    about: 'a real model with 1-6 random edits (deleted, replaced, added keywords and properties)',
    build: mutate,
  },
  {
    name: 'random',
    about: 'random JSON (fast-check) as the schema or parameter schemas; random unicode text',
    build: random,
  },
  {
    name: 'big',
    about: 'thousands of properties, 100k-character descriptions and enum strings, dozens of models',
    build: big,
  },
  { name: 'baseline', about: 'real snapshot models unchanged (control: must generate and compile)', build: baseline },
];
