import { afterEach, describe, expect, it } from 'vitest';
import { createClient, type Client } from '../../src/client/index.js';
import { validateManifest } from '../../src/manifest/validate-manifest.js';
import type { ManifestChangeEvent } from '../../src/client/trust/manifest-change-event.js';
import { feedManifest, startLivenessServer, type LivenessServer } from '../helpers/start-liveness-server.js';

const MANIFEST_PATH = '/.well-known/ai-capabilities';

async function until(condition: () => boolean, what: string, timeoutInMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutInMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

function nextChange(client: Client, timeoutInMs = 5000): Promise<ManifestChangeEvent> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('no change event')), timeoutInMs);
    const off = client.on('change', (event) => {
      clearTimeout(timer);
      off();
      resolve(event);
    });
  });
}

let server: LivenessServer | undefined;
let client: Client | undefined;
afterEach(async () => {
  await client?.close();
  await server?.close();
  client = undefined;
  server = undefined;
});

describe('a client following a declared change feed', () => {
  it('refuses a removed tool on the next call, without a request to its endpoint, long before max-age runs out', async () => {
    server = await startLivenessServer('node:http', (origin) => feedManifest(origin, ['read_a', 'refund']));
    client = createClient();
    await client.discover(server.origin);
    await until(() => server!.feed.subscriberCount === 1, 'the client subscribed');
    expect((await client.call('refund')).ok).toBe(true);
    const changed = nextChange(client);
    await server.manifestHandler.update(feedManifest(server.origin, ['read_a']));
    expect((await changed).removed).toEqual(['refund']);
    expect(await client.call('refund')).toMatchObject({ ok: false, error: { code: 'TOOL_REVOKED' } });
    expect(server.hits.get('/refund')).toBe(1);
    // The manifest is public, max-age=300: without the feed the client would have kept it 5 minutes.
    expect(client.services()[0]!.manifest.tools.map((tool) => tool.id)).toEqual(['read_a']);
  });

  it('ignores heartbeats, and does not revalidate for the digest it holds', async () => {
    server = await startLivenessServer('node:http', (origin) => feedManifest(origin, ['read_a']), { heartbeatIntervalInMs: 10 });
    client = createClient();
    await client.discover(server.origin);
    await until(() => server!.feed.subscriberCount === 1, 'the client subscribed');
    const manifestRequests = server.hits.get(MANIFEST_PATH);
    // Publishing the digest already served sends nothing; heartbeats arrive every 10 ms meanwhile.
    server.feed.publish(server.manifestHandler.digest()!);
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(server.hits.get(MANIFEST_PATH)).toBe(manifestRequests);
  });

  it('reconnects with Last-Event-ID after the socket is cut mid-stream, and hears the change made meanwhile', async () => {
    server = await startLivenessServer('node:http', (origin) => feedManifest(origin, ['read_a', 'refund']));
    client = createClient({ discovery: { changeFeed: { minReconnectDelayInMs: 20 } } });
    await client.discover(server.origin);
    await until(() => server!.feed.subscriberCount === 1, 'the client subscribed');
    const feedRequests = server.hits.get(server.feed.path)!;
    const changed = nextChange(client);
    // Cut every feed socket, then change the manifest while the client is disconnected.
    server.cutConnections();
    await server.manifestHandler.update(feedManifest(server.origin, ['read_a']));
    expect((await changed).removed).toEqual(['refund']);
    expect(server.hits.get(server.feed.path)!).toBeGreaterThan(feedRequests);
  });

  it('closes cleanly: client.close() ends the stream and leaves no timer or socket behind', async () => {
    server = await startLivenessServer('express', (origin) => feedManifest(origin, ['read_a']), { heartbeatIntervalInMs: 20 });
    const count = (name: string): number => process.getActiveResourcesInfo().filter((resource) => resource === name).length;
    const before = { timers: count('Timeout'), sockets: count('TCPSocketWrap') };
    client = createClient();
    await client.discover(server.origin);
    await until(() => server!.feed.subscriberCount === 1, 'the client subscribed');
    expect(count('TCPSocketWrap')).toBeGreaterThan(before.sockets);
    await client.close();
    client = undefined;
    await until(() => server!.feed.subscriberCount === 0, 'the server saw the stream end');
    // Both ends of every connection the client opened are gone, and so is every timer it set.
    await until(() => count('TCPSocketWrap') <= before.sockets && count('Timeout') <= before.timers, 'no socket or timer left by the client', 2000);
  });

  it('waits for Retry-After when the feed is full, and does not follow with `changeFeed: false`', async () => {
    server = await startLivenessServer('node:http', (origin) => feedManifest(origin, ['read_a']), { maxSubscribers: 1, retryAfterInSeconds: 1 });
    const first = createClient();
    await first.discover(server.origin);
    await until(() => server!.feed.subscriberCount === 1, 'the first client subscribed');
    client = createClient({ discovery: { changeFeed: { minReconnectDelayInMs: 5, maxReconnectDelayInMs: 10 } } });
    await client.discover(server.origin);
    await until(() => server!.hits.get(server!.feed.path) === 2, 'the refused attempt');
    const refusedAt = Date.now();
    await first.close();
    await until(() => server!.hits.get(server!.feed.path) === 3, 'the second attempt', 3000);
    expect(Date.now() - refusedAt).toBeGreaterThanOrEqual(900);
    await until(() => server!.feed.subscriberCount === 1, 'the second client subscribed');

    const quiet = createClient({ discovery: { changeFeed: false } });
    await quiet.discover(server.origin);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(server.hits.get(server.feed.path)).toBe(3);
    await quiet.close();
  });

  it('never follows a feed path that a URL parser would read as another host', async () => {
    for (const path of ['//127.0.0.1:1/changes', '/\\127.0.0.1:1/changes']) {
      const manifest = { ...feedManifest('http://127.0.0.1:1', ['read_a']), change_feed: { path } };
      expect(validateManifest(manifest).issues).toContainEqual(expect.objectContaining({ pointer: '/change_feed/path', severity: 'error' }));
    }
  });

  it('refuses revalidate() of a service it never discovered or only loaded, naming the method', async () => {
    client = createClient();
    await expect(client.revalidate('http://127.0.0.1:1/.well-known/ai-capabilities')).rejects.toMatchObject({ code: 'INVALID_ARGUMENT', message: expect.stringContaining('`client.revalidate`') });
    const loaded = await client.load(feedManifest('http://127.0.0.1:1', ['read_a']));
    await expect(client.revalidate(loaded.manifestUrl)).rejects.toMatchObject({ code: 'INVALID_ARGUMENT', message: expect.stringContaining('client.load') });
  });
});
