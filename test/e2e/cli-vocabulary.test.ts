/**
 * A CLI user reads flags, never the library's options: whatever the client raises, what the CLI
 * prints names no `createClient`, `agentId`, `includeDeprecated: true` or `strict: false`. Every error
 * code with every option an error can carry goes through the CLI's message path; the three messages
 * the newcomer review met come from the built CLI against real loopback servers. A missing required
 * flag or argument is a usage error: exit 2.
 */
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AicapError, type AicapErrorCode } from '../../src/errors/aicap-error.js';
import { cliAdvice, cliErrorMessage } from '../../src/cli/cli-error-message.js';
import { json, startClientTestServer, type ClientTestServer } from '../helpers/client-test-server.js';
import { BUILT_CLI, runBuiltCli } from '../helpers/run-built-cli.js';
import { startExampleProcess, type ExampleProcess } from '../helpers/start-example-process.js';
import { existsSync } from 'node:fs';

const LIBRARY_VOCABULARY = /createClient|agentId|includeDeprecated: true|strict: false/;

const CODES: AicapErrorCode[] = [
  'MANIFEST_PARSE_FAILED',
  'MANIFEST_INVALID',
  'MANIFEST_UNSUPPORTED_VERSION',
  'MANIFEST_SECRET_DETECTED',
  'DISCOVERY_FAILED',
  'HTTP_ERROR',
  'TIMEOUT',
  'NETWORK_ERROR',
  'RESPONSE_TOO_LARGE',
  'CONTENT_ENCODING_REFUSED',
  'SSRF_BLOCKED',
  'ORIGIN_MISMATCH',
  'REDIRECT_BLOCKED',
  'TRUST_FAILED',
  'TOOL_NOT_FOUND',
  'TOOL_DISABLED',
  'INVALID_ARGUMENTS',
  'APPROVAL_REQUIRED',
  'APPROVAL_DENIED',
  'BUDGET_EXCEEDED',
  'AUTH_FAILED',
  'INSUFFICIENT_SCOPE',
  'JOB_FAILED',
  'OPENAPI_INVALID',
  'INVALID_OPTION',
  'INVALID_ARGUMENT',
  'INVALID_CONFIGURATION',
  'DEPENDENCY_MISSING',
  'INPUT_UNREADABLE',
  'STORE_UNAVAILABLE',
  'ABORTED',
];

/** How the library words advice about each option a CLI flag sets (as the errors and warnings of src/ write it). */
const LIBRARY_ADVICE: ReadonlyArray<readonly [option: string, text: string]> = [
  ['agentId', 'http://127.0.0.1:3000 requires an agent id on every call, and none is set; pass `agentId` to createClient. Nothing was sent.'],
  ['includeDeprecated', 'payments: 3 deprecated tool(s) hidden; pass `includeDeprecated: true` to show them'],
  ['strict', 'x.yaml: is not a valid OpenAPI description: duplicated operationId. Fix the description, or pass `strict: false` (CLI --lenient) to generate anyway'],
];

const built = existsSync(BUILT_CLI);

describe('library vocabulary never reaches a CLI user', () => {
  it('for every error code, with the option the error carries or with none', () => {
    for (const code of CODES) {
      for (const [option, text] of LIBRARY_ADVICE) {
        for (const carried of [option, undefined]) {
          const line = cliErrorMessage(new AicapError(code, text, carried === undefined ? {} : { option: carried }));
          expect(line, `${code} / ${String(carried)}`).not.toMatch(LIBRARY_VOCABULARY);
        }
        expect(cliAdvice(text, option)).not.toMatch(LIBRARY_VOCABULARY);
        expect(cliAdvice(text)).not.toMatch(LIBRARY_VOCABULARY);
      }
    }
  });
});

describe.skipIf(!built)('library vocabulary, from the built CLI', () => {
  let payments: ExampleProcess;
  let origin: string;
  let server: ClientTestServer;

  beforeAll(async () => {
    payments = startExampleProcess({ env: { PORT: '0' } });
    origin = (await payments.firstLine).trim();
    server = await startClientTestServer();
    const tools = [
      { id: 'list_things', path: '/things', method: 'GET', description: 'Lists things' },
      { id: 'list_things_old', path: '/things-old', method: 'GET', description: 'Lists things the old way', deprecated: true },
    ];
    server.routes.set('/.well-known/ai-capabilities', json({ schema_version: '0.2.0', service: { name: 'Things', base_url: `${server.origin}/v1` }, tools }));
  }, 30_000);

  afterAll(async () => {
    await payments?.stop();
    await server?.close();
  });

  it('aicap call without --agent-id, where the API requires one: exit 2 naming --agent-id', async () => {
    const run = await runBuiltCli(['call', origin, 'list_transactions', '{"account_id":"12345"}', '--token', 'demo-read']);
    expect(run.code, run.stderr).toBe(2);
    expect(run.stderr).toContain('--agent-id');
    expect(run.stderr + run.stdout).not.toMatch(LIBRARY_VOCABULARY);
  });

  it('aicap tools with deprecated tools hidden names --include-deprecated', async () => {
    const run = await runBuiltCli(['tools', server.origin]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain('--include-deprecated');
    expect(run.stderr).not.toMatch(LIBRARY_VOCABULARY);
  });

  it('aicap generate of a description with a duplicated operationId names --lenient', async () => {
    const directory = await mkdtemp(join(tmpdir(), 'aicap-vocabulary-'));
    const file = join(directory, 'openapi.json');
    const operation = { operationId: 'getThing', responses: { '200': { description: 'ok' } } };
    await writeFile(
      file,
      JSON.stringify({ openapi: '3.0.3', info: { title: 'Things', version: '1' }, servers: [{ url: 'https://things.example.com' }], paths: { '/a': { get: operation }, '/b': { get: operation } } }),
    );
    const run = await runBuiltCli(['generate', file, '-o', join(directory, 'out.json')], { timeoutInMs: 60_000 });
    expect(run.code, run.stderr).toBe(2);
    expect(run.stderr).toContain('--lenient');
    expect(run.stderr).not.toMatch(LIBRARY_VOCABULARY);
  }, 90_000);

  it('a missing required argument is a usage error (exit 2) that names what is missing', async () => {
    for (const args of [['call'], ['call', origin], ['generate'], ['check']]) {
      const run = await runBuiltCli(args);
      expect(run.code, `${args.join(' ')}: ${run.stderr}`).toBe(2);
      expect(run.stderr, args.join(' ')).toMatch(/missing|Usage/i);
      expect(run.stderr).not.toMatch(LIBRARY_VOCABULARY);
    }
  });
});
