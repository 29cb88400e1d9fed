import { describe, expect, it } from 'vitest';
import { json } from '../../../test/helpers/client-test-server.js';
import { paymentsManifest } from '../../../test/helpers/client-manifests.js';
import { runCliCommand, TERMINAL_CONTROL, usePaymentsApi, type CommandRun } from '../../../test/helpers/run-cli-command.js';
import { checkCommand } from './check.js';

const WELL_KNOWN = '/.well-known/ai-capabilities';
// `✔ MUST   §9.1   manifest.valid               message`
const CHECK_LINE = /^[✔⚠✘·] (MUST|SHOULD|MAY)\s+§[\d.]+\s+[\w.-]+\s+\S/;

const api = usePaymentsApi({ 'cache-control': 'public, max-age=300', etag: '"v1"' });
const run = (...argv: string[]): Promise<CommandRun> => runCliCommand(checkCommand, argv);

interface GradedReport {
  ok: boolean;
  summary: string;
  checks: Array<{ id: string; outcome: string; level: string; section: string }>;
}

describe('aicap check', () => {
  it('prints one line per rule and the grade last; --json prints the graded report, its ok matching the exit code', async () => {
    const { code, out, err } = await run(api.server.origin, '--no-probe', '--json');
    const report = JSON.parse(out) as GradedReport;
    expect(code).toBe(report.ok ? 0 : 1);
    expect(report.summary).toMatch(/^conforms to aicap|MUST/);
    const lines = err.trimEnd().split('\n');
    expect(lines.at(-1)).toBe(`${api.server.origin}${WELL_KNOWN}: ${report.summary}`);
    expect(lines.slice(0, report.checks.length).every((line) => CHECK_LINE.test(line))).toBe(true);
    expect(report.checks.find((check) => check.id === 'manifest.valid')?.outcome).toBe('pass');
  });

  it('never sends a tool request with --no-probe, and sends --token to the manifest only', async () => {
    await run(api.server.origin, '--no-probe', '--token', 'tok-check');
    expect(
      api.server.requests.filter((request) => !request.path.startsWith('/.well-known/')).every((request) => request.method === 'GET' || request.method === 'HEAD' || request.method === 'OPTIONS'),
    ).toBe(true);
    expect(api.server.requests.filter((request) => request.path.startsWith('/v2/'))).toEqual([]);
    expect(api.server.hits(WELL_KNOWN)[0]?.headers.authorization).toBe('Bearer tok-check');
  });

  it('exits 1 when the manifest is missing (a MUST)', async () => {
    api.server.routes.clear();
    const { code, err } = await run(api.server.origin, '--no-probe');
    expect(code).toBe(1);
    expect(err).toMatch(/✘ MUST /);
  });

  it('exits 1 for an invalid manifest and escapes what it quotes of it', async () => {
    const manifest = paymentsManifest(`${api.server.origin}/v2`) as unknown as { tools: Array<Record<string, unknown>> };
    manifest.tools[0]!['id'] = 'evil\u001b[2J\u202eid';
    manifest.tools[0]!['description'] = 'Ignore\u001b]0;owned\u0007 this\r✔ all good';
    api.server.routes.set(WELL_KNOWN, json(manifest));
    const { code, out, err } = await run(api.server.origin, '--no-probe', '--json');
    expect(code).toBe(1);
    expect(err).toMatch(/✘ MUST {3}§9\.1 +manifest\.valid +invalid: \/tools\/0\/id id\.invalid; run `aicap validate /);
    expect(err).not.toMatch(TERMINAL_CONTROL);
    expect(out).not.toMatch(TERMINAL_CONTROL);
  });

  it('stops at --timeout when the server never answers', async () => {
    api.server.routes.set(WELL_KNOWN, () => new Promise(() => undefined));
    const started = Date.now();
    const { code } = await run(api.server.origin, '--no-probe', '--timeout', '300');
    expect(code).toBe(1);
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it.each([
    [['not a url'], /"not a url" is not an absolute URL; give an origin such as https:\/\/api\.example\.com/],
    [['ftp://127.0.0.1'], /Scheme "ftp:" is not supported; use http or https/],
    [[], /Missing the origin or manifest URL to check\./],
    [['http://127.0.0.1:9', 'http://127.0.0.2:9'], /Expected one origin or manifest URL, got 2\./],
    [['http://127.0.0.1:9', '--timeout', '0'], /The `--timeout` option must be a whole number \(milliseconds\), 1 or more; got "0"\./],
    // Read as every other command reads it: digits only.
    [['http://127.0.0.1:9', '--timeout', '1e3'], /The `--timeout` option must be a whole number \(milliseconds\), 1 or more; got "1e3"\./],
    [['http://127.0.0.1:9', '--timeout', '0x10'], /The `--timeout` option must be a whole number \(milliseconds\), 1 or more; got "0x10"\./],
    [['http://127.0.0.1:9', '--max-size', 'big'], /The `--max-size` option must be a whole number \(bytes\), 1 or more; got "big"\./],
    [['http://127.0.0.1:9', '--max-stale', '-1'], /`--max-stale`/],
    [['http://127.0.0.1:9', '--no-prob'], /Unknown option `--no-prob`: did you mean `--no-probe`\?/],
  ])('%j exits 2 naming the fix', async (argv, expected) => {
    const { code, out, err } = await run(...argv);
    expect(code).toBe(2);
    expect(out).toBe('');
    expect(err).toMatch(expected);
  });
});
