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
import { optionTerm, worded } from '../../src/errors/message-term.js';
import { json, startClientTestServer, type ClientTestServer } from '../helpers/client-test-server.js';
import { BUILT_CLI, runBuiltCli } from '../helpers/run-built-cli.js';
import { startExampleProcess, type ExampleProcess } from '../helpers/start-example-process.js';
import { existsSync } from 'node:fs';

const LIBRARY_VOCABULARY = /createClient|agentId|includeDeprecated: true|strict: false|network\.timeouts|maxManifestSizeInBytes|maxSizeInBytes|trust\.allowedOrigins|`discover`|client\.approve/;

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

/** Each option a library message advises changing, and the flag a CLI user passes instead. */
const OPTION_FLAGS: ReadonlyArray<readonly [option: string, flag: string]> = [
  ['agentId', '--agent-id'],
  ['includeDeprecated', '--include-deprecated'],
  ['strict', '--lenient'],
  ['network.timeouts.headersInMs', '--timeout'],
  ['network.maxResponseSizeInBytes', '--max-size'],
  ['discovery.maxManifestSizeInBytes', '--max-size'],
  ['maxSizeInBytes', '--max-size'],
  ['jobs.follow.maxDurationInMs', '--max-duration'],
  ['trust.allowedOrigins', '--allow-origin'],
  ['credentials', '--token'],
];

const built = existsSync(BUILT_CLI);

describe('library vocabulary never reaches a CLI user', () => {
  it('for every error code and every option a message advises changing: the error carries the option, the CLI names the flag', () => {
    for (const code of CODES) {
      for (const [option, flag] of OPTION_FLAGS) {
        for (const of of [undefined, 'createClient']) {
          const error = new AicapError(code, worded`It failed; pass ${optionTerm(option, of === undefined ? {} : { of })} to fix it.`);
          expect(error.option, code).toBe(option);
          const line = cliErrorMessage(error);
          expect(line, `${code} / ${option}`).toContain(`\`${flag}`);
          expect(line, `${code} / ${option}`).not.toMatch(LIBRARY_VOCABULARY);
          expect(line).not.toContain(`\`${option}`);
          expect(cliAdvice(error.message, error.terms)).toBe(line);
        }
      }
    }
  });
});

describe.skipIf(!built)('library vocabulary, from the built CLI', () => {
  let payments: ExampleProcess;
  let origin: string;
  let server: ClientTestServer;
  let mismatched: ClientTestServer;
  let directory: string;

  beforeAll(async () => {
    directory = await mkdtemp(join(tmpdir(), 'aicap-vocabulary-'));
    payments = startExampleProcess({ env: { PORT: '0' } });
    origin = (await payments.firstLine).trim();
    server = await startClientTestServer();
    const tools = [
      { id: 'list_things', path: '/things', method: 'GET', description: 'Lists things' },
      { id: 'list_things_old', path: '/things-old', method: 'GET', description: 'Lists things the old way', deprecated: true },
    ];
    server.routes.set('/.well-known/ai-capabilities', json({ schema_version: '0.2.0', service: { name: 'Things', base_url: `${server.origin}/v1` }, tools }));
    // The API wants credentials it never declared: the CLI user is told which flags give them.
    server.routes.set('/v1/things', json({ error: 'unauthorized' }, {}, 401));
    mismatched = await startClientTestServer();
    mismatched.routes.set('/.well-known/ai-capabilities', json({ schema_version: '0.2.0', service: { name: 'Elsewhere', base_url: 'https://api.example.com/v1' }, tools }));
  }, 30_000);

  afterAll(async () => {
    await payments?.stop();
    await server?.close();
    await mismatched?.close();
  });

  it('a manifest over the size cap names --max-size, from discovery and from validate', async () => {
    const run = await runBuiltCli(['tools', server.origin, '--max-size', '100']);
    expect(run.code, run.stderr).not.toBe(0);
    expect(run.stderr).toMatch(/raise `--max-size <bytes>`/i);
    expect(run.stderr).not.toMatch(LIBRARY_VOCABULARY);
    const file = join(directory, 'payments.json');
    await writeFile(file, JSON.stringify({ schema_version: '0.2.0', service: { name: 'Things', base_url: 'https://things.example.com' }, tools: [] }));
    const validated = await runBuiltCli(['validate', file, '--max-size', '20']);
    expect(validated.code, validated.stderr).not.toBe(0);
    expect(validated.stderr).toMatch(/raise `--max-size <bytes>`/i);
    expect(validated.stderr).not.toMatch(LIBRARY_VOCABULARY);
  });

  it('a manifest for another origin names --allow-origin', async () => {
    const run = await runBuiltCli(['tools', mismatched.origin]);
    expect(run.code, run.stderr).not.toBe(0);
    expect(run.stderr).toContain('allow it with `--allow-origin <origin>`');
    expect(run.stderr).not.toMatch(LIBRARY_VOCABULARY);
  });

  it('an API that wants credentials none were given for names --token and --api-key', async () => {
    const run = await runBuiltCli(['call', server.origin, 'list_things']);
    expect(run.code, run.stderr).toBe(1);
    expect(run.stderr).toContain('pass them as `--token <token>` or `--api-key <key>`');
    expect(run.stderr + run.stdout).not.toMatch(LIBRARY_VOCABULARY);
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
