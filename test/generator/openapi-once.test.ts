/**
 * The load stage parses the API description once per process for the same text
 * (`generator/stages/load.ts`): a second load of the same text gets the same checked, frozen document;
 * a changed text is parsed and checked again, so a run never sees a description other than the one it read.
 */
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { expect, it } from 'vitest';
import { SpecError } from '../../generator/errors.ts';
import { load } from '../../generator/stages/load.ts';
import { tempSpecs } from './helpers.ts';

it('reuses the document for the same text only, and checks every other text', async () => {
  const t = await tempSpecs(['flux-2-pro']);
  const again = await tempSpecs(['flux-2-pro']);
  try {
    const first = await load({ specsDir: t.specsDir });
    expect(Object.isFrozen(first.openapi)).toBe(true);
    // the same text in another folder: the same document
    expect((await load({ specsDir: again.specsDir })).openapi).toBe(first.openapi);

    const yaml = path.join(t.specsDir, 'openapi.yaml');
    const text = await readFile(yaml, 'utf8');
    await writeFile(
      yaml,
      text.replace(
        '\npaths:\n',
        '\npaths:\n  /api/extra:\n    get:\n      operationId: extraGet\n      responses: {}\n',
      ),
    );
    const changed = await load({ specsDir: t.specsDir });
    expect(changed.openapi).not.toBe(first.openapi);
    expect(Object.keys(changed.openapi.paths)).toContain('/api/extra');
    expect(Object.keys(first.openapi.paths)).not.toContain('/api/extra');

    // a bad text after a good one is refused, not answered from the last document
    await writeFile(yaml, 'openapi: [');
    await expect(load({ specsDir: t.specsDir })).rejects.toThrow(SpecError);
    await writeFile(yaml, text.replace('openapi: 3.1.0', 'openapi: 2'));
    await expect(load({ specsDir: t.specsDir })).rejects.toThrow(/not an OpenAPI 3\.1 document/);
    // and the original text again: parsed and checked afresh, equal to the first
    await writeFile(yaml, text);
    expect((await load({ specsDir: t.specsDir })).openapi).toEqual(first.openapi);
  } finally {
    await t.cleanup();
    await again.cleanup();
  }
});
