import { afterEach, describe, expect, it } from 'vitest';
import { errorOf } from '../../../test/helpers/error-of.js';
import { jsonResponse } from '../../../test/helpers/injected-guarded-fetch.js';
import { API_ORIGIN, injectedManifestApi, type InjectedManifestApi } from '../../../test/helpers/injected-manifest-api.js';
import { AicapError } from '../../errors/aicap-error.js';
import type { ManifestRequest } from '../cache/fetch-with-cache.js';
import type { ClientContext } from '../client-context.js';
import type { ClientOptions } from '../client-options.js';
import type { DiscoveryAttempt } from '../errors/discovery-error.js';
import { catalogManifests, linkedManifests } from './find-manifest-urls.js';
import { manifestSizeLimit } from './read-manifest.js';

// Where discovery looks when the well-known URL has no manifest: the origin's Link header and its AI
// Catalog. Over a client context whose transport plays the origin; no socket.

const MANIFEST_TYPE = 'application/ai-capabilities+json';
const CATALOG_TYPE = { 'content-type': 'application/ai-catalog+json' };
const CATALOG_URL = `${API_ORIGIN}/.well-known/ai-catalog.json`;
const target = new URL(`${API_ORIGIN}/`);

const contexts: ClientContext[] = [];
afterEach(async () => {
  await Promise.all(contexts.splice(0).map((context) => context.close()));
});

function origin(routes: Record<string, () => Response>, options: ClientOptions = {}) {
  const { api, context } = injectedManifestApi(undefined, options);
  contexts.push(context);
  api.route = (request) => routes[new URL(request.url).pathname]?.() ?? new Response('not found', { status: 404 });
  const send: ManifestRequest = (url, headers) => context.manifestFetch.fetchBuffered(url, { method: 'GET', headers }, manifestSizeLimit(context));
  const attempts: DiscoveryAttempt[] = [];
  return { api, context, send, attempts };
}

const paths = (api: InjectedManifestApi): string[] => api.requests.map((request) => new URL(request.url).pathname);

describe('linkedManifests', () => {
  it('reads Link targets with rel="ai-capabilities", resolved against the response URL', async () => {
    const run = origin({
      '/': () =>
        new Response('home', { headers: { link: '</api/manifest.json>; rel="ai-capabilities", </style.css>; rel=stylesheet, <https://cdn.example.test/m>; rel="alternate ai-capabilities"' } }),
    });
    expect(await linkedManifests(run.context, target, run.attempts)).toEqual([`${API_ORIGIN}/api/manifest.json`, 'https://cdn.example.test/m']);
    expect(run.attempts).toEqual([]);
  });

  it('records why when the origin has no such Link', async () => {
    const run = origin({ '/': () => new Response('home', { headers: { link: '</a>; rel=stylesheet' } }) });
    expect(await linkedManifests(run.context, target, run.attempts)).toEqual([]);
    expect(run.attempts).toEqual([{ url: `${API_ORIGIN}/`, reason: 'no Link header with rel="ai-capabilities"' }]);
  });

  it('takes at most ten Link targets', async () => {
    const link = Array.from({ length: 50 }, (_, index) => `</m${index}>; rel="ai-capabilities"`).join(', ');
    const run = origin({ '/': () => new Response('home', { headers: { link } }) });
    expect(await linkedManifests(run.context, target, run.attempts)).toHaveLength(10);
  });

  it('records a failed request as an attempt rather than failing discovery', async () => {
    const run = origin({
      '/': () => {
        throw new TypeError('fetch failed');
      },
    });
    expect(await linkedManifests(run.context, target, run.attempts)).toEqual([]);
    expect(run.attempts).toHaveLength(1);
    expect(run.attempts[0]!.url).toBe(`${API_ORIGIN}/`);
  });

  it('lets an SSRF refusal through: it is not a missing manifest', async () => {
    const run = origin({
      '/': () => {
        throw new AicapError('SSRF_BLOCKED', 'private address');
      },
    });
    expect((await errorOf(linkedManifests(run.context, target, run.attempts))).code).toBe('SSRF_BLOCKED');
  });
});

describe('catalogManifests', () => {
  const entry = (url: string, type = MANIFEST_TYPE, identifier = 'urn:air:x') => ({ identifier, type, url });

  it('lists the manifest entries of the catalog, resolved against it, and asks for the catalog media type', async () => {
    const run = origin({
      '/.well-known/ai-catalog.json': () =>
        jsonResponse(200, { specVersion: '1.0', entries: [entry('/.well-known/ai-capabilities'), entry('/mcp', 'application/mcp-server-card+json')] }, CATALOG_TYPE),
    });
    expect(await catalogManifests(run.context, run.send, target, {}, run.attempts)).toEqual([`${API_ORIGIN}/.well-known/ai-capabilities`]);
    expect(run.api.requests[0]!.headers.get('accept')).toContain('application/ai-catalog+json');
  });

  it('passes the discovery headers on (a bearer token for the same origin)', async () => {
    const run = origin({ '/.well-known/ai-catalog.json': () => jsonResponse(200, { entries: [entry('/m')] }, CATALOG_TYPE) });
    await catalogManifests(run.context, run.send, target, { authorization: 'Bearer tok' }, run.attempts);
    expect(run.api.requests[0]!.headers.get('authorization')).toBe('Bearer tok');
  });

  it('accepts an application/json entry only when its URL is a well-known manifest URL', async () => {
    const run = origin({
      '/.well-known/ai-catalog.json': () => jsonResponse(200, { entries: [entry('/other/.well-known/ai-capabilities', 'application/json'), entry('/openapi.json', 'application/json')] }, CATALOG_TYPE),
    });
    expect(await catalogManifests(run.context, run.send, target, {}, run.attempts)).toEqual([`${API_ORIGIN}/other/.well-known/ai-capabilities`]);
  });

  it('follows a nested catalog on the same origin, inline or linked, one level deep', async () => {
    const run = origin({
      '/.well-known/ai-catalog.json': () =>
        jsonResponse(
          200,
          {
            entries: [{ identifier: 'inline', type: 'application/ai-catalog+json', data: { entries: [entry('/inline/m')] } }, entry('/teams/catalog.json', 'application/ai-catalog+json')],
          },
          CATALOG_TYPE,
        ),
      '/teams/catalog.json': () => jsonResponse(200, { entries: [entry('/teams/m'), entry('/deeper.json', 'application/ai-catalog+json')] }, CATALOG_TYPE),
      '/deeper.json': () => jsonResponse(200, { entries: [entry('/too-deep/m')] }, CATALOG_TYPE),
    });
    expect(await catalogManifests(run.context, run.send, target, {}, run.attempts)).toEqual([`${API_ORIGIN}/inline/m`, `${API_ORIGIN}/teams/m`]);
    expect(paths(run.api)).not.toContain('/deeper.json');
  });

  it('never follows a nested catalog on another origin, and says so', async () => {
    const run = origin({ '/.well-known/ai-catalog.json': () => jsonResponse(200, { entries: [entry('https://evil.example/catalog.json', 'application/ai-catalog+json')] }, CATALOG_TYPE) });
    expect(await catalogManifests(run.context, run.send, target, {}, run.attempts)).toEqual([]);
    expect(run.api.requests.every((request) => request.url.startsWith(API_ORIGIN))).toBe(true);
    expect(run.attempts.map((attempt) => attempt.reason)).toContain('nested catalog https://evil.example/catalog.json is on another origin');
  });

  it('reports an inline manifest instead of using it: a manifest is bound to the URL it came from', async () => {
    const run = origin({ '/.well-known/ai-catalog.json': () => jsonResponse(200, { entries: [{ identifier: 'urn:inline', type: MANIFEST_TYPE, data: { tools: [] } }] }, CATALOG_TYPE) });
    expect(await catalogManifests(run.context, run.send, target, {}, run.attempts)).toEqual([]);
    expect(run.attempts[0]!.reason).toContain('entry "urn:inline" carries the manifest inline');
  });

  it("quotes an entry's identifier in what it records cut and escaped: it is the server's text and reaches the discovery error", async () => {
    const identifier = `\u001b]8;;https://evil.example\u0007${'x'.repeat(100_000)}`;
    const run = origin({ '/.well-known/ai-catalog.json': () => jsonResponse(200, { entries: [{ identifier, type: MANIFEST_TYPE, data: {} }] }, CATALOG_TYPE) });
    await catalogManifests(run.context, run.send, target, {}, run.attempts);
    const reason = run.attempts[0]!.reason;
    expect(reason.length).toBeLessThan(400);
    expect(reason).not.toContain('\u001b');
    expect(reason).toContain('\\u001b]8;;');
  });

  it('takes at most ten manifest URLs from a catalog however long', async () => {
    const run = origin({ '/.well-known/ai-catalog.json': () => jsonResponse(200, { entries: Array.from({ length: 500 }, (_, index) => entry(`/m${index}`)) }, CATALOG_TYPE) });
    expect(await catalogManifests(run.context, run.send, target, {}, run.attempts)).toHaveLength(10);
  });

  it.each([
    ['no catalog (404)', {}, 'status 404'],
    ['a catalog that is not JSON', { '/.well-known/ai-catalog.json': () => new Response('<html>', { status: 200, headers: CATALOG_TYPE }) }, ''],
    ['a catalog without manifest entries', { '/.well-known/ai-catalog.json': () => jsonResponse(200, { entries: [] }, CATALOG_TYPE) }, `no entry of type ${MANIFEST_TYPE}`],
    ['a catalog with malformed entries', { '/.well-known/ai-catalog.json': () => jsonResponse(200, { entries: [{ type: 'x' }, 42] }, CATALOG_TYPE) }, '/entries/1: not an object'],
  ])('finds nothing in %s and records why for the discovery error', async (_case, routes, reason) => {
    const run = origin(routes);
    expect(await catalogManifests(run.context, run.send, target, {}, run.attempts)).toEqual([]);
    expect(run.attempts.length).toBeGreaterThan(0);
    expect(run.attempts.every((attempt) => attempt.url === CATALOG_URL)).toBe(true);
    expect(run.attempts.map((attempt) => attempt.reason).join('\n')).toContain(reason);
  });

  it('lets a refusal of the guard through: a catalog over the size cap is a typed error naming the option', async () => {
    const run = origin({ '/.well-known/ai-catalog.json': () => jsonResponse(200, { entries: [], padding: 'x'.repeat(4096) }, CATALOG_TYPE) }, { discovery: { maxManifestSizeInBytes: 1024 } });
    const error = await errorOf(catalogManifests(run.context, run.send, target, {}, run.attempts));
    expect(error.code).toBe('RESPONSE_TOO_LARGE');
    expect(error.message).toContain('discovery.maxManifestSizeInBytes');
  });
});
