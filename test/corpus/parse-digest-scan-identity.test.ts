/**
 * The fast manifest reader, canonical digest and poisoning scan against their reference versions on
 * real manifests (generated here from the OpenAPI descriptions in ../shared/corpus): the same values,
 * byte-identical canonical text and digests, and the same findings (plus the control characters the
 * scan newly flags).
 */
import { existsSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import canonicalize from 'canonicalize';
import { describe, expect, it } from 'vitest';
import { scanManifest } from '../../src/client/trust/scan-manifest.js';
import { canonicalJson, canonicalJsonOfParsed, digestManifest, digestText, digestTool } from '../../src/manifest/digest-manifest.js';
import type { Manifest } from '../../src/manifest/manifest-v0.js';
import { parseJsonDocument } from '../../src/manifest/parse-manifest.js';
import { StrictJsonParser } from '../../src/manifest/strict-json-parser.js';
import { generateManifest } from '../../src/openapi/index.js';
import { referenceScanManifest } from '../helpers/reference-scan-manifest.js';

const corpus = resolve(import.meta.dirname, '../../../shared/corpus');
const available = existsSync(join(corpus, 'medium'));
// The big descriptions that generate quickly enough for a test, GitHub being the one the client is measured on.
const BIG = ['slack-web-openapi-v2.json', 'github-api.github.com-2020-07.json'];

function files(): string[] {
  if (!available) return [];
  const medium = readdirSync(join(corpus, 'medium'))
    .filter((name) => /\.(json|ya?ml)$/.test(name))
    .map((name) => join('medium', name));
  return [...medium, ...BIG.filter((name) => existsSync(join(corpus, 'big', name))).map((name) => join('big', name))];
}

type Findings = ReturnType<typeof scanManifest>['findings'];
// What the reference scan never reported: control characters (newly flagged) and the copies of a shared
// definition's finding for each tool that reaches it (spec v0.2; the original, without a tool, stays).
const comparable = (findings: Findings): Findings =>
  findings.filter((finding) => finding.code !== 'text.control_character' && !(finding.pointer.startsWith('/definitions/') && finding.toolId !== undefined));

describe.skipIf(!available)(`manifest reading, digest and scan match their reference versions (${available ? corpus : 'skipped: ../shared/corpus is absent next to the repository'})`, () => {
  it.each(files())('%s', async (file) => {
    const { manifest } = await generateManifest({ input: join(corpus, file), strict: false, refRoot: corpus });
    for (const text of [JSON.stringify(manifest), JSON.stringify(manifest, null, 2)]) {
      const value = parseJsonDocument(text, { maxSizeInBytes: 100_000_000 }) as Manifest;
      const reference = new StrictJsonParser(text, 64).parseDocument();
      expect(value).toEqual(reference);
      expect(JSON.stringify(value)).toBe(JSON.stringify(reference));
      const canonical = canonicalize(value)!;
      expect(canonicalJson(value)).toBe(canonical);
      expect(canonicalJsonOfParsed(value)).toBe(canonical);
      expect(canonicalJsonOfParsed(JSON.parse(canonical))).toBe(canonical);
      expect(digestManifest(value)).toBe(digestText(canonical));
      for (const tool of value.tools) expect(digestTool(tool)).toBe(digestText(canonicalize(tool)!));
      const findings = scanManifest(value).findings;
      const expected = referenceScanManifest(value).findings;
      expect(comparable(findings)).toEqual(comparable(expected));
      const flagged = new Set(findings.filter((finding) => finding.code === 'text.control_character').map((finding) => finding.pointer));
      for (const finding of expected.filter((candidate) => candidate.code === 'text.control_character')) expect(flagged).toContain(finding.pointer);
    }
  }, 120_000);
});
