/**
 * The fast manifest reader, canonical digest (from the value and from the body bytes) and poisoning
 * scan against their reference versions on real manifests (generated here from the OpenAPI descriptions in ../shared/corpus): the same values,
 * byte-identical canonical text and digests, and the same findings (plus the control characters the
 * scan newly flags).
 */
import { existsSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import canonicalize from 'canonicalize';
import { describe, expect, it } from 'vitest';
import { quarantinedToolIds } from '../../src/client/trust/evaluate-trust.js';
import { scanManifest } from '../../src/manifest/scan-manifest.js';
import { canonicalJson, canonicalJsonOfParsed, digestManifest, digestParsedBody, digestText, digestTool } from '../../src/manifest/digest-manifest.js';
import type { Manifest } from '../../src/manifest/manifest-v0.js';
import { parseJsonDocument, readJsonDocument } from '../../src/manifest/parse-json-document.js';
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

/** Whether a canonical text holds a form `readJsonDocument` does not vouch for: an escape, an exponent, more digits than a double keeps, an array-index member beside others. */
function unvouchedForm(canonical: string): boolean {
  // A `\u` escape: after an even run of backslashes (an odd one ends in an escaped backslash).
  if (/(?<!\\)(?:\\\\)*\\u/.test(canonical) || /[:,[]-?\d+(?:\.\d+)?e/.test(canonical)) return true;
  const found = (value: unknown): boolean => {
    if (typeof value === 'number')
      return (
        !Number.isSafeInteger(value) &&
        String(value)
          .replace(/^-?[0.]*/, '')
          .replace('.', '').length > 15
      );
    if (Array.isArray(value)) return value.some(found);
    if (typeof value !== 'object' || value === null) return false;
    const keys = Object.keys(value);
    return (keys.length > 1 && keys.some((key) => /^(?:0|[1-9]\d*)$/.test(key))) || Object.values(value).some(found);
  };
  return found(JSON.parse(canonical));
}

describe.skipIf(!available)(`manifest reading, digest and scan match their reference versions (${available ? corpus : 'skipped: ../shared/corpus is absent next to the repository'})`, () => {
  it.each(files())(
    '%s',
    async (file) => {
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
        const body = new TextEncoder().encode(text);
        const reading = readJsonDocument(body, { maxSizeInBytes: 100_000_000 });
        expect(digestParsedBody(body, reading)).toBe(digestText(canonical));
        // Served canonical, a real manifest's bytes are hashed as they are, unless it holds one of the forms the reader cannot vouch for.
        const canonicalBody = new TextEncoder().encode(canonical);
        const canonicalReading = readJsonDocument(canonicalBody, { maxSizeInBytes: 100_000_000 });
        expect(canonicalReading.textIsCanonical).toBe(!unvouchedForm(canonical));
        // Pretty-printed, never.
        if (text !== JSON.stringify(manifest)) expect(reading.textIsCanonical).toBe(false);
        expect(digestParsedBody(canonicalBody, canonicalReading)).toBe(digestText(canonical));
        for (const tool of value.tools) expect(digestTool(tool)).toBe(digestText(canonicalize(tool)!));
        const findings = scanManifest(value).findings;
        // No false quarantine with the default options: no tool of an honest real API has a high finding.
        expect(quarantinedToolIds(undefined, '', findings)).toEqual([]);
        const expected = referenceScanManifest(value).findings;
        expect(comparable(findings)).toEqual(comparable(expected));
        const flagged = new Set(findings.filter((finding) => finding.code === 'text.control_character').map((finding) => finding.pointer));
        for (const finding of expected.filter((candidate) => candidate.code === 'text.control_character')) expect(flagged).toContain(finding.pointer);
      }
    },
    120_000,
  );
});
