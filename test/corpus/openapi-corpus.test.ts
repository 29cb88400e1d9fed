/**
 * Runs the generator on every OpenAPI-like document of the shared corpus (real public
 * descriptions, see ../shared/corpus/SOURCES.md): a valid description yields a valid manifest, a
 * broken one a clear OPENAPI_INVALID error, and nothing crashes or hangs.
 */
import { existsSync, readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { AicapError } from '../../src/errors/aicap-error.js';
import { argumentsSchema } from '../../src/manifest/arguments-schema.js';
import { checkEmbeddedSchema } from '../../src/manifest/check-embedded-schema.js';
import { canonicalJson } from '../../src/manifest/digest-manifest.js';
import type { Manifest } from '../../src/manifest/manifest-v0.js';
import { parseManifest } from '../../src/manifest/parse-manifest.js';
import { validateManifest } from '../../src/manifest/validate-manifest.js';
import { generateManifest } from '../../src/openapi/index.js';
import { createManifestHandler } from '../../src/server/create-manifest-handler.js';

const repositoryRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const corpus = resolve(repositoryRoot, '../shared/corpus');
const available = existsSync(join(corpus, 'index.json'));
const PER_FILE_TIMEOUT_IN_MS = 120_000;

interface CorpusEntry {
  file: string;
  kind: string;
}

type Expectation = 'manifest' | 'lenient' | 'error';

// Kinds that are (or pretend to be) API descriptions; agent cards, MCP captures and JSON Schema meta-schemas are not.
const DESCRIPTION_KINDS = new Set(['openapi', 'not-openapi', 'empty', 'asyncapi', 'html']);

// Real descriptions that break the OpenAPI specification: strict generation must refuse them with
// the validator's finding, lenient generation must still produce a valid manifest.
const LENIENT: Record<string, string> = {
  'edge/swagger-parser-fixtures/validate-spec/valid/only-validate-required-properties-on-objects.yaml': 'the validator checks `required` on an array schema (a false positive we do not override)',
  'ai-plugins/openai-plugin-store-2023-08/api_speak_com__speak.api.yaml': '`required: true` on schema properties',
  'ai-plugins/openai-plugin-store-2023-08/doctors-lc_jp__dlc.api.yaml': '`required: false` on schema properties',
  'ai-plugins/openai-plugin-store-2023-08/kalendar_ai__KalendarAI.api.yaml': 'duplicate operationId',
  'ai-plugins/openai-plugin-store-2023-08/llamawrapper-prod_onrender_com__defillama.api.yaml': 'duplicate operationId',
  'ai-plugins/openai-plugin-store-2023-08/mojito_copilot_us__mojito.api.json': 'duplicate operationId',
  'ai-plugins/openai-plugin-store-2023-08/scholar-ai_net__scholarai.api.json': 'schema type "list"',
  'ai-plugins/openai-plugin-store-2023-08/trip_com__Trip.api.yaml': 'schema type "date"',
  'ai-plugins/openai-plugin-store-2023-08/zapier_com__Zapier.api.json': '`examples` where 3.0 allows none',
};

// Broken outside the fail/ and invalid/ folders.
const ERROR: Record<string, string> = {
  'edge/swagger-parser-fixtures/unknown/unknown.yaml': 'references files the fixture does not ship',
  'edge/swagger-parser-fixtures/callbacks-promises/callbacks-promises-error.yaml': '"swagger": "ERROR"',
  'ai-plugins/openai-plugin-store-2023-08/plugin_daizy_com__DAIZY.api.yaml': '$refs to another host, which a file description may not follow',
};

function pathOf(entry: CorpusEntry): string {
  // The multi-file description is listed by folder, with its root in parentheses.
  const root = /^(.*?)\s*\(root:\s*([^)]+)\)/.exec(entry.file);
  return root ? join(root[1]!, root[2]!.trim()) : entry.file;
}

function expectationOf(entry: CorpusEntry, path: string): Expectation {
  if (LENIENT[path]) return 'lenient';
  if (ERROR[path] || entry.kind !== 'openapi' || /\/(fail|invalid)\//.test(path)) return 'error';
  return 'manifest';
}

function withTimeout<T>(promise: Promise<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not finish within ${PER_FILE_TIMEOUT_IN_MS} ms (a hang)`)), PER_FILE_TIMEOUT_IN_MS);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

const entries: Array<[string, Expectation]> = available
  ? (JSON.parse(readFileSync(join(corpus, 'index.json'), 'utf8')) as CorpusEntry[])
      .filter((entry) => DESCRIPTION_KINDS.has(entry.kind))
      .map((entry) => [pathOf(entry), expectationOf(entry, pathOf(entry))] as [string, Expectation])
  : [];

describe.skipIf(!available)(`OpenAPI corpus (${available ? corpus : 'skipped: ../shared/corpus is absent next to the repository'})`, () => {
  it('has descriptions of every expected outcome', () => {
    const counts = { manifest: 0, lenient: 0, error: 0 };
    for (const [, expectation] of entries) counts[expectation]++;
    expect(counts.manifest).toBeGreaterThan(100);
    expect(counts.lenient).toBe(Object.keys(LENIENT).length);
    expect(counts.error).toBeGreaterThan(50);
  });

  it.each(entries)(
    '%s → %s',
    async (path, expectation) => {
      const input = join(corpus, path);
      const generate = (strict: boolean) => withTimeout(generateManifest({ input, strict, refRoot: corpus }), path);
      if (expectation === 'manifest') {
        const { manifest } = await generate(true);
        expectServable(manifest);
        return;
      }
      const error: unknown = await generate(true).then(
        () => undefined,
        (thrown: unknown) => thrown,
      );
      // A clear typed error that names the file (or the file a $ref reached), never a crash.
      expect(AicapError.isInstance(error), `expected OPENAPI_INVALID, got ${String(error)}`).toBe(true);
      expect(error).toMatchObject({ code: 'OPENAPI_INVALID', message: expect.stringContaining(corpus) });
      if (expectation === 'lenient') {
        const { manifest, warnings } = await generate(false);
        expectServable(manifest);
        expect(warnings.some((warning) => warning.code === 'openapi.invalid')).toBe(true);
      }
    },
    PER_FILE_TIMEOUT_IN_MS * 2,
  );
});

/** What every generated manifest must be: valid with the validator's defaults and accepted by the server (no secret-looking values). */
function expectServable(manifest: Manifest): void {
  expect(validateManifest(manifest).issues.filter((issue) => issue.severity === 'error')).toEqual([]);
  expect(() => createManifestHandler({ manifest })).not.toThrow();
}

// The big real APIs the scale acceptance names: generated with the defaults, each must be no larger
// than its own description, pass every default limit, and compress below 1 MiB on the wire.
const BIG = ['github-api.github.com-2020-07.json', 'kubernetes-swagger.json', 'stripe-spec3-2022-04.json'];

describe.skipIf(!available)(`big APIs at scale (${available ? 'corpus/big' : 'skipped: ../shared/corpus is absent next to the repository'})`, () => {
  it.each(BIG)(
    '%s: compact manifest ≤ compact description, default validator, parser and server accept it, gzip < 1 MiB, every tool callable',
    async (file) => {
      const input = join(corpus, 'big', file);
      const { manifest } = await withTimeout(generateManifest({ input }), file);
      const compact = JSON.stringify(manifest);
      const description = JSON.stringify(JSON.parse(readFileSync(input, 'utf8')));
      expect(Buffer.byteLength(compact)).toBeLessThanOrEqual(Buffer.byteLength(description));
      expectServable(manifest);
      expect(parseManifest(compact).valid).toBe(true);
      expect(parseManifest(JSON.stringify(manifest, null, 2)).valid).toBe(true);
      expect(gzipSync(canonicalJson(manifest)).length).toBeLessThan(1_048_576);
      // The client refuses a tool whose arguments schema breaks the embedded-schema limits; none may.
      const disabled = manifest.tools.filter((tool) => checkEmbeddedSchema(argumentsSchema(tool, { definitions: manifest.definitions }), '').length > 0).map((tool) => tool.id);
      expect(disabled).toEqual([]);
    },
    PER_FILE_TIMEOUT_IN_MS * 2,
  );
});
