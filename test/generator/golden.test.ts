/**
 * Golden files: the generated module of a few models chosen for their oddities, compared byte for
 * byte with test/golden/<id>.ts.golden (read and reviewed when written; `UPDATE_GOLDEN=1` rewrites them).
 * - flux-2-pro: enum values that are not identifiers ("16:9", "1 MP"), served by generate, edit and the queue
 * - topazlabs-proteus-video: a number enum mixing integers and decimals (23.976, 29.97)
 * - happyhorse-1.0-video-edit: a model id with dots
 * - ltx-2-3-pro-22b-IC-LoRA-Union-Control: a model id with capitals
 * - kling-video-v3-pro-motion-control: an array<object> field and a required field that has a default
 */
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { generate, REPO_ROOT, type GenerateResult } from '../../generator/index.ts';

const GOLDEN = ['flux-2-pro', 'topazlabs-proteus-video', 'happyhorse-1.0-video-edit', 'ltx-2-3-pro-22b-IC-LoRA-Union-Control', 'kling-video-v3-pro-motion-control'];

let run: GenerateResult;
beforeAll(async () => {
  run = await generate({ check: true });
}, 60_000);

describe('golden files', () => {
  it.each(GOLDEN)('%s matches its golden file', async (id) => {
    const text = run.files.get(`generated/models/${id}.ts`);
    expect(text).toBeDefined();
    const golden = path.join(REPO_ROOT, 'test', 'golden', `${id}.ts.golden`);
    if (process.env['UPDATE_GOLDEN']) await writeFile(golden, text!);
    expect(text).toBe(await readFile(golden, 'utf8'));
  });

  it('keeps the oddities as they are in the schema', () => {
    const flux = run.files.get('generated/models/flux-2-pro.ts')!;
    expect(flux).toContain(`aspect_ratio?: '1:1' | '16:9' | '9:16' | '4:3' | '3:4' | '3:2' | '2:3' | 'match_input_image';`);
    expect(flux).toContain(`resolution?: '1 MP' | '2 MP' | '0.5 MP';`);
    expect(flux).toMatch(/export function flux2ProGenerateImage</);
    expect(flux).toMatch(/export function flux2ProEditImage</);
    expect(flux).toMatch(/export function flux2ProEnqueue\(/);
    const topaz = run.files.get('generated/models/topazlabs-proteus-video.ts')!;
    expect(topaz).toContain('target_fps?: 24 | 23.976 | 25 | 29.97 | 30 | 50 | 59.94 | 60;');
    expect(run.files.get('generated/models/happyhorse-1.0-video-edit.ts')).toContain('export interface Happyhorse1_0VideoEditParams {');
    expect(run.files.get('generated/models/ltx-2-3-pro-22b-IC-LoRA-Union-Control.ts')).toContain('export interface Ltx23Pro22bICLoRAUnionControlParams {');
    const kling = run.files.get('generated/models/kling-video-v3-pro-motion-control.ts')!;
    expect(kling).toMatch(/@default "video"[\s\S]*?\n\s+character_orientation: 'image' \| 'video';/);
    expect(kling).toMatch(/elements\?: \{\s*\[k: string\]: unknown;\s*\}\[\];/);
  });

  it('starts every generated file with the generated-file header', () => {
    for (const [file, text] of run.files) {
      expect(text, file).toMatch(/^(\/\*\*|<!--)\n \*? ?GENERATED FILE: do not edit by hand\.|^<!--\nGENERATED FILE/);
      expect(text, file).toContain('npm run generate');
    }
  });
});
