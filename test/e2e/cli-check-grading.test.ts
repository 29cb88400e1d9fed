import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPaymentsServer, type PaymentsServer } from '../../examples/payments/start-payments-server.js';
import { checkCapabilities, createClient, type Client, type GradedCheckReport } from '../../src/client/index.js';
import { createMcpBridge, type McpBridge } from '../../src/mcp/index.js';
import { toNodeListener } from '../../src/server/index.js';
import { startBrokenProducer, type BrokenProducer } from '../conformance/start-broken-producer.js';
import { BUILT_CLI, runBuiltCli, type CliRun } from '../helpers/run-built-cli.js';

const LINE = /^[✔⚠✘·] (MUST|SHOULD) +§\S+ +\S+ +\S/;
const paymentsFile = join(import.meta.dirname, '../../examples/payments/payments.manifest.json');

let payments: PaymentsServer;
let broken: BrokenProducer;
let poisoned: BrokenProducer;
let open: BrokenProducer;
let preview: ChildProcess;
let previewOrigin: string;

beforeAll(async () => {
  [payments, broken, poisoned, open] = await Promise.all([startPaymentsServer(), startBrokenProducer({ invalid: true }), startBrokenProducer(), startBrokenProducer({ openJobs: true })]);
  preview = spawn(process.execPath, [BUILT_CLI, 'serve', paymentsFile, '--port', '0'], { stdio: ['ignore', 'pipe', 'pipe'] });
  previewOrigin = await new Promise<string>((resolve, reject) => {
    let output = '';
    preview.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('\n')) resolve(output.split('\n')[0]!);
    });
    preview.once('exit', (code) => reject(new Error(`aicap serve exited early with ${code}`)));
  });
});

afterAll(async () => {
  const exited = new Promise((resolve) => preview.once('exit', resolve));
  preview.kill('SIGTERM');
  await Promise.all([exited, payments.close(), broken.close(), poisoned.close(), open.close()]);
});

/** Runs the built `aicap check --json` and reads both outputs. */
async function check(target: string, ...flags: string[]): Promise<{ run: CliRun; report: GradedCheckReport; lines: string[] }> {
  const run = await runBuiltCli(['check', target, '--json', '--timeout', '5000', ...flags], { timeoutInMs: 60_000 });
  const report = JSON.parse(run.stdout) as GradedCheckReport;
  const lines = run.stderr.split('\n').filter((line) => /^[✔⚠✘·] /.test(line));
  return { run, report, lines };
}

describe('aicap check grades a live service (built CLI)', () => {
  it('grades the Payments example: every MUST met, each line with its level and section, a badge line, exit 0', async () => {
    const { run, report, lines } = await check(payments.origin);
    expect(run.code, run.stderr).toBe(0);
    expect(report.ok).toBe(true);
    expect(report.must.met).toBe(report.must.total);
    expect(report.must.total).toBeGreaterThanOrEqual(8);
    expect(report.summary).toBe(
      `conforms to aicap ${report.suite}: ${report.must.met}/${report.must.total} MUST, ${report.should.met}/${report.should.total} SHOULD${report.skipped > 0 ? ` (${report.skipped} skipped)` : ''}`,
    );
    expect(run.stderr).toContain(`${payments.origin}/.well-known/ai-capabilities: ${report.summary}`);
    expect(lines.length).toBe(report.checks.length);
    for (const line of lines) expect(line).toMatch(LINE);
    // Payments serves one manifest to everybody: the per-credential rule is reported as not applicable.
    expect(report.checks.find((entry) => entry.id === 'http.per_credential_private')).toMatchObject({ outcome: 'skip', level: 'MUST', section: '4' });
    expect(report.checks.find((entry) => entry.id === 'http.compression_vary')).toMatchObject({ outcome: 'pass', level: 'MUST', section: '5' });
    // The producer scenario producer.call.requires_credentials, as far as a read-only check can go: scoped GET tools refuse anonymous calls.
    expect(report.checks.find((entry) => entry.id === 'auth.enforced')).toMatchObject({ outcome: 'pass', level: 'MUST', section: '4' });
    expect(lines.some((line) => /^✔ MUST +§4 +auth\.enforced +\d+ of \d+ scoped tools refused/.test(line))).toBe(true);
  });

  it('fails §4 as a MUST on a service whose scoped tool answers a call without credentials, and says which', async () => {
    const { run, report, lines } = await check(open.origin);
    expect(run.code).toBe(1);
    expect(report.checks.find((entry) => entry.id === 'auth.enforced')).toMatchObject({
      outcome: 'fail',
      level: 'MUST',
      section: '4',
      message: expect.stringMatching(/GET http:\/\/127\.0\.0\.1:\d+\/v1\/items\/aicap-check answered 200 \(auth\.scopes gives get_item "items:read"\)/) as unknown,
    });
    expect(lines.some((line) => /^✘ MUST +§4 +auth\.enforced/.test(line))).toBe(true);
    expect(report.summary).toMatch(/^does not conform/);
  });

  it('does not pretend to know on a preview that serves no tool: auth.enforced is skipped, saying why', async () => {
    const { report } = await check(previewOrigin);
    expect(report.checks.find((entry) => entry.id === 'auth.enforced')).toMatchObject({ outcome: 'skip', level: 'MUST', message: expect.stringContaining('not determined') as unknown });
  });

  it('grades an `aicap serve` preview the same way, and its exit status follows the MUSTs', async () => {
    const { run, report, lines } = await check(previewOrigin, '--no-probe');
    expect(lines.length).toBe(report.checks.length);
    for (const line of lines) expect(line).toMatch(LINE);
    expect(run.code).toBe(report.ok ? 0 : 1);
    for (const id of ['manifest.media_type', 'manifest.valid', 'manifest.origin_binding', 'http.compression_vary'])
      expect(
        report.checks.find((entry) => entry.id === id),
        id,
      ).toMatchObject({ outcome: 'pass', level: 'MUST' });
    for (const id of ['http.etag', 'http.conditional', 'http.cors', 'http.head'])
      expect(
        report.checks.find((entry) => entry.id === id),
        id,
      ).toMatchObject({ outcome: 'pass', level: 'SHOULD' });
  });

  it('goes on after an invalid manifest on a broken service: HTTP rules still graded, the rest marked skipped, exit 1', async () => {
    const { run, report, lines } = await check(broken.origin);
    expect(run.code).toBe(1);
    expect(report.ok).toBe(false);
    expect(report.summary).toMatch(/^does not conform to aicap \d+\.\d+: \d+\/\d+ MUST/);
    const outcome = (id: string): string | undefined => report.checks.find((entry) => entry.id === id)?.outcome;
    expect(outcome('manifest.valid')).toBe('fail');
    expect(outcome('manifest.media_type')).toBe('fail');
    // Graded although the document is invalid.
    expect(outcome('http.per_credential_private')).toBe('fail');
    expect(outcome('http.compression_vary')).toBe('fail');
    expect(outcome('http.no_set_cookie')).toBe('fail');
    expect(outcome('http.etag')).toBe('warn');
    // Not run, and said so.
    expect(report.checks.find((entry) => entry.id === 'manifest.no_secrets')).toMatchObject({ outcome: 'skip', message: expect.stringContaining('needs a valid manifest') as unknown });
    expect(outcome('manifest.origin_binding')).toBe('skip');
    expect(outcome('trust.poisoning')).toBe('skip');
    expect(lines.some((line) => /^· MUST +§10\.5 +manifest\.no_secrets/.test(line))).toBe(true);
    expect(lines.some((line) => /^✘ SHOULD +§5 +http\.no_set_cookie/.test(line))).toBe(true);
  });
});

describe('aicap check on a valid manifest that leaks a key and poisons a description (built CLI)', () => {
  it('fails the secret as a MUST and the poisoning as a SHOULD, naming where', async () => {
    const { run, report } = await check(poisoned.origin, '--no-probe');
    expect(run.code).toBe(1);
    expect(report.checks.find((entry) => entry.id === 'manifest.no_secrets')).toMatchObject({
      outcome: 'fail',
      level: 'MUST',
      section: '10.5',
      message: expect.stringContaining('/service/description') as unknown,
    });
    expect(report.checks.find((entry) => entry.id === 'trust.poisoning')).toMatchObject({
      outcome: 'fail',
      level: 'SHOULD',
      section: '10.2',
      message: expect.stringContaining('/tools/0/description text.instruction') as unknown,
    });
  });
});

describe('aicap check on a bare origin whose MCP server answers at /mcp only', () => {
  let client: Client;
  let bridge: McpBridge;
  let server: Server;
  let origin: string;
  beforeAll(async () => {
    client = createClient({ agentId: 'check-grading' });
    await client.discover(payments.origin, { credentials: { token: 'demo-read' } });
    bridge = await createMcpBridge({ client });
    const listener = toNodeListener(bridge.fetch);
    // No card, no catalog: only the JSON-RPC endpoint, as the MCP SDK's own examples serve.
    server = createServer((request, response) => (request.url === '/mcp' ? listener(request, response) : void response.writeHead(404).end()));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await bridge.close();
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await client.close();
  });

  it('finds the endpoint at /mcp', async () => {
    const report = await checkCapabilities(origin, { timeoutInMs: 5_000 });
    expect(report.checks.find((entry) => entry.id === 'mcp.endpoint')).toMatchObject({ outcome: 'pass', message: expect.stringContaining(`${origin}/mcp answers MCP JSON-RPC`) as unknown });
    expect(report.checks.find((entry) => entry.id === 'mcp.detected')?.message).toContain(`connect an MCP host to ${origin}/mcp`);
  });
});
