import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPaymentsServer } from '../../../examples/payments/start-payments-server.js';
import type { PaymentsServer } from '../../../examples/payments/start-payments-server.js';
import type { CliIo } from '../cli-io.js';
import { PassThrough } from 'node:stream';
import { callCommand } from './call.js';
import { askQuestion } from './follow-job.js';
import { captureCliIo } from '../../../test/helpers/run-built-cli.js';

let payments: PaymentsServer;
beforeAll(async () => {
  payments = await startPaymentsServer({ jobs: { eventIntervalInMs: 5, progressSteps: 3, retryInMs: 20 } });
});
afterAll(() => payments.close());

const REPORT = JSON.stringify({ account_id: '12345', period: '2026-03' });
const run = (io: CliIo, ...extra: string[]): Promise<number> => callCommand.run([payments.origin, 'generate_report', REPORT, '--token', 'demo-read', '--agent-id', 'cli-test', ...extra], io);

/** Splits stdout into the JSON event lines and the pretty-printed envelope after them. */
function splitOutput(out: string): { events: Array<Record<string, unknown>>; envelope: Record<string, unknown> } {
  const lines = out.split('\n');
  const firstEnvelopeLine = lines.findIndex((line) => line === '{');
  return {
    events: lines.slice(0, firstEnvelopeLine).map((line) => JSON.parse(line) as Record<string, unknown>),
    envelope: JSON.parse(lines.slice(firstEnvelopeLine).join('\n')) as Record<string, unknown>,
  };
}

describe('aicap call on an async_job tool', () => {
  it('follows the job: --events prints JSON lines, --input answers, percentages on stderr, the envelope last', async () => {
    const io = captureCliIo(false);
    expect(await run(io, '--events', '--input', 'include')).toBe(0);
    const { events, envelope } = splitOutput(io.out);
    expect(events.map((event) => event['id'])).toEqual(Array.from({ length: 11 }, (_, index) => String(index + 1)));
    expect(events.filter((event) => event['type'] === 'progress').map((event) => event['percent'])).toEqual([14, 29, 43, 57, 71, 86]);
    expect(events.at(-1)).toMatchObject({ type: 'status', status: 'completed', terminal: true });
    // The Payments policy lists account_id in redact_from_logs: printed output is a log.
    expect(envelope).toMatchObject({ ok: true, status: 200, data: { include_pending: true, account_id: '[REDACTED]' } });
    expect(io.err).toContain('14%\n');
    expect(io.err).toContain('? Include pending transactions in the report? → "include"');
    expect(io.err).toContain('… completed');
  });

  it('refuses the question without --input when there is no terminal, naming the option', async () => {
    const io = captureCliIo(false);
    expect(await run(io)).toBe(1);
    expect(io.err).toMatch(/asks "Include pending transactions in the report\?" \(options: "include", "exclude"\) and there is no terminal to ask; pass the answer with `--input`/);
    expect(io.err).toMatch(/\(job [0-9a-f-]{36}\)/);
  });

  it('draws a progress bar on a terminal and prints only the envelope with --json', async () => {
    const terminal = captureCliIo(true);
    expect(await run(terminal, '--input', '"exclude"')).toBe(0);
    expect(terminal.err).toContain('\r\x1b[2K[');
    expect(terminal.err).toContain('] 86%');
    expect(JSON.parse(terminal.out)).toMatchObject({ ok: true, data: { include_pending: false } });

    const quiet = captureCliIo(false);
    expect(await run(quiet, '--json', '--input', 'include')).toBe(0);
    expect(JSON.parse(quiet.out)).toMatchObject({ ok: true });
    expect(quiet.err).toBe('');
  });

  it('prints the failed start envelope and exits 1 when the arguments are invalid', async () => {
    const io = captureCliIo(false);
    expect(await callCommand.run([payments.origin, 'generate_report', '{"account_id":"12345"}', '--token', 'demo-read', '--agent-id', 'cli-test'], io)).toBe(1);
    expect(JSON.parse(io.out)).toMatchObject({ ok: false, error: { code: 'INVALID_ARGUMENTS' } });
  });
});

describe('askQuestion', () => {
  /** Types one line each time a prompt is shown, as a person at a terminal would. */
  function typist(lines: string[]): { io: CliIo & { out: string; err: string }; input: PassThrough } {
    const io = captureCliIo(true);
    const input = new PassThrough();
    const stderr = io.stderr;
    io.stderr = (text: string) => {
      stderr(text);
      if (/(Choose 1-\d+|Answer): $/.test(text)) setImmediate(() => input.write(`${lines.shift() ?? ''}\n`));
    };
    return { io, input };
  }

  it.each([
    [['2'], 'exclude'],
    [['include'], 'include'],
    [['7', 'nope', '1'], 'include'],
  ])('reads %j as %j, insisting until an offered option is picked', async (typed, expected) => {
    const { io, input } = typist([...typed]);
    const answer = await askQuestion(io, { prompt: 'Include pending?', options: ['include', 'exclude'] }, input);
    expect(answer).toBe(expected);
    expect(io.err).toContain('Include pending?\n  1) include\n  2) exclude');
    expect(io.err.match(/Choose 1-2: /g)).toHaveLength(typed.length);
  });

  it('takes free text (JSON when it parses) when no options are offered', async () => {
    const { io, input } = typist(['{"count":3}']);
    expect(await askQuestion(io, { prompt: 'How many?', options: undefined }, input)).toEqual({ count: 3 });
  });
});
