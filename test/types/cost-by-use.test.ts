/**
 * A call resolves only the entry of the model it names: the type instantiations of checking the
 * same calls do not grow with the number of models the registry knows. Counted by the compiler
 * (`getInstantiationCount`, the same in every run), for a registry of video models whose entries are
 * `VideoParams` (a conditional type and mapped types each), as the generated index writes them.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { afterAll, describe, expect, it } from 'vitest';
import { REPO_ROOT, tempDir } from '../support/index.ts';

const tmp = tempDir('inference-sdk-cost-by-use-');
afterAll(() => tmp.remove());

/** A registry of `n` video models (`m-0`, ...), each with its own parameter interface, as a declaration file. */
function registry(n: number): string {
  const runtime = JSON.stringify(path.join(REPO_ROOT, 'runtime', 'index.ts'));
  const client = JSON.stringify(path.join(REPO_ROOT, 'runtime', 'client.ts'));
  const ids = Array.from({ length: n }, (_, i) => `m-${i}`);
  const params = ids.map((id, i) => `interface P${i} { prompt: string; duration?: 4 | 8; seed_${i}?: number }`);
  const entries = (fields: string) => ids.map((id, i) => `  '${id}': ${fields} & VideoParams<P${i}>;`).join('\n');
  const union = ids.map((id) => `'${id}'`).join(' | ');
  return `import type { Client } from ${client};
import type { QueueFields, Registry, SdkFields, VideoParams } from ${runtime};
${params.join('\n')}
interface Params { ${ids.map((id, i) => `'${id}': P${i};`).join(' ')} }
interface MediaBodies {
${entries('SdkFields')}
}
interface QueueBodies {
${entries('QueueFields')}
}
export interface Big extends Registry {
  params: Params; mediaBodies: MediaBodies; queueBodies: QueueBodies;
  imageGenerate: never; imageEdit: never; video: ${union}; queue: ${union}; chat: never;
}
export type BigClient = Client<Big>;
`;
}

const CALLS = `import type { BigClient } from './registry.js';
declare const client: BigClient;
export async function calls(): Promise<unknown[]> {
  const a = await client.videos.generate({ model: 'm-0', prompt: 'waves', duration: 8 });
  const b = await client.videos.generate({ model: 'm-1', multi_prompt: [{ prompt: 'a', duration: 4 }] });
  const c = await client.queue.enqueue({ model: 'm-2', prompt: 'waves', num_generations: 2 });
  // @ts-expect-error a duration the model does not take
  const d = await client.videos.generate({ model: 'm-0', prompt: 'waves', duration: 5 });
  // @ts-expect-error both prompt and multi_prompt
  const e = await client.queue.run({ model: 'm-1', prompt: 'a', multi_prompt: [{ prompt: 'a', duration: 4 }] });
  return [a, b, c, d, e];
}
`;

/** Checks the calls against a registry of `n` models. @returns the calls' diagnostics and the instantiations of checking them. */
function check(n: number, old?: ts.Program): { program: ts.Program; diagnostics: string[]; instantiations: number } {
  const dir = path.join(tmp.dir, String(n));
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, 'package.json'), '{ "type": "module" }');
  writeFileSync(path.join(dir, 'registry.d.ts'), registry(n));
  writeFileSync(path.join(dir, 'main.ts'), CALLS);
  const program = ts.createProgram({
    rootNames: [path.join(dir, 'main.ts')],
    options: {
      strict: true,
      skipLibCheck: true,
      noEmit: true,
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      allowImportingTsExtensions: true,
      lib: ['lib.es2022.d.ts', 'lib.dom.d.ts', 'lib.dom.iterable.d.ts'],
      types: [],
    },
    ...(old ? { oldProgram: old } : {}),
  });
  const main = program.getSourceFile(path.join(dir, 'main.ts'))!;
  const diagnostics = program
    .getSemanticDiagnostics(main)
    .map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
  return { program, diagnostics, instantiations: program.getInstantiationCount() };
}

describe('type cost by use', () => {
  it(
    'checks the same calls with as many type instantiations against 8 models as against 300',
    { timeout: 120_000 },
    () => {
      const small = check(8);
      const large = check(300, small.program);
      // every @ts-expect-error is used, nothing else is reported
      expect(small.diagnostics).toEqual([]);
      expect(large.diagnostics).toEqual([]);
      expect(small.instantiations).toBeGreaterThan(0);
      // with the registry's map as the calls' contextual type (no `B`): 565 and 11,661, each entry's `VideoParams` resolved
      expect(large.instantiations).toBe(small.instantiations);
    },
  );
});
