import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { defaultManifestMaxSizeInBytes } from '../manifest/manifest-size-limit.js';
import { thrownBy, errorOf } from '../../test/helpers/error-of.js';
import { createClientContext, type ClientContext } from './client-context.js';
import type { ClientOptions } from './client-options.js';
import { DEFAULT_MAX_RESPONSE_SIZE_IN_BYTES, DEFAULT_TIMEOUTS } from './fetch/guarded-fetch-options.js';

// The client's network and discovery options as createClient applies them: the defaults the TSDoc
// promises, read from the source, and the option names a refusal uses. The transport is injected
// (`network.fetch`): no socket, the guard's URL checks, caps and redirect rule still apply.

// `ClientOptions` and the discovery part it re-exports from the discovery floor.
const source = ['./client-options.ts', './discover/discovery-options.ts'].map((path) => readFileSync(new URL(path, import.meta.url), 'utf8')).join('\n');

/** The `@default` text of a member of the modules' TSDoc. */
function documentedDefault(member: string): string {
  const match = new RegExp(`@default ([^\\n]+)\\n\\s*\\*/\\n\\s*${member}\\?:`).exec(source);
  if (match === null) throw new Error(`no @default for ${member}`);
  return match[1]!;
}

let contexts: ClientContext[] = [];
afterEach(async () => {
  await Promise.all(contexts.map((context) => context.close()));
  contexts = [];
});

/** A context over a transport that redirects every request to the next numbered path. */
function redirecting(options: ClientOptions = {}) {
  const requested: string[] = [];
  const transport = async (input: string | URL | Request) => {
    const url = new URL(String(input instanceof Request ? input.url : input));
    requested.push(url.pathname);
    return new Response(null, { status: 302, headers: { location: `/hop${requested.length}` } });
  };
  const context = createClientContext({ ...options, network: { ...options.network, fetch: transport } });
  contexts.push(context);
  return { context, requested };
}

describe('ClientOptions.network', () => {
  it('documents the guard defaults that are applied', () => {
    const documented = documentedDefault('network');
    const seconds = (phase: string) => Number(new RegExp(`(\\d+) s ${phase}`).exec(documented)?.[1]) * 1_000;
    expect({ connectInMs: seconds('connect'), headersInMs: seconds('headers'), bodyIdleInMs: seconds('body idle'), totalInMs: seconds('total') }).toEqual(DEFAULT_TIMEOUTS);
    expect(Number(/(\d+) MiB responses/.exec(documented)?.[1]) * 1024 * 1024).toBe(DEFAULT_MAX_RESPONSE_SIZE_IN_BYTES);
    expect(documented).toContain('no redirects');
  });

  it('follows no redirect on a call by default: the 302 is the answer', async () => {
    const { context, requested } = redirecting();
    const response = await context.fetch.fetchBuffered('https://api.example.test/v1/start', { method: 'GET' }, { maxSizeInBytes: 1_000, option: 'response.maxSizeInBytes' });
    expect(response.status).toBe(302);
    expect(requested).toEqual(['/v1/start']);
  });

  it.each<[string, ClientOptions, string]>([
    ['network.maxRedirects', { network: { maxRedirects: 21 } }, 'network.maxRedirects'],
    ['network.timeouts.headersInMs', { network: { timeouts: { headersInMs: -1 } } }, 'network.timeouts.headersInMs'],
    ['network.maxResponseSizeInBytes', { network: { maxResponseSizeInBytes: 1.5 } }, 'network.maxResponseSizeInBytes'],
    ['network.allowPrivateNames', { network: { allowPrivateNames: 'yes' as never } }, 'network.allowPrivateNames'],
    ['discovery.maxRedirects', { discovery: { maxRedirects: 99 } }, 'discovery.maxRedirects'],
    ['discovery.maxManifestSizeInBytes', { discovery: { maxManifestSizeInBytes: -1 } }, 'discovery.maxManifestSizeInBytes'],
  ])('refuses a bad %s at createClient, naming it as the caller wrote it', (_case, options, option) => {
    expect(thrownBy(() => createClientContext(options))).toMatchObject({ code: 'INVALID_OPTION', option });
  });
});

describe('ClientOptions.discovery', () => {
  it('documents the manifest size cap that is applied (8 MiB)', () => {
    expect(documentedDefault('maxManifestSizeInBytes')).toMatch(/^defaultManifestMaxSizeInBytes \(8 MiB\)/);
    expect(defaultManifestMaxSizeInBytes).toBe(8 * 1024 * 1024);
  });

  it(`follows the documented ${documentedDefault('maxRedirects')} redirects for a manifest, then stops naming discovery.maxRedirects`, async () => {
    const { context, requested } = redirecting();
    const error = await errorOf(
      context.manifestFetch.fetchBuffered('https://api.example.test/.well-known/ai-capabilities', { method: 'GET' }, { maxSizeInBytes: 1_000, option: 'discovery.maxManifestSizeInBytes' }),
    );
    expect(requested).toHaveLength(Number(documentedDefault('maxRedirects')) + 1);
    expect(error.message).toContain('discovery.maxRedirects');
  });

  it('follows the manifest redirects it is told to, and keeps calls at network.maxRedirects', async () => {
    const { context, requested } = redirecting({ discovery: { maxRedirects: 1 }, network: { maxRedirects: 2 } });
    await errorOf(context.manifestFetch.fetchBuffered('https://api.example.test/m', { method: 'GET' }, { maxSizeInBytes: 1_000, option: 'x' }));
    expect(requested).toEqual(['/m', '/hop1']);
    requested.length = 0;
    await errorOf(context.fetch.fetchBuffered('https://api.example.test/c', { method: 'GET' }, { maxSizeInBytes: 1_000, option: 'x' }));
    expect(requested).toEqual(['/c', '/hop1', '/hop2']);
  });
});

describe('ClientOptions.trust.allowedOrigins', () => {
  it.each(['api.example.com', 'ftp://files.example.com', 'not a url', ''])('refuses the entry %j, saying what an origin looks like', (entry) => {
    const error = thrownBy(() => createClientContext({ trust: { allowedOrigins: [entry] } }));
    expect(error.code).toBe('INVALID_OPTION');
    expect(error.message).toContain('must be an origin such as https://api.example.com');
  });

  it('keeps the origin of an entry given as a URL', () => {
    const context = createClientContext({ trust: { allowedOrigins: ['https://cdn.example.com/assets/'] } });
    contexts.push(context);
    expect([...context.allowedBaseOrigins]).toEqual(['https://cdn.example.com']);
  });
});

describe('ClientOptions.onAudit', () => {
  it('stamps events with the injected clock, and a sink that throws does not break the caller', () => {
    const seen: unknown[] = [];
    const context = createClientContext({ now: () => 42, onAudit: (event) => seen.push(event) });
    const failing = createClientContext({
      onAudit: () => {
        throw new Error('log full');
      },
    });
    contexts.push(context, failing);
    context.emitAudit({ type: 'call.refused', toolId: 't', detail: 'd' });
    expect(seen).toEqual([{ type: 'call.refused', toolId: 't', detail: 'd', timeInMs: 42 }]);
    expect(() => failing.emitAudit({ type: 'call.refused', toolId: 't', detail: 'd' })).not.toThrow();
  });
});
