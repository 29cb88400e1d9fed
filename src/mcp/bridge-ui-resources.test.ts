import { afterEach, describe, expect, it } from 'vitest';
import { BRIDGE_API_ORIGIN, startInMemoryBridge, type ApiAnswer, type InMemoryBridge, protocolErrorOf } from '../../test/helpers/in-memory-bridge.js';
import type { Resource } from '../manifest/manifest-v0.js';
import { isUiResource, isUiResourceUri } from './bridge-ui-resources.js';

// MCP Apps pages as a real MCP SDK host sees them: `ui://` resources with the CSP the bridge allows,
// and the tools that name them. The page is the API's, so its CSP may reach that API only.

const PAGE_TYPE = 'text/html;profile=mcp-app';

function uiManifest(ui: Record<string, unknown>): Record<string, unknown> {
  return {
    schema_version: '0.3.0',
    service: { name: 'Dash', description: 'A dashboard for bridge tests.', base_url: `${BRIDGE_API_ORIGIN}/v1` },
    tools: [
      { id: 'listAccounts', path: '/accounts', method: 'GET', description: 'Lists the accounts.', returns: { type: 'array' }, ui_resource: 'dashboard' },
      { id: 'getAccount', path: '/accounts/{id}', method: 'GET', description: 'Reads an account.', parameters: { id: { type: 'string', required: true, in: 'path' } } },
    ],
    resources: [
      { id: 'dashboard', path: '/ui/dashboard', description: 'The accounts dashboard.', mime_type: PAGE_TYPE, ui },
      { id: 'accountPage', path: '/ui/accounts/{id}', description: 'One account page.', mime_type: PAGE_TYPE, parameters: { id: { type: 'string', in: 'path' } } },
    ],
  };
}

let bridge: InMemoryBridge | undefined;
afterEach(async () => {
  await bridge?.close();
  bridge = undefined;
});

async function start(ui: Record<string, unknown> = {}, answer?: ApiAnswer): Promise<{ served: InMemoryBridge; uri: string }> {
  bridge = await startInMemoryBridge(uiManifest(ui), answer ? { answer } : {});
  return { served: bridge, uri: `ui://${bridge.client.services()[0]!.namespace}/dashboard` };
}

const html = (text: string, status = 200): Response => new Response(text, { status, headers: { 'content-type': PAGE_TYPE } });

describe('isUiResource', () => {
  it.each<[string, Partial<Resource>, boolean]>([
    ['an MCP Apps page', { mime_type: PAGE_TYPE }, true],
    ['the media type with spaces and another case', { mime_type: 'Text/HTML; profile=mcp-app' }, true],
    ['plain HTML', { mime_type: 'text/html' }, false],
    ['JSON', {}, false],
    ['a page with a required argument', { mime_type: PAGE_TYPE, parameters: { id: { type: 'string', required: true } } }, false],
    ['a page with a path placeholder', { mime_type: PAGE_TYPE, path: '/ui/{id}' }, false],
  ])('%s: %s', (_, fields, expected) => {
    expect(isUiResource({ id: 'page', path: '/ui/page', description: 'A page.', ...fields } as Resource)).toBe(expected);
  });

  it.each([
    ['ui://api/page', true],
    ['aicap://api/page', false],
    ['UI:page', false],
  ])('isUiResourceUri(%s) is %s', (uri, expected) => {
    expect(isUiResourceUri(uri)).toBe(expected);
  });
});

describe('bridge UI resources through a host', () => {
  it('lists the page as a ui:// resource with its media type, and not as aicap:// text nor a template', async () => {
    const { served, uri } = await start();
    const { resources } = await served.mcp.listResources();
    expect(resources.map((resource) => [resource.uri, resource.mimeType])).toEqual([[uri, PAGE_TYPE]]);
    expect((await served.mcp.listResourceTemplates()).resourceTemplates.map((template) => template.name)).toEqual(['accountPage']);
  });

  it.each<[string, Record<string, unknown>, { connectDomains: string[]; resourceDomains: string[] }]>([
    ['nothing declared: nothing allowed', {}, { connectDomains: [], resourceDomains: [] }],
    [
      'the API’s own origin kept, once',
      { connect_domains: [BRIDGE_API_ORIGIN, 'HTTPS://API.example.test', 'https://api.example.test:443'] },
      { connectDomains: [BRIDGE_API_ORIGIN], resourceDomains: [] },
    ],
    [
      'another origin dropped (it could carry the results away)',
      { connect_domains: ['https://collector.example', BRIDGE_API_ORIGIN], resource_domains: ['https://cdn.example.com'] },
      { connectDomains: [BRIDGE_API_ORIGIN], resourceDomains: [] },
    ],
    [
      'a look-alike origin dropped',
      { connect_domains: ['https://api.example.test.evil.example', 'http://api.example.test', 'https://api.example.test:8443'] },
      { connectDomains: [], resourceDomains: [] },
    ],
  ])('gives the page a CSP with %s', async (_, ui, csp) => {
    const { served } = await start(ui);
    const [listed] = (await served.mcp.listResources()).resources;
    expect(listed?._meta).toEqual({ ui: { csp } });
  });

  it('passes prefers_border on to the host', async () => {
    const { served } = await start({ prefers_border: true });
    expect((await served.mcp.listResources()).resources[0]?._meta).toEqual({ ui: { csp: { connectDomains: [], resourceDomains: [] }, prefersBorder: true } });
  });

  it('names the page in the _meta of the tool whose entry names it, and in no other tool', async () => {
    const { served, uri } = await start();
    const tools = (await served.mcp.listTools()).tools;
    expect(tools.find((tool) => tool.name === 'listAccounts')?._meta).toMatchObject({ ui: { resourceUri: uri } });
    expect(tools.find((tool) => tool.name === 'getAccount')?._meta?.['ui']).toBeUndefined();
  });

  it('reads the page as the API sent it (a host renders it, no model reads it), with its CSP', async () => {
    const page = '<!doctype html><script>parent.postMessage("hi", "*")</script>';
    const { served, uri } = await start({ connect_domains: [BRIDGE_API_ORIGIN] }, () => html(page));
    const { contents } = await served.mcp.readResource({ uri });
    expect(contents).toEqual([{ uri, mimeType: PAGE_TYPE, text: page, _meta: { ui: { csp: { connectDomains: [BRIDGE_API_ORIGIN], resourceDomains: [] } } } }]);
    expect(served.sent.map((request) => request.url)).toEqual([`${BRIDGE_API_ORIGIN}/v1/ui/dashboard`]);
  });

  it.each<[string, ApiAnswer, RegExp]>([
    ['a 404', () => html('gone', 404), /answered 404/],
    ['a 500', () => html('broken', 500), /failed/],
    ['JSON instead of HTML', () => new Response('{"a":1}', { headers: { 'content-type': 'application/json' } }), /did not answer with HTML text/],
  ])('refuses to serve the page when the API answers %s', async (_, answer, message) => {
    const { served, uri } = await start({}, answer);
    const error = await protocolErrorOf(served.mcp.readResource({ uri }));
    expect(error?.message).toMatch(message);
  });

  it('answers not found, naming the URI, for a ui:// URI it does not serve, and sends nothing', async () => {
    const { served } = await start();
    const uri = `ui://${served.client.services()[0]!.namespace}/accountPage`;
    const error = await protocolErrorOf(served.mcp.readResource({ uri }));
    expect(error?.message).toContain(JSON.stringify(uri));
    expect(served.sent).toEqual([]);
  });
});
