import { mkdtempSync, mkdirSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createTransformersEmbedder } from './create-transformers-embedder.js';

const directory = mkdtempSync(join(tmpdir(), 'aicap-models-'));
mkdirSync(join(directory, 'all-MiniLM-L6-v2'));
afterAll(() => rmSync(directory, { recursive: true, force: true }));

function peerInstalled(): boolean {
  try {
    createRequire(import.meta.url).resolve('@huggingface/transformers');
    return true;
  } catch {
    return false;
  }
}

describe('createTransformersEmbedder', () => {
  it('refuses a model folder that does not exist, naming where it looked', async () => {
    await expect(createTransformersEmbedder({ modelDirectory: directory, model: 'missing-model' })(['hello'])).rejects.toMatchObject({
      code: 'INVALID_OPTION',
      message: expect.stringContaining(join(directory, 'missing-model')),
    });
    expect(() => createTransformersEmbedder({ modelDirectory: '' })).toThrow(expect.objectContaining({ code: 'INVALID_OPTION', message: expect.stringContaining('modelDirectory') }));
  });

  it.skipIf(peerInstalled())('loads nothing until asked; without the optional peer the first call says what to install, and so does the next', async () => {
    const embed = createTransformersEmbedder({ modelDirectory: directory });
    for (let attempt = 0; attempt < 2; attempt++) {
      await expect(embed(['hello'])).rejects.toMatchObject({ code: 'DEPENDENCY_MISSING', message: expect.stringContaining('npm install @huggingface/transformers') });
    }
  });
});
