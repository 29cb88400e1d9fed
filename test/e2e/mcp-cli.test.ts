import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPaymentsServer, type PaymentsServer } from '../../examples/payments/start-payments-server.js';
import { ACCOUNT_IDS } from '../../examples/payments/payments-data.js';
import { mcpCommand } from '../../src/cli/commands/mcp.js';
import { BUILT_CLI, captureCliIo } from '../helpers/run-built-cli.js';
import { connectV2Host, startHttpBridge } from '../helpers/mcp-hosts.js';

let payments: PaymentsServer;

beforeAll(async () => {
  payments = await startPaymentsServer();
});

afterAll(async () => {
  await payments.close();
});

describe('aicap mcp command line', () => {
  it('refuses a bare --token with several origins, and a token for an origin not given, naming the flag (exit 2)', async () => {
    const ambiguous = captureCliIo();
    expect(await mcpCommand.run(['https://a.example', 'https://b.example', '--token', 'secret'], ambiguous)).toBe(2);
    expect(ambiguous.err).toContain('`--token` without an origin is ambiguous with 2 origins; write `--token <origin>=<value>`');
    const stranger = captureCliIo();
    expect(await mcpCommand.run(['https://a.example', '--token', 'https://c.example=secret'], stranger)).toBe(2);
    expect(stranger.err).toContain('names https://c.example, which is not one of the origins given');
    const badCap = captureCliIo();
    expect(await mcpCommand.run(['https://a.example', '--max-tools', '0'], badCap)).toBe(2);
    expect(badCap.err).toContain('`--max-tools`');
  });

  it.skipIf(!existsSync(BUILT_CLI))('serves the origins that load, with per-origin tokens, and reports the one that does not (stderr and a tool naming it)', async () => {
    const dead = 'http://127.0.0.1:9';
    const bridge = await startHttpBridge([payments.origin, dead, '--token', `${payments.origin}=demo-read`, '--max-tools', '10']);
    const { client } = await connectV2Host({ url: bridge.endpoint }, { mode: { pin: '2026-07-28' } });
    try {
      expect(bridge.stderr()).toContain(`${dead} is unavailable (its tools are not listed; the others are served)`);
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name)).toContain('list_transactions');
      const unavailable = tools.find((tool) => tool.name === 'unavailable_service_1')!;
      expect(unavailable.description).toContain(dead);
      const failed = await client.callTool({ name: unavailable.name, arguments: {} });
      expect(failed.isError).toBe(true);
      expect(JSON.stringify(failed.content)).toContain(`${dead} is unavailable`);
      // The token went to its own origin: the read-scoped call succeeds.
      expect((await client.callTool({ name: 'list_transactions', arguments: { account_id: ACCOUNT_IDS[0]!, limit: 1 } })).isError).toBe(false);
    } finally {
      await client.close();
      expect(await bridge.stop()).toBe(0);
    }
  });
});
