/**
 * A model whose endpoint the API description does not cover (`/audio/speech`,
 * `/audio/transcriptions`) gets its parameter type but no endpoint function, and the run says so
 * once, naming the model.
 */
import { describe, expect, it } from 'vitest';
import { REPO_ROOT, runGenerate } from '../support/index.ts';
import { readFile } from 'node:fs/promises';
import path from 'node:path';

const UNCOVERED = {
  'bytedance-seed-audio-1-0': '/audio/speech',
  'gemini-3-1-pro-preview': '/audio/transcriptions',
  'gpt-audio': '/audio/transcriptions',
};

describe('models on endpoints the description does not cover', () => {
  it('get a parameter type and no endpoint function', async () => {
    const audio = await readFile(path.join(REPO_ROOT, 'generated/models/bytedance-seed-audio-1-0.ts'), 'utf8');
    expect(audio).toContain('export interface BytedanceSeedAudio10Params {');
    expect(audio).toContain('sample_rate?: 8000 | 16000 | 24000 | 32000 | 44100 | 48000;');
    expect(audio).not.toMatch(/export function/);
    expect(audio).toContain(
      "No endpoint function: the model's endpoint `/audio/speech` is not covered by the API description.",
    );
    const index = await readFile(path.join(REPO_ROOT, 'generated/index.ts'), 'utf8');
    const queueIds = index.slice(index.indexOf('export type QueueModelId'), index.indexOf('export type ChatModelId'));
    expect(queueIds).not.toContain('bytedance-seed-audio-1-0');
    const chatIds = index.slice(
      index.indexOf('export type ChatModelId'),
      index.indexOf('export interface ModelParams'),
    );
    expect(chatIds).not.toContain("'gpt-audio'");
    expect(chatIds).toContain("'gpt-4o-mini'");
  });

  it('are reported once each, by name, by `npm run generate`', { timeout: 60_000 }, async () => {
    const { stdout } = await runGenerate(['--check']);
    for (const [id, endpoint] of Object.entries(UNCOVERED)) {
      const lines = stdout.split('\n').filter((l) => l.includes(id));
      expect(lines, id).toHaveLength(1);
      expect(lines[0]).toContain(endpoint);
    }
    expect(stdout.split('\n').filter((l) => l.startsWith('note:'))).toHaveLength(3);
  });
});
