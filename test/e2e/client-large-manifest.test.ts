import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createClient, type Client } from '../../src/client/index.js';
import type { Manifest } from '../../src/manifest/manifest-v0.js';
import { json, startClientTestServer, type ClientTestServer } from '../helpers/client-test-server.js';
import { smallManifest } from '../helpers/client-manifests.js';

const WELL_KNOWN = '/.well-known/ai-capabilities';
const MEBIBYTE = 1_048_576;

let server: ClientTestServer;
let client: Client | undefined;

/** A valid manifest whose JSON text is a little over 1 MiB (many tools with plain descriptions). */
function largeManifest(baseUrl: string): Manifest {
  const description = 'Lists the ledger entries of one account for one day, newest first, with amounts in minor units. ';
  const tools = Array.from({ length: 1_400 }, (_, index) => ({ id: `list_entries_${index}`, description: description.repeat(7) }));
  return smallManifest('Ledger', baseUrl, tools);
}

beforeAll(async () => {
  server = await startClientTestServer();
});
afterAll(async () => {
  await server.close();
});
afterEach(async () => {
  await client?.close();
  client = undefined;
});

describe('manifests over 1 MiB', () => {
  it('builds a fixture over 1 MiB', () => {
    expect(Buffer.byteLength(JSON.stringify(largeManifest(server.origin)))).toBeGreaterThan(MEBIBYTE);
  });

  it('discovers one when `discovery.maxManifestSizeInBytes` is raised (fetch and parser caps alike)', async () => {
    server.routes.set(WELL_KNOWN, json(largeManifest(server.origin)));
    client = createClient({ discovery: { maxManifestSizeInBytes: 4 * MEBIBYTE } });
    const service = await client.discover(server.origin);
    expect(service.manifest.tools).toHaveLength(1_400);
  });

  it('discovers one with the default limit (defaultManifestMaxSizeInBytes, 8 MiB), download and parse alike', async () => {
    server.routes.set(WELL_KNOWN, json(largeManifest(server.origin)));
    client = createClient();
    expect((await client.discover(server.origin)).manifest.tools).toHaveLength(1_400);
  });

  it('refuses one over a smaller client-wide cap, naming `discovery.maxManifestSizeInBytes`', async () => {
    server.routes.set(WELL_KNOWN, json(largeManifest(server.origin)));
    client = createClient({ discovery: { maxManifestSizeInBytes: MEBIBYTE } });
    await expect(client.discover(server.origin)).rejects.toThrow(/discovery\.maxManifestSizeInBytes/);
  });

  it.each([
    ['text', (manifest: Manifest): string | Uint8Array | Manifest => JSON.stringify(manifest)],
    ['bytes', (manifest: Manifest): string | Uint8Array | Manifest => new TextEncoder().encode(JSON.stringify(manifest))],
    ['an object', (manifest: Manifest): string | Uint8Array | Manifest => manifest],
  ])('loads one given as %s with `maxSizeInBytes` or the client-wide cap', async (_kind, toInput) => {
    client = createClient({ discovery: { maxManifestSizeInBytes: 4 * MEBIBYTE } });
    expect((await client.load(toInput(largeManifest(server.origin)))).manifest.tools).toHaveLength(1_400);
    // A client-wide cap of 1 MiB (the default is defaultManifestMaxSizeInBytes, 8 MiB) applies to `load` unless it is given its own.
    const capped = createClient({ discovery: { maxManifestSizeInBytes: MEBIBYTE } });
    try {
      expect((await capped.load(toInput(largeManifest(server.origin)), { maxSizeInBytes: 2 * MEBIBYTE })).manifest.tools).toHaveLength(1_400);
      await expect(capped.load(toInput(largeManifest(server.origin)))).rejects.toMatchObject({
        code: 'MANIFEST_PARSE_FAILED',
        message: expect.stringMatching(/larger than 1048576 bytes; raise `discovery\.maxManifestSizeInBytes`/),
      });
      await expect(capped.load(toInput(largeManifest(server.origin)), { maxSizeInBytes: MEBIBYTE })).rejects.toThrow(/raise `maxSizeInBytes`/);
    } finally {
      await capped.close();
    }
  });

  it('refuses a bad `maxSizeInBytes` of `client.load` with INVALID_OPTION', async () => {
    client = createClient();
    await expect(client.load(largeManifest(server.origin), { maxSizeInBytes: 0 })).rejects.toMatchObject({
      code: 'INVALID_OPTION',
      message: expect.stringContaining('`maxSizeInBytes` option of `client.load`'),
    });
  });
});
