import { describe, expect, it } from 'vitest';
import { json } from '../../../test/helpers/client-test-server.js';
import { runCliCommand, TERMINAL_CONTROL, usePaymentsApi, type CommandRun } from '../../../test/helpers/run-cli-command.js';
import { callCommand } from './call.js';

const WELL_KNOWN = '/.well-known/ai-capabilities';
const TRANSACTIONS = '/v2/accounts/12345/transactions';
const CLOSE = JSON.stringify({ account_id: '12345', reason: 'customer_request' });

const api = usePaymentsApi();
const run = (...argv: string[]): Promise<CommandRun> => runCliCommand(callCommand, argv);
/** `aicap call <origin> list_transactions {"account_id":"12345"}` with a token and an agent id, and `extra`. */
const listTransactions = (...extra: string[]): Promise<CommandRun> =>
  run(api.server.origin, 'list_transactions', '{"account_id":"12345"}', '--token', 'secret-token-1', '--agent-id', 'cli-test', '--no-cache', ...extra);

describe('aicap call', () => {
  it('prints the envelope on stdout and a summary on stderr (exit 0)', async () => {
    api.server.routes.set(TRANSACTIONS, json({ transactions: [{ id: 't1' }, { id: 't2' }] }));
    const { code, out, err } = await listTransactions();
    expect(code).toBe(0);
    const envelope = JSON.parse(out) as { ok: boolean; status: number; items: unknown[] };
    expect(envelope).toMatchObject({ ok: true, status: 200 });
    expect(err).toMatch(/✔ list_transactions: 200, 2 items \(more available\) \(1 request, \d+ ms\)\n$/);
    const sent = api.server.hits(TRANSACTIONS)[0]!;
    expect(sent.headers.authorization).toBe('Bearer secret-token-1');
    expect(sent.headers['x-agent-id']).toBe('cli-test');
  });

  it('prints only the envelope with --json', async () => {
    api.server.routes.set(TRANSACTIONS, json({ transactions: [] }));
    const { code, err } = await listTransactions('--json');
    expect(code).toBe(0);
    expect(err).toBe('');
  });

  it('redacts the token and the redact_from_logs values the API echoes, everywhere it prints', async () => {
    api.server.routes.set(TRANSACTIONS, json({ transactions: [], echoed: 'Bearer secret-token-1', account_id: '12345', note: 'account 12345' }));
    const { code, out, err } = await listTransactions();
    expect(code).toBe(0);
    expect(out + err).not.toContain('secret-token-1');
    expect(out).not.toContain('12345');
    expect(out).toContain('[REDACTED]');
  });

  it('exits 1 when the API fails, and escapes its hostile text in the summary', async () => {
    api.server.routes.set(TRANSACTIONS, json({ error: 'boom\u001b]0;owned\u0007\r\u202e', message: 'Internal\u001b[2J' }, {}, 500));
    const { code, out, err } = await listTransactions('--max-duration', '0');
    expect(code).toBe(1);
    expect((JSON.parse(out) as { ok: boolean }).ok).toBe(false);
    expect(err).toMatch(/✘ list_transactions: \w+ \(HTTP 500\)/);
    expect(out).not.toMatch(TERMINAL_CONTROL);
    expect(err).not.toMatch(TERMINAL_CONTROL);
  });

  it('exits 2 and names --agent-id when the manifest requires an agent id', async () => {
    const { code, out, err } = await run(api.server.origin, 'list_transactions', '{"account_id":"12345"}', '--token', 't', '--no-cache');
    expect(code).toBe(2);
    const envelope = JSON.parse(out) as { error: { code: string; flag?: string; option?: string } };
    expect(envelope.error).toMatchObject({ code: 'INVALID_OPTION', flag: '--agent-id' });
    expect(envelope.error.option).toBeUndefined();
    expect(err).toContain('--agent-id');
    expect(err).not.toContain('agentId');
    expect(api.server.hits(TRANSACTIONS)).toHaveLength(0);
  });

  it('refuses a tool that needs approval when there is no terminal, naming --approve', async () => {
    api.server.routes.set('/v2/accounts/12345/close', json({ closed: true }));
    const refused = await run(api.server.origin, 'close_account', CLOSE, '--token', 't', '--agent-id', 'a', '--no-cache');
    expect(refused.code).toBe(1);
    expect(refused.err).toContain('needs approval');
    expect(refused.err).toContain('pass `--approve` to approve it up front');
    expect(api.server.hits('/v2/accounts/12345/close')).toHaveLength(0);
    const approved = await run(api.server.origin, 'close_account', CLOSE, '--token', 't', '--agent-id', 'a', '--no-cache', '--approve');
    expect(approved.code).toBe(0);
    expect(api.server.hits('/v2/accounts/12345/close')).toHaveLength(1);
  });

  it('exits 2 when discovery fails, with { ok: false, error } under --json', async () => {
    api.server.routes.clear();
    const { code, out, err } = await listTransactions('--json');
    expect(code).toBe(2);
    const printed = JSON.parse(out) as { ok: boolean; error: { code: string; message: string } };
    expect(printed.ok).toBe(false);
    expect(printed.error.code).toMatch(/^[A-Z_]+$/);
    expect(err).toContain('✘ ');
    expect(api.server.hits(TRANSACTIONS)).toHaveLength(0);
  });

  it('exits 2 for an unknown tool, sending nothing', async () => {
    const { code, err } = await run(api.server.origin, 'no_such_tool', '--token', 't', '--agent-id', 'a', '--no-cache');
    expect(code).not.toBe(0);
    expect(err).toContain('no_such_tool');
    expect(api.server.requests.filter((request) => request.path !== WELL_KNOWN)).toHaveLength(0);
  });
});

describe('aicap call usage errors (exit 2, nothing sent)', () => {
  it.each([
    [[], /Missing the origin or the tool id\./],
    [['list_transactions', '{}', 'extra'], /Expected at most 3 arguments, got 4\./],
    [['list_transactions', '{"account_id":'], /The arguments are not valid JSON \(.*\); pass an object such as '\{"account_id":"12345"\}'\./],
    [['list_transactions', '["12345"]'], /The arguments must be a JSON object, such as/],
    [['list_transactions', 'null'], /The arguments must be a JSON object/],
    [['list_transactions', '"12345"'], /The arguments must be a JSON object/],
    [['list_transactions', '--token', 'a', '--api-key', 'b'], /Give one of `--token`, `--api-key` or `--username`, not several\./],
    [['list_transactions', '--password-env', 'PW'], /`--password-env` needs `--username`/],
    [['list_transactions', '--max-items', '0'], /The `--max-items` option must be a whole number \(items\), 1 or more; got "0"\./],
    [['list_transactions', '--max-duration', 'forever'], /The `--max-duration` option must be a whole number \(milliseconds\), 0 or more; got "forever"\./],
    [['list_transactions', '--timeout', '0'], /The `--timeout` option must be a whole number \(milliseconds\), 1 or more; got "0"\./],
    [['list_transactions', '--allow-origin', 'api.example.com'], /The `--allow-origin` option takes an origin such as https:\/\/api\.example\.com, got "api\.example\.com"\./],
    [['list_transactions', '--pin'], /The `--pin` option records the approval for other processes, in Redis: set `AICAP_REDIS_URL`/],
    [['list_transactions', '--token', '-starts-with-dash'], /The `--token` option's value starts with "-": write the two as one, `--token=<value>`\./],
    [['list_transactions', '--aprove'], /Unknown option `--aprove`: did you mean `--approve`\?/],
  ])('%j', async (argv, expected) => {
    const { code, out, err } = await run(api.server.origin, ...argv);
    expect(code).toBe(2);
    expect(out).toBe('');
    expect(err).toMatch(expected);
    expect(api.server.requests).toHaveLength(0);
  });

  it('never prints a --token given twice with other credentials', async () => {
    const { code, err } = await run(api.server.origin, 'list_transactions', '--token', 'tok-secret-9', '--username', 'u');
    expect(code).toBe(2);
    expect(err).not.toContain('tok-secret-9');
  });
});
