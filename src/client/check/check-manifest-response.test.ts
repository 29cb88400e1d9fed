import { describe, expect, it } from 'vitest';
import type { CheckOutcome } from './check-result.js';
import { checkManifestResponse } from './check-manifest-response.js';
import { digestManifest } from '../../manifest/digest-manifest.js';
import type { Manifest } from '../../manifest/manifest-v0.js';

const url = 'https://api.example.com/.well-known/ai-capabilities';

interface Server {
  headers?: Record<string, string>;
  gzipHeaders?: Record<string, string>;
  notModified?: boolean;
  headStatus?: number;
  throwOnHead?: boolean;
  /** The answer to an OPTIONS preflight; the route's own headers with 204 by default. */
  preflight?: { status: number; headers: Record<string, string> };
}

/** A manifest route as headers only; records each request's method and headers. */
function fakeFetch(server: Server) {
  const requests: Array<{ method: string; headers: Record<string, string> }> = [];
  const fetch = async (_input: string | URL, init: RequestInit = {}): Promise<Response> => {
    const headers = Object.fromEntries(new Headers(init.headers).entries());
    const method = init.method ?? 'GET';
    requests.push({ method, headers });
    if (method === 'HEAD' && server.throwOnHead) throw new Error('socket hang up');
    if (method === 'HEAD') return new Response(null, { status: server.headStatus ?? 200, headers: server.headers ?? {} });
    if (method === 'OPTIONS') return new Response(null, server.preflight ?? { status: 204, headers: server.headers ?? {} });
    const gzip = headers['accept-encoding'] === 'gzip' && server.gzipHeaders !== undefined;
    const answered = gzip ? server.gzipHeaders! : (server.headers ?? {});
    if (headers['if-none-match'] !== undefined && server.notModified && headers['if-none-match'] === answered['etag']) return new Response(null, { status: 304, headers: answered });
    return new Response('{}', { status: 200, headers: answered });
  };
  return { fetch, requests };
}

async function check(server: Server, authorization: Record<string, string> = {}, manifest?: Manifest) {
  const { fetch, requests } = fakeFetch(server);
  const lines = new Map<string, [CheckOutcome, string]>();
  const response = new Response('{}', { status: 200, headers: server.headers ?? {} });
  await checkManifestResponse({ url, response, manifest, fetch, add: (id, outcome, message) => void lines.set(id, [outcome, message]), authorization });
  return { lines, requests };
}

const good = { 'cache-control': 'public, max-age=300', etag: '"abc"', 'access-control-allow-origin': '*', vary: 'Accept-Encoding' };

describe('checkManifestResponse', () => {
  it('passes a well-served manifest', async () => {
    const { lines } = await check({ headers: good, notModified: true });
    for (const id of ['http.no_set_cookie', 'http.cors', 'http.cache_control', 'http.etag', 'http.conditional', 'http.head']) expect(lines.get(id)?.[0]).toBe('pass');
    expect(lines.get('http.compression_vary')?.[0]).toBe('skip');
    expect(lines.has('http.per_credential_private')).toBe(false);
  });

  it('fails a cookie and warns about a missing CORS header, cache lifetime and ETag', async () => {
    const { lines } = await check({ headers: { 'set-cookie': 'session=1' } });
    expect(lines.get('http.no_set_cookie')?.[0]).toBe('fail');
    expect(lines.get('http.cors')?.[0]).toBe('warn');
    expect(lines.get('http.cache_control')?.[0]).toBe('warn');
    expect(lines.get('http.etag')?.[0]).toBe('warn');
    expect(lines.has('http.conditional')).toBe(false);
  });

  it('requires Cache-Control: private on an answer that varies on Authorization', async () => {
    expect((await check({ headers: { ...good, vary: 'Accept-Encoding, Authorization' } })).lines.get('http.per_credential_private')?.[0]).toBe('fail');
    expect((await check({ headers: { ...good, vary: 'authorization', 'cache-control': 'private, max-age=60' } })).lines.get('http.per_credential_private')?.[0]).toBe('pass');
  });

  it('warns about a weak ETag and a conditional GET that is not answered 304', async () => {
    const { lines } = await check({ headers: { ...good, etag: 'W/"abc"' } });
    expect(lines.get('http.etag')?.[0]).toBe('warn');
    expect(lines.get('http.conditional')).toEqual(['warn', 'If-None-Match answered 200; expected 304']);
  });

  it('sends the caller authorization again on every follow-up request to the manifest but the preflight', async () => {
    const { requests } = await check({ headers: good, notModified: true }, { authorization: 'Bearer t0k' });
    expect(requests.length).toBeGreaterThanOrEqual(4);
    // A CORS preflight is the browser's own question and never carries credentials.
    for (const request of requests) expect(request.headers['authorization']).toBe(request.method === 'OPTIONS' ? undefined : 'Bearer t0k');
    expect(requests.filter((request) => request.method === 'OPTIONS')).toHaveLength(1);
  });

  it('fails a gzip answer without Vary or with the identity ETag, and passes one with both right', async () => {
    const reused = await check({ headers: good, gzipHeaders: { 'content-encoding': 'gzip', etag: '"abc"' } });
    expect(reused.lines.get('http.compression_vary')?.[0]).toBe('fail');
    expect(reused.lines.get('http.compression_vary')?.[1]).toContain('lacks Vary: Accept-Encoding');
    expect(reused.lines.get('http.compression_vary')?.[1]).toContain('reuses the identity form');
    const right = await check({ headers: good, gzipHeaders: { 'content-encoding': 'gzip', etag: '"abc-gzip"', vary: 'Accept-Encoding' }, notModified: true });
    expect(right.lines.get('http.compression_vary')?.[0]).toBe('pass');
  });

  it('warns instead of failing when HEAD is refused or the connection drops', async () => {
    expect((await check({ headers: good, headStatus: 405 })).lines.get('http.head')).toEqual(['warn', 'HEAD answered 405']);
    expect((await check({ headers: good, throwOnHead: true })).lines.get('http.head')?.[1]).toContain('socket hang up');
  });

  it('sends a CORS preflight for a conditional GET and warns when it is refused or lacks Access-Control-Allow-Origin', async () => {
    const { lines, requests } = await check({ headers: good, notModified: true });
    expect(lines.get('http.cors_preflight')).toEqual(['pass', 'OPTIONS answered 204 with Access-Control-Allow-Origin: *']);
    expect(requests.find((request) => request.method === 'OPTIONS')?.headers).toMatchObject({ 'access-control-request-method': 'GET', 'access-control-request-headers': 'if-none-match' });
    expect((await check({ headers: good, preflight: { status: 405, headers: {} } })).lines.get('http.cors_preflight')).toEqual([
      'warn',
      'the OPTIONS preflight answered 405 without Access-Control-Allow-Origin: browser-based agents cannot revalidate the manifest',
    ]);
    expect((await check({ headers: good, preflight: { status: 200, headers: {} } })).lines.get('http.cors_preflight')?.[0]).toBe('warn');
  });

  it('grades whether the identity form’s ETag is the quoted canonical digest, when the manifest is valid', async () => {
    const manifest = { schema_version: '0.3.0', service: { name: 'S', base_url: 'https://api.example.com' }, tools: [] } as unknown as Manifest;
    const digest = `"${digestManifest(manifest)}"`;
    expect((await check({ headers: { ...good, etag: digest } }, {}, manifest)).lines.get('http.etag_is_digest')).toEqual(['pass', `the identity form's ETag is the canonical digest ${digest}`]);
    expect((await check({ headers: good }, {}, manifest)).lines.get('http.etag_is_digest')).toEqual(['warn', `the identity form's ETag "abc" is not the quoted canonical digest ${digest}`]);
    expect((await check({ headers: good })).lines.has('http.etag_is_digest')).toBe(false);
  });
});
