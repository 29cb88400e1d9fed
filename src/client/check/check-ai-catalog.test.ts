import { describe, expect, it } from 'vitest';
import { injectedGuardedFetch, jsonResponse, type InjectedHandler } from '../../../test/helpers/injected-guarded-fetch.js';
import { checkAiCatalog } from './check-ai-catalog.js';
import type { CheckOutcome } from './check-result.js';

const MANIFEST_URL = 'https://api.example.test/.well-known/ai-capabilities';
const CATALOG_URL = 'https://api.example.test/.well-known/ai-catalog.json';
const CATALOG_TYPE = { 'content-type': 'application/ai-catalog+json' };
const listing = { specVersion: '1.0', entries: [{ identifier: 'urn:air:api.example.test:aicap', type: 'application/ai-capabilities+json', url: MANIFEST_URL }] };

async function grade(handler: InjectedHandler) {
  const fetch = injectedGuardedFetch(handler);
  const lines: Array<{ id: string; outcome: CheckOutcome; message: string }> = [];
  await checkAiCatalog(MANIFEST_URL, fetch, (id, outcome, message) => void lines.push({ id, outcome, message }));
  expect(lines.map((line) => line.id)).toEqual(['catalog']);
  return { ...lines[0]!, sent: fetch.sent };
}

describe('checkAiCatalog', () => {
  it('asks the origin for its catalog and passes one that lists the manifest', async () => {
    const line = await grade(() => jsonResponse(200, listing, CATALOG_TYPE));
    expect(line.sent.map((request) => [request.method, request.url])).toEqual([['GET', CATALOG_URL]]);
    expect(line.sent[0]!.headers.get('accept')).toContain('application/ai-catalog+json');
    expect(line).toMatchObject({ outcome: 'pass', message: `${CATALOG_URL} lists the manifest (1 entry)` });
  });

  it('resolves a relative entry URL against the catalog before comparing', async () => {
    const relative = { ...listing, entries: [{ ...listing.entries[0], url: '/.well-known/ai-capabilities' }] };
    expect((await grade(() => jsonResponse(200, relative, CATALOG_TYPE))).outcome).toBe('pass');
  });

  it.each([404, 410, 500])('skips when the catalog answers %i: it is optional', async (status) => {
    const line = await grade(() => new Response('nope', { status }));
    expect(line).toMatchObject({ outcome: 'skip' });
    expect(line.message).toContain(`answered ${status}`);
  });

  it.each([
    ['served as application/json', () => jsonResponse(200, listing), 'Content-Type is "application/json", not application/ai-catalog+json'],
    ['served without a Content-Type', () => new Response(new TextEncoder().encode(JSON.stringify(listing))), 'Content-Type is "missing"'],
    ['without specVersion', () => jsonResponse(200, { entries: listing.entries }, CATALOG_TYPE), 'no `specVersion`'],
    ['not listing this manifest', () => jsonResponse(200, { specVersion: '1.0', entries: [] }, CATALOG_TYPE), `no entry of type application/ai-capabilities+json with url ${MANIFEST_URL}`],
    [
      'listing it on another origin',
      () => jsonResponse(200, { specVersion: '1.0', entries: [{ ...listing.entries[0], url: 'https://evil.example/.well-known/ai-capabilities' }] }, CATALOG_TYPE),
      'no entry of type',
    ],
    [
      'with a malformed entry next to a good one',
      () => jsonResponse(200, { ...listing, entries: [...listing.entries, { type: 'x', url: 'https://a.example', data: {} }] }, CATALOG_TYPE),
      '/entries/1: needs exactly one of `url` and `data`',
    ],
    ['whose entries are not a list', () => jsonResponse(200, { specVersion: '1.0', entries: 'all of them' }, CATALOG_TYPE), 'no entry of type'],
  ])('warns for a catalog %s, saying what is wrong', async (_case, handler, problem) => {
    const line = await grade(handler);
    expect(line.outcome).toBe('warn');
    expect(line.message).toContain(problem);
  });

  it('lists at most five problems', async () => {
    const broken = { entries: Array.from({ length: 20 }, () => ({ type: 'x' })) };
    const line = await grade(() => jsonResponse(200, broken, CATALOG_TYPE));
    expect(line.message.split('; ')).toHaveLength(5);
  });

  it.each([
    ['malformed JSON', () => new Response('{"specVersion":', { status: 200, headers: CATALOG_TYPE })],
    ['an HTML page', () => new Response('<html></html>', { status: 200, headers: { 'content-type': 'text/html' } })],
  ])('fails a catalog that is %s', async (_case, handler) => {
    expect(await grade(handler)).toMatchObject({ outcome: 'fail', message: `${CATALOG_URL} is not JSON` });
  });

  it('warns, naming the URL, when the request fails', async () => {
    const line = await grade(() => {
      throw new TypeError('fetch failed');
    });
    expect(line).toMatchObject({ outcome: 'warn', message: `GET ${CATALOG_URL} failed: fetch failed` });
  });
});
