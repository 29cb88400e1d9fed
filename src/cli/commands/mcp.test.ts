import { describe, expect, it } from 'vitest';
import { json } from '../../../test/helpers/client-test-server.js';
import { paymentsManifest } from '../../../test/helpers/client-manifests.js';
import { runCliCommand, TERMINAL_CONTROL, useCommandFixture, usePaymentsApi, type CommandRun } from '../../../test/helpers/run-cli-command.js';
import { mcpCommand } from './mcp.js';

const WELL_KNOWN = '/.well-known/ai-capabilities';
const OTHER_ORIGIN = 'http://127.0.0.2:9';

const api = usePaymentsApi();
const fixture = useCommandFixture(mcpCommand, 'aicap-mcp-');
const run = (...argv: string[]): Promise<CommandRun> => runCliCommand(mcpCommand, argv);
/** Starts `aicap mcp --http` and resolves with the endpoint it prints. */
const serveHttp = (...argv: string[]): Promise<string> => fixture.start([...argv, '--http', '--port', '0']);

describe('aicap mcp --http', () => {
  it('prints the endpoint, serves the Server Card with the API tools, and exits 0 on SIGINT', async () => {
    const endpoint = await serveHttp(api.server.origin, '--token', 'tok-1');
    expect(endpoint).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    expect(api.server.hits(WELL_KNOWN)[0]?.headers.authorization).toBe('Bearer tok-1');
    const card = await fetch(`${endpoint}/server-card`);
    expect(card.status).toBe(200);
    expect(fixture.running!.io.err).toMatch(/✔ Payments API: 5 tool\(s\) from http:\/\/127\.0\.0\.1:\d+\n/);
    expect(await fixture.running!.stop()).toBe(0);
  });

  it('serves the origins that load and reports the others, escaping what their manifests say', async () => {
    const manifest = paymentsManifest(`${api.server.origin}/v2`);
    manifest.service.name = 'Pay\u001b]0;owned\u0007ments\u202e';
    api.server.routes.set(WELL_KNOWN, json(manifest));
    await serveHttp(api.server.origin, `${api.server.origin}/missing-manifest.json`);
    expect(fixture.running!.io.err).toContain(`✘ ${api.server.origin}/missing-manifest.json is unavailable (its tools are not listed; the others are served): `);
    expect(fixture.running!.io.err).toContain('Pay\\u001b]0;owned\\u0007ments\\u202e');
    expect(fixture.running!.io.err).not.toMatch(TERMINAL_CONTROL);
  });

  it('says how many tools it lists with --max-tools', async () => {
    await serveHttp(api.server.origin, '--max-tools', '2');
    expect(fixture.running!.io.err).toContain('⚠ 5 tools in the catalog; listing 2 (the first ones; --query picks the best fits).');
  });

  it('exits 1 when no origin can be loaded', async () => {
    api.server.routes.clear();
    const { code, out, err } = await run(api.server.origin, '--http', '--port', '0');
    expect(code).toBe(1);
    expect(out).toBe('');
    expect(err).toContain(`✘ ${api.server.origin} is unavailable`);
  });
});

describe('aicap mcp credentials and usage (exit 2, nothing sent)', () => {
  const origin = (): string => api.server.origin;
  it.each([
    [() => [origin(), OTHER_ORIGIN, '--token', 't'], /`--token` without an origin is ambiguous with 2 origins; write `--token <origin>=<value>`/],
    [() => [origin(), '--api-key', `${OTHER_ORIGIN}=k`], /`--api-key` names http:\/\/127\.0\.0\.2:9, which is not one of the origins given \(http:\/\/127\.0\.0\.1:\d+\)\./],
    [() => [origin(), '--password-env', 'SOME_VARIABLE'], /`--password-env` for http:\/\/127\.0\.0\.1:\d+ needs `--username` for it/],
    [
      () => [origin(), '--username', 'u', '--password-env', 'AICAP_TEST_UNSET_VARIABLE'],
      /`--password-env`: the environment variable AICAP_TEST_UNSET_VARIABLE is not set; export it with the password first\./,
    ],
    [() => [origin(), '--port', '3000'], /The `--port` option applies to `--http` only; add --http or drop --port\./],
    [() => [origin(), '--http', '--port', '99999'], /The `--port` option must be a whole number \(a TCP port\), from 0 to 65535; got "99999"\./],
    [() => [origin(), '--max-tools', '0'], /The `--max-tools` option must be a whole number \(tools\), 1 or more; got "0"\./],
    [() => [origin(), '--timeout', '1e3'], /The `--timeout` option must be a whole number \(milliseconds\), 1 or more; got "1e3"\./],
    [() => [], /Missing the origin or manifest URL of at least one API\./],
  ])('%#', async (argv, expected) => {
    const { code, out, err } = await run(...argv());
    expect(code).toBe(2);
    expect(out).toBe('');
    expect(err).toMatch(expected);
    expect(api.server.requests).toHaveLength(0);
  });

  it('binds --token <origin>=<t> to its origin only', async () => {
    const endpoint = await serveHttp(api.server.origin, `${OTHER_ORIGIN}/`, '--token', `${api.server.origin}=tok-a`, '--token', `${OTHER_ORIGIN}=tok-b`);
    expect(endpoint).toMatch(/\/mcp$/);
    expect(api.server.hits(WELL_KNOWN).map((request) => request.headers.authorization)).toEqual(['Bearer tok-a']);
  });

  it('escapes a hostile origin it quotes', async () => {
    const { code, err } = await run(api.server.origin, '\u001b[2Jhttp://x', '--token', 't');
    expect(code).toBe(2);
    expect(err).not.toMatch(TERMINAL_CONTROL);
  });
});
