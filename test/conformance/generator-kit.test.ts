/**
 * The generator cases of the conformance kit (`conformance/generator/cases.json`), run against
 * aicap's OpenAPI generator: each case is an OpenAPI document in and what the manifest out must be.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { generateManifest } from '../../src/openapi/index.js';
import { canonicalJson } from '../../src/manifest/digest-manifest.js';

/** One case: a document, and either the document whose manifest it must equal or the refusal it must cause. */
interface GeneratorCase {
  id: string;
  description: string;
  spec_section: string;
  level: 'MUST' | 'SHOULD';
  openapi: Record<string, unknown>;
  expect: { ok: true; same_manifest_as: Record<string, unknown> } | { ok: false; error_mentions: string };
}

const cases = JSON.parse(readFileSync(new URL('../../conformance/generator/cases.json', import.meta.url), 'utf8')) as GeneratorCase[];

async function outcomeOf(document: Record<string, unknown>): Promise<{ ok: true; manifest: string } | { ok: false; message: string }> {
  return generateManifest({ input: structuredClone(document) }).then(
    (result) => ({ ok: true as const, manifest: canonicalJson(result.manifest) }),
    (error: unknown) => ({ ok: false as const, message: error instanceof Error ? error.message : String(error) }),
  );
}

/** Runs one case; throws the first expectation it misses. */
async function runCase(kitCase: GeneratorCase): Promise<void> {
  const outcome = await outcomeOf(kitCase.openapi);
  expect(outcome.ok, outcome.ok ? '' : outcome.message).toBe(kitCase.expect.ok);
  if (kitCase.expect.ok) {
    const reference = await outcomeOf(kitCase.expect.same_manifest_as);
    expect(reference.ok).toBe(true);
    expect(outcome.ok && outcome.manifest, 'the manifest differs from the one generated without the extensions').toBe(reference.ok && reference.manifest);
  } else {
    expect(outcome.ok ? '' : outcome.message).toContain(kitCase.expect.error_mentions);
  }
}

describe('the generator cases of the conformance kit, against aicap/openapi', () => {
  it.each(cases.map((kitCase) => [kitCase.id, kitCase] as const))('%s', async (_id, kitCase) => {
    await runCase(kitCase);
  });
});

describe('the generator cases catch a generator broken on purpose', () => {
  it('generator.unknown_extensions_ignored is not vacuous: a manifest that differs in anything fails it', async () => {
    const kitCase = structuredClone(cases.find((candidate) => candidate.id === 'generator.unknown_extensions_ignored')!);
    // A different intent on the extended side stands for a generator that let an extension change the manifest.
    (kitCase.openapi['paths'] as Record<string, Record<string, Record<string, unknown>>>)['/items/{item_id}']!['get']!['x-ai-intent'] = 'User asks about a vendor extension';
    await expect(runCase(kitCase)).rejects.toThrow(/the manifest differs/);
  });

  it('generator.exclude_not_boolean_refused fails a generator that reads the string "true" as a boolean', async () => {
    const kitCase = structuredClone(cases.find((candidate) => candidate.id === 'generator.exclude_not_boolean_refused')!);
    (kitCase.openapi['paths'] as Record<string, Record<string, Record<string, unknown>>>)['/items']!['post']!['x-ai-exclude'] = true;
    await expect(runCase(kitCase)).rejects.toThrow(/expected true to be false/);
  });
});
