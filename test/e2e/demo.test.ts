import { describe, expect, it } from 'vitest';
import { runBuiltCli } from '../helpers/run-built-cli.js';

describe('aicap demo (built CLI)', () => {
  // The process exiting on its own is the proof that the demo closed its server and every socket.
  it('runs the whole orchestrator session against the embedded Payments API and exits 0', async () => {
    const { code, stdout, stderr } = await runBuiltCli(['demo'], { timeoutInMs: 55_000 });
    expect(stderr).not.toMatch(/✘|Internal error/);
    expect(code).toBe(0);
    expect(stdout).toMatch(/requests to the manifest: 1 /);
    expect(stdout).toMatch(/discover again within max-age → 0 more request/);
    // One strong tag per representation (RFC 9110): the demo client accepts gzip, so its tag says so.
    expect(stdout).toMatch(/ETag: "sha256-[A-Za-z0-9_-]{43}(-gzip|-br)?"/);
    expect(stdout).toMatch(/token demo-read +\(scope read\) +→ analyze_transactions, list_transactions, generate_report\n/);
    expect(stdout).toMatch(/token demo-admin .*close_account, modify_limits/);
    expect(stdout).toMatch(/“Close my account, I am moving to another bank”\n {3}→ close_account/);
    expect(stdout).toContain('"type": "function"');
    expect(stdout).toMatch(/75 items over 3 request\(s\)/);
    expect(stdout).toMatch(/the API answered 429 [1-9]\d* time\(s\)/);
    expect(stdout).toMatch(/without an approve callback: → refused\/failed: APPROVAL_REQUIRED/);
    expect(stdout).toMatch(/side effects recorded by the API: 1 /);
    expect(stdout).toMatch(/answering "include"/);
    expect(stdout).toMatch(/status: completed/);
    expect(stdout).toMatch(/"include_pending":true/);
    expect(stdout).toMatch(/it appears in them 0 times ✔/);
    // Percentage lines when stderr is not a terminal.
    expect(stderr).toMatch(/^\d+%$/m);
  }, 60_000);

  it('prints its usage with --help and rejects unknown flags with exit 2', async () => {
    const help = await runBuiltCli(['demo', '--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('Usage: aicap demo');
    const bad = await runBuiltCli(['demo', '--fast']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--fast');
  });
});
