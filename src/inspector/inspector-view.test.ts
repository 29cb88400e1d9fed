import { afterEach, describe, expect, it } from 'vitest';
import { inspectedManifest, INSPECTED_ORIGIN, writeManifestFile } from '../../test/helpers/inspector-manifest.js';
import { injectedGuardedFetch, jsonResponse, type InjectedHandler } from '../../test/helpers/injected-guarded-fetch.js';
import { createClient, type CheckReport, type Client } from '../client/index.js';
import type { Manifest } from '../manifest/manifest-v0.js';
import { describeTool, loadInspectorView, refusalOf, summarizeTool, type LoadInspectorViewInput } from './inspector-view.js';

// The inspector's loading stage with everything injected: the page's fetch, the client's fetch and
// the `aicap check` run. No socket, so what is asserted is what the page is given to show.

const clients: Client[] = [];
const removals: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const client of clients.splice(0)) await client.close();
  for (const remove of removals.splice(0)) await remove();
});

/** A client as the inspector makes one (the whole scan on discovery), whose API is `manifestText`. */
function inspectorClient(manifestText: string): Client {
  const client = createClient({
    agentId: 'inspector-test',
    trust: { scan: 'eager' },
    network: { fetch: (async () => new Response(manifestText, { headers: { 'content-type': 'application/ai-capabilities+json' } })) as never },
  });
  clients.push(client);
  return client;
}

const checkReport: CheckReport = { url: `${INSPECTED_ORIGIN}/.well-known/ai-capabilities`, ok: true, checks: [] };

function input(
  source: string,
  manifestText: string,
  page: InjectedHandler = () => new Response(manifestText),
): LoadInspectorViewInput & { checked: string[]; fetch: ReturnType<typeof injectedGuardedFetch> } {
  const checked: string[] = [];
  return {
    source,
    token: undefined,
    client: inspectorClient(manifestText),
    fetch: injectedGuardedFetch(page),
    timeoutInMs: 1_000,
    allow: [],
    check: async (origin) => (checked.push(origin), checkReport),
    checked,
  };
}

async function fileSource(content: unknown): Promise<string> {
  const file = await writeManifestFile(content);
  removals.push(file.remove);
  return file.path;
}

describe('loadInspectorView: a file', () => {
  it('shows the manifest, the trusted view and the catalog a model would get, without checking anything on the network', async () => {
    const path = await fileSource(inspectedManifest());
    const loaded = input(path, JSON.stringify(inspectedManifest()));
    const { view, service } = await loadInspectorView(loaded);
    expect(service?.origin).toBe(INSPECTED_ORIGIN);
    expect(view).toMatchObject({ source: path, origin: INSPECTED_ORIGIN, manifest: inspectedManifest(), issues: [] });
    expect(view.refused).toBeUndefined();
    expect(view.trust).toMatchObject({ baseUrl: `${INSPECTED_ORIGIN}/v1`, quarantinedToolIds: ['hijack'], digest: expect.stringMatching(/^sha256-/) });
    expect(view.catalog?.tools.map((tool) => [tool.id, tool.readOnly, tool.async, tool.needsApproval])).toEqual([
      ['listPayments', true, false, false],
      ['createPayment', false, false, true],
      ['exportReport', false, true, false],
    ]);
    expect(view.catalog?.withheld.map((entry) => entry.id)).toEqual(['hijack']);
    expect(view.check).toBeUndefined();
    expect(view.aiCatalog).toBeUndefined();
    expect(loaded.checked).toEqual([]);
    expect(loaded.fetch.sent).toEqual([]);
  });

  it('keeps every issue with its pointer when the client refuses an invalid manifest, and says why', async () => {
    const manifest = inspectedManifest();
    (manifest['tools'] as Array<Record<string, unknown>>)[0]!['method'] = 'FETCH';
    const path = await fileSource(manifest);
    const { view, service } = await loadInspectorView(input(path, JSON.stringify(manifest)));
    expect(service).toBeUndefined();
    expect(view.manifest).toEqual(manifest);
    expect(view.issues.map((issue) => issue.pointer)).toContain('/tools/0/method');
    expect(view.refused?.code).toBe('MANIFEST_INVALID');
    expect(view.trust).toBeUndefined();
    expect(view.catalog).toBeUndefined();
  });

  it.each([
    ['one line of text that is not JSON', '<html>not json</html>', 'json.syntax'],
    ['a document with a __proto__ key', '{"__proto__":{"x":1}}', 'json.forbidden_key'],
    ['a document with a duplicate key', '{"schema_version":"0.1.0","schema_version":"0.2.0"}', 'json.duplicate_key'],
  ])('shows %s as text, with the parse issue, and refuses it', async (_, text, issueCode) => {
    const path = await fileSource(text);
    const { view } = await loadInspectorView(input(path, text));
    expect(view.manifest).toBe(text);
    expect(view.issues[0]?.code).toBe(issueCode);
    expect(view.refused?.code).toBe('MANIFEST_PARSE_FAILED');
  });

  it('refuses a manifest that is not UTF-8 with the encoding issue, instead of showing it repaired', async () => {
    const text = JSON.stringify(inspectedManifest());
    const at = text.indexOf('Lists payments');
    const bytes = Buffer.concat([Buffer.from(text.slice(0, at)), Buffer.from([0xff, 0xfe]), Buffer.from(text.slice(at))]);
    const path = await fileSource(bytes);
    const { view, service } = await loadInspectorView(input(path, text));
    expect(service).toBeUndefined();
    expect(view.issues.map((issue) => issue.code)).toEqual(['json.encoding']);
    expect(view.refused?.code).toBe('MANIFEST_PARSE_FAILED');
    expect(view.manifest).toEqual(expect.stringContaining('\uFFFD\uFFFDLists payments'));
  });

  it('refuses a file that does not exist with the error code and its path, and nothing else', async () => {
    const path = `${await fileSource('{}')}.missing`;
    const { view, service } = await loadInspectorView(input(path, '{}'));
    expect(service).toBeUndefined();
    expect(view).toEqual({ source: path, origin: undefined, manifest: undefined, issues: [], refused: { code: 'ENOENT', message: expect.stringContaining(path) } });
  });
});

describe('loadInspectorView: an origin', () => {
  const manifestText = JSON.stringify(inspectedManifest());

  it('reads the manifest at the well-known URL, runs the check on the origin and shows the domain’s AI Catalog', async () => {
    const catalog = { specVersion: '1.0', entries: [{ name: 'Payments' }] };
    const loaded = input(INSPECTED_ORIGIN, manifestText, (request) =>
      request.url.endsWith('/.well-known/ai-catalog.json') ? jsonResponse(200, catalog) : new Response(manifestText, { headers: { 'content-type': 'application/ai-capabilities+json' } }),
    );
    const { view } = await loadInspectorView(loaded);
    expect(loaded.fetch.sent.map((request) => request.url)).toEqual([`${INSPECTED_ORIGIN}/.well-known/ai-capabilities`, `${INSPECTED_ORIGIN}/.well-known/ai-catalog.json`]);
    expect(loaded.fetch.sent[0]!.headers.get('accept')).toContain('application/ai-capabilities+json');
    expect(loaded.checked).toEqual([INSPECTED_ORIGIN]);
    expect(view.check).toBe(checkReport);
    expect(view.aiCatalog).toEqual(catalog);
    expect(view.origin).toBe(INSPECTED_ORIGIN);
  });

  it.each<[string, InjectedHandler]>([
    ['answers 404', () => jsonResponse(404, { error: 'none' })],
    ['answers a __proto__ document', () => new Response('{"__proto__":{"admin":true}}')],
    ['answers text that is not JSON', () => new Response('<html>')],
    [
      'drops the connection',
      () => {
        throw new TypeError('socket hang up');
      },
    ],
  ])('shows no AI Catalog, and no error, when the catalog URL %s', async (_, answer) => {
    const loaded = input(INSPECTED_ORIGIN, manifestText, (request, index) => (index === 0 ? new Response(manifestText) : answer(request, index)));
    const { view } = await loadInspectorView(loaded);
    expect(view.aiCatalog).toBeUndefined();
    expect(view.refused).toBeUndefined();
    expect(({} as Record<string, unknown>)['admin']).toBeUndefined();
  });

  it('shows the refusal, with the error’s code, when the manifest cannot be fetched', async () => {
    const loaded = input(INSPECTED_ORIGIN, manifestText, () => {
      throw Object.assign(new Error('connect ECONNREFUSED 203.0.113.1:443'), { code: 'NETWORK_ERROR' });
    });
    const { view } = await loadInspectorView(loaded);
    expect(view.refused).toEqual({ code: 'NETWORK_ERROR', message: 'connect ECONNREFUSED 203.0.113.1:443' });
    expect(loaded.checked).toEqual([]);
  });
});

describe('refusalOf', () => {
  it.each<[string, unknown, { code: string; message: string }]>([
    ['an error with a code', Object.assign(new Error('bad'), { code: 'MANIFEST_INVALID' }), { code: 'MANIFEST_INVALID', message: 'bad' }],
    ['a plain error', new Error('broken'), { code: 'ERROR', message: 'broken' }],
    ['null', null, { code: 'ERROR', message: 'null' }],
    ['undefined', undefined, { code: 'ERROR', message: 'undefined' }],
    ['a string', 'it failed', { code: 'ERROR', message: 'it failed' }],
    ['an object with a numeric code and no message', { code: 500 }, { code: 'ERROR', message: '[object Object]' }],
  ])('shows %s as a code and a message, both strings', (_, error, expected) => {
    expect(refusalOf(error)).toEqual(expected);
  });
});

describe('summarizeTool and describeTool', () => {
  function catalogTool(manifestText: string, id: string) {
    const client = inspectorClient(manifestText);
    return client.load(manifestText).then(() => client.catalog().tools.find((tool) => tool.id === id)!);
  }

  it('describes a tool with its row, input schema, the scopes that grant it and the policy', async () => {
    const manifest = inspectedManifest() as unknown as Manifest;
    const tool = await catalogTool(JSON.stringify(manifest), 'createPayment');
    const described = describeTool(tool, manifest) as { summary: unknown; scopes: string[]; policy: unknown; inputSchema: { required?: string[] } };
    expect(described.summary).toEqual(summarizeTool(tool, new Set(['createPayment'])));
    expect(described.summary).toMatchObject({ method: 'POST', path: '/payments/{account}', needsApproval: true, readOnly: false });
    expect(described.scopes).toEqual(['payments:write']);
    expect(described.policy).toEqual({ human_approval_required: ['createPayment'] });
    expect(described.inputSchema.required).toEqual(['account', 'amount']);
  });

  it('gives an empty scope list and policy when the manifest declares none', async () => {
    const manifest = inspectedManifest();
    delete manifest['auth'];
    delete manifest['policy'];
    const tool = await catalogTool(JSON.stringify(manifest), 'listPayments');
    expect(describeTool(tool, manifest as unknown as Manifest)).toMatchObject({ scopes: [], policy: {} });
  });
});
