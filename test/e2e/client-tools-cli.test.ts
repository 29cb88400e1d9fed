/**
 * `aicap tools` end to end: the built CLI (`dist/cli/main.js`, built by `npm test` before vitest
 * runs) as a child process against a real node:http server on 127.0.0.1.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { json, startClientTestServer, type ClientTestServer } from '../helpers/client-test-server.js';
import { paymentsManifest } from '../helpers/client-manifests.js';
import { runBuiltCli, type CliRun } from '../helpers/run-built-cli.js';

const run = (...args: string[]): Promise<CliRun> => runBuiltCli(args);

let server: ClientTestServer;

beforeAll(async () => {
  server = await startClientTestServer();
  server.routes.set('/.well-known/ai-capabilities', json(paymentsManifest(`${server.origin}/v2`)));
});
afterAll(async () => {
  await server.close();
});

it('is listed by aicap --help', async () => {
  const { code, stdout } = await run('--help');
  expect(code).toBe(0);
  expect(stdout).toMatch(/aicap tools\s+print a manifest/);
});

it('prints the selected tools as JSON with their manifest id, method and path', async () => {
  const { code, stdout, stderr } = await run('tools', server.origin, '--format', 'openai-strict', '--query', 'raise my spending limit', '--top', '1', '--json');
  expect(code).toBe(0);
  const result = JSON.parse(stdout) as {
    tools: Array<{ id: string; method: string; path: string; type: string; function: { name: string; strict: boolean } }>;
    quarantined: unknown[];
    warnings: string[];
  };
  expect(result.tools).toEqual([expect.objectContaining({ id: 'modify_limits', method: 'PATCH', path: '/accounts/{account_id}/limits', type: 'function' })]);
  expect(result.tools[0]!.function.strict).toBe(true);
  expect(result.quarantined).toEqual([]);
  expect(stderr).toContain('✔ 1 best tool for the query of Payments API');
});

it('exits 1 with the reason on stderr when discovery fails', async () => {
  const { code, stdout, stderr } = await run('tools', `${server.origin}/nothing-here.json`);
  expect(code).toBe(1);
  expect(stdout).toBe('');
  expect(stderr).toContain('✘ DISCOVERY_FAILED');
});
