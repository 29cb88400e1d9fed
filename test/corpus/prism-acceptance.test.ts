// Invocation that real APIs accept: each big corpus API's generated manifest is called tool by tool
// through `client.call`, with arguments generated from each tool's arguments schema (seeded; one pass
// with required fields only, one with every field), and Stoplight Prism, mocking the provider's own
// description, judges each request. Every rejection must be listed, with its reason, in
// prism-rejections.json; an unlisted one fails the test, and so does a listed one that went away.
// The default run calls a seeded sample of each API's tools (AICAP_PRISM_SAMPLE, default 16);
// AICAP_PRISM_FULL=1 calls every tool. AICAP_PRISM_RECORD=1 writes what was observed into the file.
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import jsf from 'json-schema-faker';
import { afterAll, describe, expect, it } from 'vitest';
import { createClient, type OriginCredentials } from '../../src/client/index.js';
import { argumentsSchema } from '../../src/manifest/arguments-schema.js';
import type { Manifest, Tool } from '../../src/manifest/manifest-v0.js';
import { generateManifest } from '../../src/openapi/index.js';
import { startPrismMock } from '../helpers/prism-mock.js';
import { startPrismRecorder } from '../helpers/prism-recorder.js';
import { trimOpenApiDescription } from '../helpers/trim-openapi-description.js';

const corpus = resolve(import.meta.dirname, '../../../shared/corpus/big');
const available = existsSync(corpus);
if (!available) console.warn(`Skipping the Prism acceptance suite: ${corpus} is absent (the shared corpus is not beside this checkout).`);

const REJECTIONS_FILE = join(import.meta.dirname, 'prism-rejections.json');
const FULL = process.env['AICAP_PRISM_FULL'] === '1';
const RECORD = process.env['AICAP_PRISM_RECORD'] === '1';
const SAMPLE_SIZE = Number(process.env['AICAP_PRISM_SAMPLE'] ?? 16);
const SEED_ATTEMPTS = 6;
const PASSES = ['required', 'all'] as const;
type Pass = (typeof PASSES)[number];

/**
 * `{ api: { pass: { toolId: reason } } }`: every rejection the suite expects, and why. A reason that
 * starts with `oracle:` is Prism's fault (aicap sends what the description says); any other is aicap's.
 */
type Rejections = Record<string, Record<Pass, Record<string, string>>>;

interface CorpusApi {
  name: string;
  file: string;
  credentials: OriginCredentials | undefined;
  /** Stripe's response schemas keep Prism loading for minutes even for a few operations: stubbed. */
  stubResponses: boolean;
}

const APIS: CorpusApi[] = [
  { name: 'github', file: 'github-api.github.com-2020-07.json', credentials: undefined, stubResponses: false },
  { name: 'stripe', file: 'stripe-spec3-2022-04.json', credentials: { token: 'sk_test_dummy123' }, stubResponses: true },
  { name: 'slack', file: 'slack-web-openapi-v2.json', credentials: { token: 'xoxb-dummy-123' }, stubResponses: false },
  { name: 'twilio', file: 'twilio-api-v2010.json', credentials: { username: 'AC0123456789abcdef0123456789abcdef', password: 'dummy-token-123' }, stubResponses: false },
];

/** mulberry32: a small seeded generator, so every run sends the same arguments. */
function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let value = state;
    value = Math.imul(value ^ (value >>> 15), value | 1);
    value ^= value + Math.imul(value ^ (value >>> 7), value | 61);
    return ((value ^ (value >>> 14)) >>> 0) / 4_294_967_296;
  };
}

function hashOf(text: string): number {
  let hash = 2_166_136_261;
  for (let index = 0; index < text.length; index++) hash = Math.imul(hash ^ text.charCodeAt(index), 16_777_619);
  return hash >>> 0;
}

/** A seeded sample spread over the tools (all of them with AICAP_PRISM_FULL=1). */
function sampleTools(tools: Tool[], api: string): Tool[] {
  if (FULL || tools.length <= SAMPLE_SIZE) return tools;
  return [...tools].sort((a, b) => hashOf(`${api}:${a.id}`) - hashOf(`${api}:${b.id}`)).slice(0, SAMPLE_SIZE);
}

function argumentsFor(tool: Tool, manifest: Manifest, pass: Pass, seed: number): Record<string, unknown> {
  jsf.option({
    requiredOnly: pass === 'required',
    alwaysFakeOptionals: pass === 'all',
    random: seededRandom(seed),
    failOnInvalidTypes: false,
    failOnInvalidFormat: false,
    maxItems: 3,
    maxLength: 40,
    useExamplesValue: false,
    useDefaultValue: false,
    fixedProbabilities: true,
    ignoreMissingRefs: true,
  });
  const schema = argumentsSchema(tool, { definitions: manifest.definitions });
  return jsf.generate(schema as Parameters<typeof jsf.generate>[0]) as Record<string, unknown>;
}

function reasonOf(status: number, violations: Array<{ location?: string[]; message?: string }>): string {
  const details = violations.map((violation) => `${(violation.location ?? []).join('.')}: ${violation.message ?? ''}`.trim());
  return `${status} ${[...new Set(details)].join('; ')}`.slice(0, 400);
}

const observed: Rejections = {};
const listed: Rejections = existsSync(REJECTIONS_FILE) ? (JSON.parse(readFileSync(REJECTIONS_FILE, 'utf8')) as Rejections) : {};

afterAll(() => {
  if (!RECORD) return;
  const merged: Rejections = structuredClone(listed);
  for (const [api, passes] of Object.entries(observed)) {
    for (const pass of PASSES) {
      const entries = { ...merged[api]?.[pass] };
      for (const toolId of Object.keys(passes[pass] ?? {})) entries[toolId] = listed[api]?.[pass]?.[toolId] ?? passes[pass][toolId]!;
      merged[api] = { ...merged[api], [pass]: entries } as Record<Pass, Record<string, string>>;
    }
  }
  writeFileSync(REJECTIONS_FILE, `${JSON.stringify(merged, null, 2)}\n`);
});

describe.skipIf(!available)('real APIs accept the calls aicap makes (Prism judges each request against the provider description)', () => {
  for (const api of APIS) {
    it(`${api.name}: ≥ 99 % of calls accepted on both passes, every rejection listed`, { timeout: FULL ? 3_600_000 : 420_000 }, async () => {
      const descriptionPath = join(corpus, api.file);
      const { manifest } = await generateManifest({ input: descriptionPath });
      const tools = sampleTools(manifest.tools, api.name);
      const description = JSON.parse(readFileSync(descriptionPath, 'utf8')) as Record<string, unknown>;
      const trimmedPath = join(mkdtempSync(join(tmpdir(), `aicap-prism-${api.name}-`)), 'description.json');
      writeFileSync(
        trimmedPath,
        JSON.stringify(
          trimOpenApiDescription(
            description,
            tools.map((tool) => ({ path: tool.path, method: tool.method })),
            { stubResponses: api.stubResponses },
          ),
        ),
      );
      const loadStarted = performance.now();
      const prism = await startPrismMock({ descriptionPath: trimmedPath, startTimeoutInMs: 180_000 });
      const loadInMs = performance.now() - loadStarted;
      const recorder = await startPrismRecorder({ ...manifest, tools }, prism.origin, 20_000);
      const client = createClient({ approve: () => true, retry: { limit: 0, totalTimeoutInMs: 20_000 }, cache: false });
      const rejected: Record<Pass, Record<string, string>> = { required: {}, all: {} };
      const counts: Record<Pass, { sent: number; accepted: number; generationFailed: number }> = {
        required: { sent: 0, accepted: 0, generationFailed: 0 },
        all: { sent: 0, accepted: 0, generationFailed: 0 },
      };
      try {
        await client.discover(recorder.origin, api.credentials === undefined ? {} : { credentials: api.credentials });
        for (const pass of PASSES) {
          for (const tool of tools) {
            let outcome: { accepted: boolean; reason: string } | undefined;
            for (let attempt = 0; attempt < SEED_ATTEMPTS && outcome === undefined; attempt++) {
              const args = argumentsFor(tool, manifest, pass, hashOf(`${api.name}:${tool.id}:${pass}:${attempt}`));
              recorder.verdicts.length = 0;
              const envelope = await client.call(tool.id, args);
              // The generator broke the schema (a format, an enum under allOf): another seed.
              if (envelope.error?.code === 'INVALID_ARGUMENTS') continue;
              const verdict = recorder.verdicts.at(-1);
              if (verdict === undefined) outcome = { accepted: false, reason: `aicap sent nothing: ${envelope.error?.code ?? ''} ${envelope.error?.message ?? ''}`.slice(0, 400) };
              else outcome = { accepted: verdict.status > 0 && verdict.status < 400 && verdict.violations.length === 0, reason: reasonOf(verdict.status, verdict.violations) };
              // The request itself, for whoever has to explain a rejection.
              if (verdict !== undefined && !outcome.accepted)
                console.log(
                  `prism ${api.name} ${pass} rejected ${tool.id}: ${verdict.method} ${verdict.target} content-type ${String(verdict.requestHeaders['content-type'])}\n  ${verdict.requestBody.slice(0, 1_500)}`,
                );
            }
            if (outcome === undefined) {
              counts[pass].generationFailed++;
              continue;
            }
            counts[pass].sent++;
            if (outcome.accepted) counts[pass].accepted++;
            else rejected[pass][tool.id] = outcome.reason;
          }
        }
      } finally {
        await client.close();
        await recorder.close();
        await prism.close();
      }
      observed[api.name] = rejected;
      for (const pass of PASSES) {
        const { sent, accepted, generationFailed } = counts[pass];
        console.log(
          `prism ${api.name} ${pass}: ${accepted}/${sent} accepted (${((100 * accepted) / Math.max(sent, 1)).toFixed(1)} %), ${generationFailed} without schema-valid arguments; ${tools.length} of ${manifest.tools.length} tools; Prism loaded in ${Math.round(loadInMs)} ms`,
        );
      }
      const sampled = new Set(tools.map((tool) => tool.id));
      for (const pass of PASSES) {
        // Oracle exceptions (Prism wrong, aicap right) count as accepted; aicap's own faults do not.
        const faults = Object.keys(rejected[pass]).filter((toolId) => !(listed[api.name]?.[pass]?.[toolId] ?? '').startsWith('oracle:')).length;
        expect((counts[pass].sent - faults) / Math.max(counts[pass].sent, 1), `${api.name} ${pass}: share of calls accepted or rejected by an oracle bug`).toBeGreaterThanOrEqual(0.99);
      }
      for (const pass of PASSES) {
        const expected = Object.fromEntries(Object.entries(listed[api.name]?.[pass] ?? {}).filter(([toolId]) => sampled.has(toolId)));
        // A new rejection is a regression. A listed aicap fault that disappears is a stale entry; a
        // listed oracle fault may not show (whether Prism trips over a generated value depends on
        // the value: its reserved-character check on multipart parts, for one), so it may be absent.
        const unlisted = Object.keys(rejected[pass]).filter((toolId) => expected[toolId] === undefined);
        const stale = Object.entries(expected)
          .filter(([toolId, reason]) => rejected[pass][toolId] === undefined && !reason.startsWith('oracle:'))
          .map(([toolId]) => toolId);
        expect({ unlisted, stale }, `${api.name} ${pass}: rejections (observed: ${JSON.stringify(rejected[pass], null, 1)})`).toEqual({ unlisted: [], stale: [] });
      }
    });
  }
});
