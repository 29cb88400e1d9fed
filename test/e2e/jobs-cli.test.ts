/**
 * Issue 7's "done when": the built CLI (`dist/cli/main.js`, built by `npm test` before vitest runs)
 * follows the Payments `generate_report` job: progress, the decision, the final result.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPaymentsServer } from '../../examples/payments/start-payments-server.js';
import type { PaymentsServer } from '../../examples/payments/start-payments-server.js';
import { runBuiltCli, type CliRun } from '../helpers/run-built-cli.js';

const run = (...args: string[]): Promise<CliRun> => runBuiltCli(args);

let payments: PaymentsServer;
beforeAll(async () => {
  payments = await startPaymentsServer({ jobs: { eventIntervalInMs: 5, retryInMs: 50 } });
});
afterAll(() => payments?.close());

describe('aicap call <origin> generate_report --events (built CLI)', () => {
  it('shows progress, takes the decision, prints each event then the final result', async () => {
    const result = await run(
      'call',
      payments.origin,
      'generate_report',
      '{"account_id":"12345","period":"2026-03","format":"csv"}',
      '--token',
      'demo-read',
      '--agent-id',
      'cli-e2e',
      '--events',
      '--input',
      'exclude',
    );
    expect(result.code).toBe(0);
    const lines = result.stdout.split('\n');
    const envelopeStart = lines.indexOf('{');
    const events = lines.slice(0, envelopeStart).map((line) => JSON.parse(line) as { type: string; id: string; status?: string });
    expect(events.map((event) => event.id)).toEqual(events.map((_, index) => String(index + 1)));
    expect(events.map((event) => event.type)).toContain('needs_input');
    expect(events.at(-1)).toMatchObject({ type: 'status', status: 'completed' });
    expect(JSON.parse(lines.slice(envelopeStart).join('\n'))).toMatchObject({ ok: true, data: { include_pending: false, format: 'csv' } });
    expect(result.stderr).toMatch(/^14%$/m);
    expect(result.stderr).toContain('? Include pending transactions in the report? → "exclude"');
  });

  it('refuses to guess the decision without a terminal or --input (exit 1)', async () => {
    const result = await run('call', payments.origin, 'generate_report', '{"account_id":"12345","period":"2026-03"}', '--token', 'demo-read', '--agent-id', 'cli-e2e');
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('pass the answer with `--input`');
  });
});
