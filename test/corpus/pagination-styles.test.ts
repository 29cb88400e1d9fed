// Pagination never loses items, on the real styles: a tool generated from each provider's own
// description (Stripe, Slack, Twilio, GitHub; an offset + `more` API written here) is walked with
// `allPages` against a loopback server that really pages the way that provider does. Every item
// must come back, once, with the walk complete; the same with the declaration removed (the client's
// detection); a server that repeats its page ends the walk; a page nothing explains comes back as it is.
import { existsSync, readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createClient, type Client, type OriginCredentials } from '../../src/client/index.js';
import type { Manifest, Tool } from '../../src/manifest/manifest-v0.js';
import { generateManifest } from '../../src/openapi/index.js';
import { trimOpenApiDescription } from '../helpers/trim-openapi-description.js';

const corpus = resolve(import.meta.dirname, '../../../shared/corpus/big');
const available = existsSync(corpus);
if (!available) console.warn(`Skipping the real-API pagination styles: ${corpus} is absent (the shared corpus is not beside this checkout).`);

const TOTAL = 23;
const PAGE_SIZE = 5;
type Page = (url: URL, origin: string) => { body: unknown; headers?: Record<string, string> };

/** One tool of a description, generated alone (the description trimmed to its operation). */
async function generatedTool(description: Record<string, unknown>, path: string, method: string): Promise<{ manifest: Manifest; tool: Tool }> {
  const { manifest } = await generateManifest({ input: trimOpenApiDescription(description, [{ path, method }]) });
  const tool = manifest.tools.find((candidate) => candidate.path === path && candidate.method === method.toUpperCase());
  if (tool === undefined) throw new Error(`no tool for ${method} ${path}`);
  return { manifest, tool };
}

function readCorpus(file: string): Record<string, unknown> {
  return JSON.parse(readFileSync(join(corpus, file), 'utf8')) as Record<string, unknown>;
}

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

/** Serves `manifest` (rebased on the server, path kept) and answers every other GET with `page`. */
async function servePages(manifest: Manifest, page: Page, credentials: OriginCredentials | undefined): Promise<{ client: Client; requests: string[] }> {
  const requests: string[] = [];
  let served = '';
  let origin = '';
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const url = new URL(request.url ?? '/', origin);
    if (url.pathname === '/.well-known/ai-capabilities') {
      response.writeHead(200, { 'content-type': 'application/ai-capabilities+json' }).end(served);
      return;
    }
    requests.push(url.pathname + url.search);
    if (requests.length > 50) {
      response.writeHead(500).end();
      return;
    }
    const { body, headers } = page(url, origin);
    response.writeHead(200, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));
  });
  await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  served = JSON.stringify({ ...manifest, service: { ...manifest.service, base_url: origin + new URL(manifest.service.base_url).pathname.replace(/\/$/, '') } });
  const client = createClient({ cache: false, retry: { limit: 0 } });
  await client.discover(origin, credentials === undefined ? {} : { credentials });
  closers.push(async () => {
    await client.close();
    server.closeAllConnections();
    await new Promise<void>((closed) => server.close(() => closed()));
  });
  return { client, requests };
}

const ids = Array.from({ length: TOTAL }, (_, index) => `obj_${index + 1}`);

function withoutPagination(manifest: Manifest, tool: Tool): Manifest {
  const { pagination: _pagination, ...returns } = tool.returns ?? {};
  return { ...manifest, tools: [{ ...tool, returns }] };
}

interface Style {
  name: string;
  file: string;
  path: string;
  args: Record<string, unknown>;
  credentials?: OriginCredentials;
  expected: Record<string, unknown>;
  page: Page;
}

const slice = (from: number): string[] => ids.slice(from, from + PAGE_SIZE);
const STYLES: Style[] = [
  {
    name: 'Stripe: starting_after = the last item id, has_more',
    file: 'stripe-spec3-2022-04.json',
    path: '/v1/charges',
    args: {},
    expected: { style: 'cursor', parameter: 'starting_after', cursor_item_field: 'id', items_field: 'data', has_more_field: 'has_more' },
    page: (url) => {
      const after = url.searchParams.get('starting_after');
      const from = after === null ? 0 : ids.indexOf(after) + 1;
      return { body: { object: 'list', data: slice(from).map((id) => ({ id, object: 'charge' })), has_more: from + PAGE_SIZE < TOTAL, url: '/v1/charges' } };
    },
  },
  {
    name: 'Slack: cursor and response_metadata.next_cursor',
    file: 'slack-web-openapi-v2.json',
    path: '/conversations.list',
    args: {},
    credentials: { token: 'xoxb-dummy' },
    expected: { style: 'cursor', parameter: 'cursor', next_field: 'response_metadata.next_cursor', items_field: 'channels' },
    page: (url) => {
      const from = Number(Buffer.from(url.searchParams.get('cursor') ?? '', 'base64').toString() || 0);
      const next = from + PAGE_SIZE < TOTAL ? Buffer.from(String(from + PAGE_SIZE)).toString('base64') : '';
      return { body: { ok: true, channels: slice(from).map((id) => ({ id, name: id })), response_metadata: { next_cursor: next } } };
    },
  },
  {
    name: 'Twilio: next_page_uri',
    file: 'twilio-api-v2010.json',
    path: '/2010-04-01/Accounts/{AccountSid}/Calls.json',
    args: { AccountSid: 'AC0123456789abcdef0123456789abcdef' },
    credentials: { username: 'AC0123456789abcdef0123456789abcdef', password: 'dummy' } as OriginCredentials,
    expected: { style: 'link', next_field: 'next_page_uri', items_field: 'calls', limit_parameter: 'PageSize' },
    page: (url) => {
      const from = Number(url.searchParams.get('PageToken')?.slice(2) ?? 0);
      const next = from + PAGE_SIZE < TOTAL ? `${url.pathname}?PageSize=${PAGE_SIZE}&Page=${from / PAGE_SIZE + 1}&PageToken=PA${from + PAGE_SIZE}` : null;
      return { body: { calls: slice(from).map((sid) => ({ sid })), next_page_uri: next, page: from / PAGE_SIZE, page_size: PAGE_SIZE } };
    },
  },
  {
    name: 'GitHub: page/per_page and a Link header',
    file: 'github-api.github.com-2020-07.json',
    path: '/orgs/{org}/repos',
    args: { org: 'octo-org' },
    expected: { style: 'link', limit_parameter: 'per_page' },
    page: (url, origin) => {
      const page = Number(url.searchParams.get('page') ?? 1);
      const from = (page - 1) * PAGE_SIZE;
      const headers: Record<string, string> = from + PAGE_SIZE < TOTAL ? { link: `<${origin}${url.pathname}?page=${page + 1}>; rel="next", <${origin}${url.pathname}?page=5>; rel="last"` } : {};
      return { body: slice(from).map((id) => ({ id, full_name: `octo-org/${id}` })), headers };
    },
  },
];

/** An offset API with a `more` flag (PagerDuty's style), described here. */
const OFFSET_DESCRIPTION = {
  openapi: '3.0.3',
  info: { title: 'Incidents', version: '1' },
  servers: [{ url: 'https://incidents.example.com' }],
  paths: {
    '/incidents': {
      get: {
        operationId: 'listIncidents',
        description: 'Lists incidents.',
        parameters: [
          { name: 'offset', in: 'query', schema: { type: 'integer' } },
          { name: 'limit', in: 'query', schema: { type: 'integer' } },
        ],
        responses: {
          '200': {
            description: 'A page of incidents.',
            content: {
              'application/json': {
                schema: {
                  type: 'object',
                  properties: {
                    incidents: { type: 'array', items: { type: 'object', properties: { id: { type: 'string' } } } },
                    offset: { type: 'integer' },
                    limit: { type: 'integer' },
                    more: { type: 'boolean' },
                  },
                },
              },
            },
          },
        },
      },
    },
  },
};
const offsetPage: Page = (url) => {
  const from = Number(url.searchParams.get('offset') ?? 0);
  return { body: { incidents: slice(from).map((id) => ({ id })), offset: from, limit: PAGE_SIZE, more: from + PAGE_SIZE < TOTAL } };
};

function idsOf(items: unknown[] | undefined): unknown[] {
  return (items ?? []).map((item) => (item as Record<string, unknown>)['id'] ?? (item as Record<string, unknown>)['sid']);
}

describe.skipIf(!available)('allPages on the real pagination styles', () => {
  for (const style of STYLES) {
    it(`${style.name}: declared by the generator, every item back, complete (and again by detection)`, { timeout: 60_000 }, async () => {
      const { manifest, tool } = await generatedTool(readCorpus(style.file), style.path, 'get');
      expect(tool.returns?.pagination).toMatchObject(style.expected);
      for (const served of [{ ...manifest, tools: [tool] }, withoutPagination(manifest, tool)]) {
        const { client, requests } = await servePages(served, style.page, style.credentials);
        const result = await client.call(tool.id, style.args, { allPages: true });
        expect(result.ok, JSON.stringify(result.error)).toBe(true);
        expect(idsOf(result.items)).toEqual(ids);
        expect(result.page).toMatchObject({ complete: true });
        expect(requests).toHaveLength(Math.ceil(TOTAL / PAGE_SIZE));
      }
    });
  }

  it('offset and a more flag: declared, every item back, complete (and again by detection)', { timeout: 60_000 }, async () => {
    const { manifest, tool } = await generatedTool(OFFSET_DESCRIPTION, '/incidents', 'get');
    expect(tool.returns?.pagination).toEqual({ style: 'offset', parameter: 'offset', limit_parameter: 'limit', items_field: 'incidents', has_more_field: 'more' });
    for (const served of [{ ...manifest, tools: [tool] }, withoutPagination(manifest, tool)]) {
      const { client, requests } = await servePages(served, offsetPage, undefined);
      const result = await client.call(tool.id, {}, { allPages: true });
      expect(idsOf(result.items)).toEqual(ids);
      expect(result.page).toMatchObject({ complete: true });
      expect(requests).toHaveLength(Math.ceil(TOTAL / PAGE_SIZE));
    }
  });

  it('a server that ignores the page parameter: the repeated page ends the walk after two requests', { timeout: 60_000 }, async () => {
    const { manifest, tool } = await generatedTool(OFFSET_DESCRIPTION, '/incidents', 'get');
    const { client, requests } = await servePages({ ...manifest, tools: [tool] }, () => ({ body: { incidents: [{ id: 'same' }], more: true } }), undefined);
    const result = await client.call(tool.id, {}, { allPages: true });
    expect(result).toMatchObject({ ok: true, items: [{ id: 'same' }], page: { complete: false, stopReason: 'repeated_page', next: null } });
    expect(requests).toHaveLength(2);
  });

  it('a page that says more exist but not how to reach them comes back as it is, marked incomplete', { timeout: 60_000 }, async () => {
    const { manifest, tool } = await generatedTool(OFFSET_DESCRIPTION, '/incidents', 'get');
    const bare: Tool = { ...tool, parameters: {}, returns: {} };
    const body = { result: { incidents: [{ id: 'a' }] }, has_more: true };
    const { client } = await servePages({ ...manifest, tools: [bare] }, () => ({ body }), undefined);
    const result = await client.call(tool.id, {}, { allPages: true });
    expect(result).toMatchObject({ ok: true, data: body, page: { complete: false, stopReason: 'unrecognized_pagination', next: null } });
    expect(result.items).toBeUndefined();
  });
});
