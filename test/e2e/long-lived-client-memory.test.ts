/**
 * An agent keeps one client for hours: every revalidation (a conditional GET answered 304) and every
 * call must leave nothing behind that lives as long as the client. Measures the heap after forced
 * garbage collections around thousands of operations on one client. A revalidation promotes some
 * 2–3 KB to the old generation before it dies, so anything that kept that much per operation would
 * grow the heap by several MiB here; the bound is 2 MiB.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '../../src/client/create-client.js';
import type { Manifest } from '../../src/manifest/manifest-v0.js';

// `--expose-gc` at run time: the worker was started without it, and a fresh context picks the flag up.
setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('gc') as () => void;

const OPERATIONS = 3_000;
// Long enough for what lives once per process (compiled code, memos) to be made before the measure.
const WARM_UP_OPERATIONS = 2_000;
const MEBIBYTE = 1024 * 1024;
const ETAG = '"v1"';

let server: Server;
let origin: string;
// Counted, not recorded: a list of requests in this process would itself grow the heap.
const answered = { notModified: 0, manifests: 0, calls: 0 };

function manifest(): Manifest {
  return {
    schema_version: '0.1.0',
    service: { name: 'Orders', base_url: origin, description: 'Orders of a shop' },
    tools: [
      {
        id: 'get_order',
        description: 'Reads one order by its id.',
        method: 'GET',
        path: '/orders/{order_id}',
        parameters: { order_id: { type: 'string', in: 'path', required: true }, expand: { type: 'boolean', in: 'query' } },
      },
    ],
  } as Manifest;
}

beforeAll(async () => {
  server = createServer((request, response) => {
    if (request.url === '/.well-known/ai-capabilities') {
      if (request.headers['if-none-match'] === ETAG) {
        answered.notModified++;
        response.writeHead(304, { etag: ETAG, 'cache-control': 'max-age=0' }).end();
        return;
      }
      answered.manifests++;
      response.writeHead(200, { 'content-type': 'application/json', etag: ETAG, 'cache-control': 'max-age=0' }).end(JSON.stringify(manifest()));
      return;
    }
    answered.calls++;
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ id: request.url?.split('/')[2]?.split('?')[0], total: 42 }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

async function heapAfterGc(): Promise<number> {
  for (let pass = 0; pass < 4; pass++) {
    collectGarbage();
    await new Promise((resolve) => setImmediate(resolve));
  }
  return process.memoryUsage().heapUsed;
}

/** Heap growth in MiB over `OPERATIONS` runs of `operation`, after a warm-up that creates what lives once per process. */
async function growthOver(operation: (index: number) => Promise<void>): Promise<number> {
  for (let index = 0; index < WARM_UP_OPERATIONS; index++) await operation(index);
  const before = await heapAfterGc();
  for (let index = 0; index < OPERATIONS; index++) await operation(index);
  return ((await heapAfterGc()) - before) / MEBIBYTE;
}

describe('one long-lived client', () => {
  it(`keeps the heap flat over ${OPERATIONS} revalidations answered 304`, { timeout: 120_000 }, async () => {
    const client = createClient({ network: { allow: [origin] } });
    try {
      await client.discover(origin);
      const before = answered.notModified;
      const growthInMiB = await growthOver(async () => {
        await client.discover(origin);
      });
      // Every discovery after the first was a revalidation: the test measured the 304 path.
      expect(answered.notModified - before).toBe(OPERATIONS + WARM_UP_OPERATIONS);
      console.info(`long-lived client: heap growth over ${OPERATIONS} revalidations: ${growthInMiB.toFixed(2)} MiB`);
      expect(growthInMiB).toBeLessThan(2);
    } finally {
      await client.close();
    }
  });

  it(`keeps the heap flat over ${OPERATIONS} calls`, { timeout: 120_000 }, async () => {
    const client = createClient({ network: { allow: [origin] } });
    try {
      await client.discover(origin);
      const growthInMiB = await growthOver(async (index) => {
        const envelope = await client.call('get_order', { order_id: `ord_${index}`, expand: index % 2 === 0 });
        expect(envelope.ok).toBe(true);
      });
      console.info(`long-lived client: heap growth over ${OPERATIONS} calls: ${growthInMiB.toFixed(2)} MiB`);
      expect(growthInMiB).toBeLessThan(2);
    } finally {
      await client.close();
    }
  });
});
