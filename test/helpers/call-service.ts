import { createClient, type Client, type ClientOptions, type DiscoverOptions } from '../../src/client/index.js';
import type { Manifest, Tool } from '../../src/manifest/manifest-v0.js';
import { json, type ClientTestServer } from './client-test-server.js';

/** A minimal valid manifest whose `base_url` is the test server's origin. */
export function callManifest(origin: string, tools: Tool[], extra: Partial<Manifest> = {}): Manifest {
  return {
    schema_version: '0.1.0',
    service: { name: 'Call Test API', base_url: `${origin}/api` },
    tools,
    ...extra,
  };
}

/**
 * Serves `manifest` at the well-known path of `server`, creates a client with `options` and
 * discovers the server (a user-typed loopback origin, so the SSRF guard lets it through).
 */
export async function discoverCallService(server: ClientTestServer, manifest: Manifest, options: ClientOptions = {}, discoverOptions: DiscoverOptions = {}): Promise<Client> {
  server.routes.set('/.well-known/ai-capabilities', json(manifest, { 'cache-control': 'no-store', 'content-type': 'application/ai-capabilities+json' }));
  // Short backoff by default so retry tests stay fast; tests that measure waits pass their own.
  const client = createClient({ cache: false, ...options, retry: { baseDelayInMs: 5, maxDelayInMs: 20, ...options.retry } });
  await client.discover(server.origin, discoverOptions);
  return client;
}
