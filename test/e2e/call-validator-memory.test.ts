/**
 * Compiled argument validators must not outlive the client or the manifest they belong to: an
 * orchestrator that builds one client per request, or whose API regenerates its manifest, would
 * otherwise grow without bound. Measures the heap after forced garbage collections; the bound (8 MiB
 * over 500 rounds) is about five times what a flat heap shows here, and a quarter of what the
 * process-wide validator cache leaked.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '../../src/client/create-client.js';
import type { Manifest } from '../../src/manifest/manifest-v0.js';
import { json, startClientTestServer, type ClientTestServer } from '../helpers/client-test-server.js';

// `--expose-gc` at run time: the worker was started without it, and a fresh context picks the flag up.
setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('gc') as () => void;

const ROUNDS = 500;
const MEBIBYTE = 1024 * 1024;

let server: ClientTestServer;
beforeAll(async () => {
  server = await startClientTestServer();
  server.routes.set('/search', json({ results: [] }));
});
afterAll(() => server.close());

/** A manifest whose one tool has 12 parameters of 30 allowed values each: a compiled validator of some 90 KiB. */
function manifest(nonce: number): Manifest {
  const parameters = Object.fromEntries(
    Array.from({ length: 12 }, (_, index) => [
      `field_${index}`,
      { type: 'string', json_schema: { type: 'string', maxLength: 40 + index, enum: Array.from({ length: 30 }, (_, value) => `value_${index}_${value}`) } },
    ]),
  );
  return {
    schema_version: '0.1.0',
    service: { name: 'Search', base_url: server.origin, description: `Search (build ${nonce})` },
    tools: [{ id: 'search', description: `Searches the catalog (build ${nonce}).`, method: 'GET', path: '/search', parameters }],
  } as Manifest;
}

async function heapAfterGc(): Promise<number> {
  for (let pass = 0; pass < 4; pass++) {
    collectGarbage();
    await new Promise((resolve) => setImmediate(resolve));
  }
  return process.memoryUsage().heapUsed;
}

describe('argument validator lifetime', () => {
  it(`keeps the heap flat over ${ROUNDS} short-lived clients`, { timeout: 240_000 }, async () => {
    const run = async (): Promise<void> => {
      const client = createClient({ network: { allow: [server.origin] } });
      try {
        await client.load(manifest(0));
        const envelope = await client.call('search', { field_0: 'value_0_1' });
        expect(envelope.ok).toBe(true);
      } finally {
        await client.close();
      }
    };
    // Warm-up: module-level state (the meta-schema checker, connection pools) is created once.
    for (let round = 0; round < 20; round++) await run();
    const before = await heapAfterGc();
    for (let round = 0; round < ROUNDS; round++) await run();
    const growthInMiB = ((await heapAfterGc()) - before) / MEBIBYTE;
    console.info(`validator memory: heap growth over ${ROUNDS} closed clients: ${growthInMiB.toFixed(1)} MiB`);
    expect(growthInMiB).toBeLessThan(8);
  });

  it(`keeps the heap flat over ${ROUNDS} manifest changes on one client`, { timeout: 240_000 }, async () => {
    const client = createClient({ network: { allow: [server.origin] } });
    try {
      const round = async (nonce: number): Promise<void> => {
        await client.load(manifest(nonce));
        const envelope = await client.call('search', { field_1: 'value_1_2' });
        expect(envelope.ok).toBe(true);
      };
      for (let nonce = 0; nonce < 20; nonce++) await round(nonce);
      const before = await heapAfterGc();
      for (let nonce = 20; nonce < 20 + ROUNDS; nonce++) await round(nonce);
      const growthInMiB = ((await heapAfterGc()) - before) / MEBIBYTE;
      console.info(`validator memory: heap growth over ${ROUNDS} manifest changes: ${growthInMiB.toFixed(1)} MiB`);
      expect(growthInMiB).toBeLessThan(8);
    } finally {
      await client.close();
    }
  });
});
