// The default `trust.scan: 'on-export'` validates each tool, resource and prompt where it is used:
// discovery runs the manifest-level checks, a catalog checks each entry's schema, and everything that
// hands an entry on (an export, a selection, an adapter, the MCP bridge, a call) validates it fully.
// One tool declared in breach of the specification must be held back everywhere, with the rule it
// breaks, while the rest of the API stays usable; `trust.scan: 'eager'` refuses the manifest at once.
import { afterEach, describe, expect, it } from 'vitest';
import { createClient, type Client, type ClientOptions } from '../../src/client/index.js';
import type { AuditEvent } from '../../src/client/index.js';
import type { Manifest } from '../../src/manifest/manifest-v0.js';
import { EXPORT_FORMATS, exportTools, selectTools } from '../../src/tools/index.js';
import { paymentsManifest } from '../helpers/client-manifests.js';
import { withBridgeHost } from '../helpers/mcp-hosts.js';

const BASE_URL = 'https://payments.example/v1';

/** Payments whose `list_transactions` declares a path parameter its path has no placeholder for (`path.unused_parameter`). */
function brokenPayments(): Manifest {
  const manifest = paymentsManifest(BASE_URL);
  manifest.tools.find((tool) => tool.id === 'list_transactions')!.parameters!['ghost'] = { type: 'string', in: 'path', required: true };
  return manifest;
}

/** Payments with a shared definition that refers to itself, reached by `list_transactions`' response schema and by a body parameter of `close_account`. */
function loopingDefinitions(): Manifest {
  const manifest = paymentsManifest(BASE_URL);
  manifest.definitions = { Loop: { $ref: '#/definitions/Loop' } };
  const list = manifest.tools.find((tool) => tool.id === 'list_transactions')!;
  list.returns = { ...list.returns, schema: { $ref: '#/definitions/Loop' } };
  manifest.tools.find((tool) => tool.id === 'close_account')!.parameters!['details'] = { in: 'body', type: 'object', json_schema: { $ref: '#/definitions/Loop' } };
  return manifest;
}

let client: Client;
afterEach(async () => {
  await client?.close();
});

async function loadedClient(options: ClientOptions = {}, manifest = brokenPayments()): Promise<Client> {
  client = createClient({ agentId: 'validate-on-use-test', ...options });
  await client.load(manifest);
  return client;
}

describe('validation where an entry is used (the default)', () => {
  it('loads a manifest whose only errors are in one tool, and keeps the rest of the API usable', async () => {
    const service = await (await loadedClient()).services()[0]!;
    expect(service.manifest.tools).toHaveLength(5);
    const exported = exportTools(client.catalog().tools, 'openai');
    expect(exported.tools).toHaveLength(4);
    expect(JSON.stringify(exported.tools)).not.toContain('list_transactions');
  });

  it('holds the tool back in every export format, records why, and the catalog lists it as withheld for that reason', async () => {
    const audit: AuditEvent[] = [];
    await loadedClient({ onAudit: (event) => audit.push(event) });
    for (const format of EXPORT_FORMATS) expect(exportTools(client.catalog().tools, format).tools, format).toHaveLength(4);
    const service = client.services()[0]!;
    expect(service.quarantinedToolIds).toEqual(['list_transactions']);
    expect(service.findings).toContainEqual(
      expect.objectContaining({
        code: 'entry.invalid',
        toolId: 'list_transactions',
        severity: 'high',
        pointer: '/tools/1/parameters/ghost',
        message: expect.stringContaining('path.unused_parameter'),
      }),
    );
    expect(client.catalog().withheld).toEqual([expect.objectContaining({ id: 'list_transactions', reason: 'invalid' })]);
    expect(audit).toContainEqual(expect.objectContaining({ type: 'trust.finding', toolId: 'list_transactions', detail: expect.stringContaining('/tools/1/parameters/ghost') }));
  });

  it('selectTools gives the invalid pick’s slot to the next candidate', async () => {
    await loadedClient();
    const picked = selectTools(client.catalog().tools, 'list the transactions of my account', { limit: 2 });
    expect(picked.map((selected) => selected.tool.id)).not.toContain('list_transactions');
    expect(picked).toHaveLength(2);
  });

  it('refuses a call of the tool with TOOL_DISABLED naming the rule and where, before anything is sent, and trust.allowQuarantined does not override it', async () => {
    // Nothing listens at payments.example: a call that got past validation would fail with a network error instead.
    for (const options of [{}, { trust: { allowQuarantined: ['list_transactions'] } }]) {
      await loadedClient(options);
      const envelope = await client.call('list_transactions', { account_id: 'acc_1', ghost: 'x' });
      expect(envelope).toMatchObject({ ok: false, error: { code: 'TOOL_DISABLED', message: expect.stringContaining('/tools/1/parameters/ghost') } });
      expect(exportTools(client.catalog().tools, 'openai').tools).toHaveLength(4);
      await client.close();
    }
  });

  it('withholds from the catalog at once an entry whose members have the wrong types, before any text of it is ranked', async () => {
    const manifest = paymentsManifest(BASE_URL);
    (manifest.tools[3] as unknown as { description: unknown }).description = { text: 'not a string' };
    await loadedClient({}, manifest);
    const catalog = client.catalog();
    expect(catalog.tools.map((tool) => tool.id)).not.toContain('modify_limits');
    expect(catalog.withheld).toEqual([expect.objectContaining({ id: 'modify_limits', reason: 'invalid', findings: [expect.objectContaining({ pointer: '/tools/3/description' })] })]);
    // Ranking reads every listed tool's description: nothing of the mistyped one reaches it.
    expect(selectTools(catalog.tools, 'change the daily limits', { limit: 3 })).toHaveLength(3);
  });

  it('client.scanAll() validates every entry for an audit, before anything used them', async () => {
    await loadedClient();
    expect(client.services()[0]!.quarantinedToolIds).toEqual([]);
    const [service] = client.scanAll();
    expect(service!.quarantinedToolIds).toEqual(['list_transactions']);
    expect(service!.findings.filter((finding) => finding.code === 'entry.invalid').map((finding) => finding.pointer)).toEqual(['/tools/1/parameters/ghost']);
  });

  it('offers a tool whose response schema alone reaches a broken shared definition, and holds back one whose parameters reach it', async () => {
    const manifest = loopingDefinitions();
    await loadedClient({}, manifest);
    const exported = exportTools(client.catalog().tools, 'openai').tools.map((tool) => tool.function.name);
    expect(exported).toContain('list_transactions');
    expect(exported).not.toContain('close_account');
    expect(client.catalog().withheld).toEqual([expect.objectContaining({ id: 'close_account', reason: 'invalid', findings: [expect.objectContaining({ pointer: '/definitions/Loop' })] })]);
    // The audit applies the same rule: the response schema's definitions are not the entry's use.
    expect(client.scanAll()[0]!.quarantinedToolIds).toEqual(['close_account']);
  });

  it('the MCP bridge does not list the invalid tool to a real MCP host', async () => {
    await loadedClient();
    const names = await withBridgeHost(client, async (host) => (await host.listTools()).tools.map((tool) => tool.name));
    expect(names).toHaveLength(4);
    expect(names.join()).not.toContain('list_transactions');
  });
});

describe("trust.scan 'eager'", () => {
  it('refuses the whole manifest on load, naming the rule and where', async () => {
    client = createClient({ trust: { scan: 'eager' } });
    await expect(client.load(brokenPayments())).rejects.toMatchObject({ code: 'MANIFEST_INVALID', message: expect.stringContaining('/tools/1/parameters/ghost') });
  });

  it('refuses a manifest whose broken shared definition only a response schema reaches: the whole validation checks it', async () => {
    const manifest = loopingDefinitions();
    manifest.tools.find((tool) => tool.id === 'close_account')!.parameters!['details'] = { in: 'body', type: 'object' };
    client = createClient({ trust: { scan: 'eager' } });
    await expect(client.load(manifest)).rejects.toMatchObject({ code: 'MANIFEST_INVALID', message: expect.stringContaining('/definitions/Loop') });
  });
});
