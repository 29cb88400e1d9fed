import { afterEach, describe, expect, it } from 'vitest';
import { errorOf, thrownBy } from '../../test/helpers/error-of.js';
import { createMemoryCacheStore } from './cache/cache-store.js';
import { createClientContext, type ClientContext } from './client-context.js';
import type { ClientOptions } from './client-options.js';
import type { AuditEvent, FetchFunction } from './shapes/client-types.js';

// The shared state one client builds: option checks, the two guarded fetches over an injected
// transport (no socket), pins, audits.

const contexts: ClientContext[] = [];
afterEach(async () => {
  await Promise.all(contexts.splice(0).map((context) => context.close()));
});

function contextOf(options: ClientOptions = {}, transport?: FetchFunction): ClientContext {
  const context = createClientContext(transport ? { ...options, network: { ...options.network, fetch: transport } } : options);
  contexts.push(context);
  return context;
}

const bytes =
  (size: number): FetchFunction =>
  async () =>
    new Response(new Uint8Array(size), { headers: { 'content-type': 'application/json' } });

describe('createClientContext: options', () => {
  it.each([['api.example.test'], ['ftp://api.example.test'], ['not a url'], ['']])('refuses trust.allowedOrigins entry %j with INVALID_OPTION naming it', (entry) => {
    const error = thrownBy(() => contextOf({ trust: { allowedOrigins: [entry] } }));
    expect(error.code).toBe('INVALID_OPTION');
    expect(error.message).toContain('`trust.allowedOrigins`');
    expect(error.message).toContain(JSON.stringify(entry));
  });

  it('keeps allowed origins as origins, whatever path they were written with', () => {
    expect([...contextOf({ trust: { allowedOrigins: ['https://CDN.example.test:443/path/?q', 'http://localhost:8080'] } }).allowedBaseOrigins]).toEqual([
      'https://cdn.example.test',
      'http://localhost:8080',
    ]);
  });

  it.each([['lazy'], [''], [true]])('refuses trust.scan %j', (scan) => {
    const error = thrownBy(() => contextOf({ trust: { scan: scan as never } }));
    expect(error.code).toBe('INVALID_OPTION');
    expect(error.message).toContain("`trust.scan` must be 'on-export' or 'eager'");
  });

  it.each([
    [{ network: { maxRedirects: -1 } }, 'network.maxRedirects'],
    [{ discovery: { maxRedirects: 1.5 } }, 'discovery.maxRedirects'],
    [{ discovery: { maxManifestSizeInBytes: -1 } }, 'discovery.maxManifestSizeInBytes'],
  ] as const)('names the option of a bad guard setting in the caller’s words: %o', (options, name) => {
    const error = thrownBy(() => contextOf(options as ClientOptions));
    expect(error.code).toBe('INVALID_OPTION');
    expect(error.message).toContain(name);
  });

  it('uses the cache given, none with cache: false, and a memory cache by default', () => {
    const given = createMemoryCacheStore();
    expect(contextOf({ cache: given }).cache).toBe(given);
    expect(contextOf({ cache: false }).cache).toBeUndefined();
    expect(contextOf().cache).toBeDefined();
  });
});

describe('createClientContext: the guarded fetches', () => {
  it('caps manifests at discovery.maxManifestSizeInBytes and other answers at network.maxResponseSizeInBytes, each error naming its option', async () => {
    const context = contextOf({ discovery: { maxManifestSizeInBytes: 1000 }, network: { maxResponseSizeInBytes: 5000 } }, bytes(2000));
    const manifestError = await errorOf(
      context.manifestFetch.fetchBuffered('https://api.example.test/.well-known/ai-capabilities', { method: 'GET' }, { maxSizeInBytes: 1000, option: 'discovery.maxManifestSizeInBytes' }),
    );
    expect(manifestError.code).toBe('RESPONSE_TOO_LARGE');
    expect(manifestError.message).toContain('discovery.maxManifestSizeInBytes');
    const answer = await context.fetch('https://api.example.test/items');
    expect((await answer.arrayBuffer()).byteLength).toBe(2000);
  });

  it('follows at most discovery.maxRedirects redirects for a manifest', async () => {
    let hops = 0;
    const transport: FetchFunction = async () => new Response(null, { status: 302, headers: { location: `https://api.example.test/hop${++hops}` } });
    const error = await errorOf(contextOf({ discovery: { maxRedirects: 2 } }, transport).manifestFetch('https://api.example.test/.well-known/ai-capabilities'));
    expect(error.message).toContain('discovery.maxRedirects');
    expect(hops).toBe(3);
  });

  it('refuses a loopback address unless the user gave that origin, even over an injected transport', async () => {
    let sent = 0;
    const context = contextOf({}, async () => (sent++, new Response('{}')));
    expect((await errorOf(context.fetch('http://127.0.0.1:9/items'))).code).toBe('SSRF_BLOCKED');
    expect(sent).toBe(0);
    context.trustedOrigins.add('http://127.0.0.1:9');
    expect((await context.fetch('http://127.0.0.1:9/items')).status).toBe(200);
    expect(sent).toBe(1);
  });
});

describe('createClientContext: pins, audits and listeners', () => {
  it("counts writes to the client's own pin store, and cannot for a store given in trust.pins", async () => {
    const own = contextOf();
    expect(own.pinWrites()).toBe(0);
    await own.pins.set('https://api.example.test|listPayments', 'sha256-x');
    await own.pins.delete('https://api.example.test|listPayments');
    await own.pins.get('https://api.example.test|listPayments');
    expect(own.pinWrites()).toBe(2);
    const given = createMemoryCacheStore<string>();
    const shared = contextOf({ trust: { pins: given } });
    expect(shared.pins).toBe(given);
    expect(shared.pinWrites()).toBeUndefined();
  });

  it('sends audit events through redactAudit with the time of the client clock', () => {
    const events: AuditEvent[] = [];
    const context = contextOf({ now: () => 42, onAudit: (event) => void events.push(event) });
    context.redactAudit = (event) => ({ ...event, detail: 'redacted' });
    context.emitAudit({ type: 'discovery', origin: 'https://api.example.test', detail: 'token=abc' });
    expect(events).toEqual([{ type: 'discovery', origin: 'https://api.example.test', detail: 'redacted', timeInMs: 42 }]);
  });

  it('never lets a throwing audit sink (or redaction) break what it observes', () => {
    const context = contextOf({
      onAudit: () => {
        throw new Error('disk full');
      },
    });
    expect(() => context.emitAudit({ type: 'discovery', origin: 'https://api.example.test' })).not.toThrow();
    context.redactAudit = () => {
      throw new Error('bad redactor');
    };
    expect(() => context.emitAudit({ type: 'discovery', origin: 'https://api.example.test' })).not.toThrow();
    expect(() => contextOf().emitAudit({ type: 'discovery', origin: 'https://api.example.test' })).not.toThrow();
  });

  it('starts with onChange among the change listeners', () => {
    const onChange = (): void => {};
    expect([...contextOf({ onChange }).changeListeners]).toEqual([onChange]);
    expect(contextOf().changeListeners.size).toBe(0);
  });

  it('gives each client its own state', () => {
    const first = contextOf();
    const second = contextOf();
    expect(first.discoveryMemo).not.toBe(second.discoveryMemo);
    expect(first.services).not.toBe(second.services);
    expect(first.pins).not.toBe(second.pins);
  });
});
