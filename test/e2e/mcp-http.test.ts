import { existsSync, readFileSync } from 'node:fs';
import { request } from 'node:http';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPaymentsServer, type PaymentsServer } from '../../examples/payments/start-payments-server.js';
import { ACCOUNT_IDS } from '../../examples/payments/payments-data.js';
import { BUILT_CLI } from '../helpers/run-built-cli.js';
import { connectV1Host, connectV2Host, startHttpBridge, type HttpBridgeProcess } from '../helpers/mcp-hosts.js';

const ACCOUNT = ACCOUNT_IDS[1]!;
// ajv-formats is CommonJS with `exports.default`; under NodeNext its default import is the module object.
const addFormats = ((addFormatsModule as unknown as { default?: typeof addFormatsModule }).default ?? addFormatsModule) as unknown as (ajv: Ajv2020) => Ajv2020;
const CARD_SCHEMA = JSON.parse(readFileSync(new URL('../fixtures/mcp/server-card.schema.json', import.meta.url), 'utf8')) as Record<string, unknown>;

let payments: PaymentsServer;
let bridge: HttpBridgeProcess;
const limitChanges = (): number => payments.ledger.filter((entry) => entry.toolId === 'modify_limits').length;

describe.skipIf(!existsSync(BUILT_CLI))('aicap mcp --http (run `npm run build` first)', () => {
  beforeAll(async () => {
    payments = await startPaymentsServer();
    bridge = await startHttpBridge([payments.origin, '--token', 'demo-admin']);
  });

  afterAll(async () => {
    const code = await bridge?.stop();
    await payments?.close();
    expect(code).toBe(0);
  });

  it('prints its endpoint first on stdout and serves a Server Card valid against the extension schema', async () => {
    expect(bridge.endpoint).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    const response = await fetch(`${bridge.endpoint}/server-card`, { headers: { accept: 'application/mcp-server-card+json' } });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/mcp-server-card+json');
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    const card = (await response.json()) as { remotes: Array<{ url: string; supportedProtocolVersions: string[] }> };
    const ajv = addFormats(new Ajv2020({ strict: false }));
    const validate = ajv.compile({ ...CARD_SCHEMA, $ref: '#/$defs/ServerCard' });
    expect(validate(card), JSON.stringify(validate.errors)).toBe(true);
    expect(card.remotes).toEqual([{ type: 'streamable-http', url: bridge.endpoint, supportedProtocolVersions: ['2026-07-28', '2025-11-25'] }]);
    expect(JSON.stringify(card)).not.toMatch(/demo-admin|bearer/i);
    const etag = response.headers.get('etag')!;
    expect((await fetch(`${bridge.endpoint}/server-card`, { headers: { 'if-none-match': etag } })).status).toBe(304);
  });

  it('lists the card in its AI Catalog, and refuses a Host it does not serve (DNS rebinding)', async () => {
    const origin = new URL(bridge.endpoint).origin;
    const catalog = (await (await fetch(`${origin}/.well-known/ai-catalog.json`)).json()) as { specVersion: string; entries: Array<Record<string, unknown>> };
    expect(catalog.specVersion).toBe('1.0');
    expect(catalog.entries).toEqual([
      expect.objectContaining({ type: 'application/mcp-server-card+json', url: `${bridge.endpoint}/server-card`, identifier: expect.stringMatching(/^urn:air:/) as unknown }),
    ]);
    // A rebinding page reaches the loopback address under its own name: the bridge sees that name in Host.
    const forged = await new Promise<number>((resolve, reject) => {
      const outgoing = request(bridge.endpoint, { method: 'GET', headers: { host: 'evil.example' } }, (incoming) => {
        incoming.resume();
        resolve(incoming.statusCode ?? 0);
      });
      outgoing.on('error', reject);
      outgoing.end();
    });
    expect(forged).toBe(403);
  });

  it('a v2 host pinned to 2026-07-28 lists and calls the Payments tools; an approval declined sends nothing, accepted sends once', async () => {
    const { client, log } = await connectV2Host({ url: bridge.endpoint }, { mode: { pin: '2026-07-28' } });
    try {
      expect(client.getNegotiatedProtocolVersion()).toBe('2026-07-28');
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name)).toContain('modify_limits');
      const listed = await client.callTool({ name: 'list_transactions', arguments: { account_id: ACCOUNT, limit: 3 } });
      expect((listed.structuredContent as { items: unknown[] }).items).toHaveLength(3);

      log.answer = 'decline';
      const changesBefore = limitChanges();
      const declined = await client.callTool({ name: 'modify_limits', arguments: { account_id: ACCOUNT, daily_spend_limit: 1200 } });
      expect(declined.isError).toBe(true);
      expect(limitChanges()).toBe(changesBefore);
      log.answer = 'accept';
      const accepted = await client.callTool({ name: 'modify_limits', arguments: { account_id: ACCOUNT, daily_spend_limit: 1200 } });
      expect(accepted.isError).toBe(false);
      expect(limitChanges()).toBe(changesBefore + 1);
      expect(log.messages).toHaveLength(2);
    } finally {
      await client.close();
    }
  });

  it.each([
    ['a v2 legacy host', () => connectV2Host({ url: bridge.endpoint }, { mode: 'legacy' })],
    ['a v1 SDK host', () => connectV1Host({ url: bridge.endpoint })],
  ] as const)('%s (stateless 2025-11-25) lists and calls; an approval-gated call is refused with how to enable approval', async (_label, connect) => {
    const { client, log } = await connect();
    try {
      expect((await client.listTools()).tools.length).toBe(5);
      const listed = await client.callTool({ name: 'list_transactions', arguments: { account_id: ACCOUNT, limit: 1 } });
      expect(listed.isError).toBe(false);
      const changesBefore = limitChanges();
      const refused = await client.callTool({ name: 'modify_limits', arguments: { account_id: ACCOUNT, daily_spend_limit: 10 } });
      expect(refused.isError).toBe(true);
      expect(JSON.stringify(refused.content)).toContain('--host-approves');
      expect(log.messages).toEqual([]);
      expect(limitChanges()).toBe(changesBefore);
    } finally {
      await client.close();
    }
  });
});
