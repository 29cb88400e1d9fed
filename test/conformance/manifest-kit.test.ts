import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseManifest } from '../../src/manifest/parse-manifest.js';
import { buildManifestCases, type ManifestCase } from './manifest-cases.js';

const directory = new URL('../../conformance/manifests/', import.meta.url);

function committedCases(): Array<[string, ManifestCase]> {
  return readdirSync(directory)
    .filter((name) => name.endsWith('.json'))
    .flatMap((name) => (JSON.parse(readFileSync(new URL(name, directory), 'utf8')) as ManifestCase[]).map((entry): [string, ManifestCase] => [`${name} ${entry.id}`, entry]));
}

function bytesOf(entry: ManifestCase): string | Uint8Array {
  if (entry.manifest_base64 !== undefined) return Buffer.from(entry.manifest_base64, 'base64');
  return entry.manifest_text ?? JSON.stringify(entry.manifest);
}

describe('the manifest cases of the conformance kit', () => {
  const built = buildManifestCases();

  it.each([...built.keys()])('conformance/manifests/%s is up to date with manifest-cases.ts', async (name) => {
    await expect(`${JSON.stringify(built.get(name), null, 2)}\n`).toMatchFileSnapshot(`../../conformance/manifests/${name}`);
  });

  it.each(committedCases())('%s: parseManifest agrees', (_name, entry) => {
    const result = parseManifest(bytesOf(entry));
    const found = result.issues.map(({ code, pointer, severity }) => ({ code, pointer, severity }));
    expect(result.valid).toBe(entry.valid);
    // Exactly the expected findings: a second implementation is held to the same list.
    expect(found).toEqual(expect.arrayContaining(entry.issues));
    expect(found.length).toBe(entry.issues.length);
  });

  it('gives every case a unique id', () => {
    const ids = committedCases().map(([, entry]) => entry.id);
    expect(new Set(ids).size).toBe(ids.length);
  });
});
