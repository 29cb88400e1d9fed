// The fresh-process bounds of discover-once.js: `floor` reads the manifest with no checks, `strict`
// with the strict read alone, `checks` with `parseManifest` as a client would. A document each check
// refuses must stop the bound that claims to run it: a bound that skipped a check would promise more
// than a client running it can reach.
import { execFile } from 'node:child_process';
import { createServer } from 'node:http';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MANIFEST_MEDIA_TYPE } from 'aicap';
import { startPaymentsServer } from '../../examples/payments/dist/start-payments-server.js';

const run = promisify(execFile);
const DISCOVER_ONCE = new URL('./discover-once.js', import.meta.url).pathname;
let payments;
let invalid;
let duplicate;

/** One line of figures from a discover-once process. */
async function once(origin, mode) {
  const { stdout } = await run(process.execPath, [DISCOVER_ONCE, origin, mode], { timeout: 30_000 });
  return JSON.parse(stdout.trim().split('\n').at(-1));
}

beforeAll(async () => {
  payments = await startPaymentsServer({ rateLimit: { requests: 1_000, windowInMs: 60_000 } });
  // Well-formed JSON whose tool lacks everything a tool needs: the floor reads it, the checks must not.
  invalid = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': MANIFEST_MEDIA_TYPE }).end(JSON.stringify({ schema_version: '0.1.0', tools: [{ name: 'x' }] }));
  });
  await new Promise((resolve) => invalid.listen(0, '127.0.0.1', resolve));
  // JSON.parse keeps the second `tools`; section 2 of the specification makes a client refuse the document.
  duplicate = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': MANIFEST_MEDIA_TYPE }).end('{"schema_version":"0.1.0","tools":[],"tools":[{"name":"x"}]}');
  });
  await new Promise((resolve) => duplicate.listen(0, '127.0.0.1', resolve));
});

afterAll(async () => {
  await payments?.close();
  await new Promise((resolve) => (invalid ? invalid.close(resolve) : resolve()));
  await new Promise((resolve) => (duplicate ? duplicate.close(resolve) : resolve()));
});

describe('discover-once bounds', () => {
  it('reads the manifest in every mode and reports the figures of that one operation', async () => {
    for (const mode of ['floor', 'strict', 'checks']) {
      const line = await once(payments.origin, mode);
      expect(line).toMatchObject({ mode, tools: 5 });
      expect(line.cpuInMs).toBeGreaterThan(0);
      expect(line.discoveryInMs).toBeGreaterThan(0);
    }
  });

  it('stops the checks on a manifest that fails validation, where the floor and the strict read read it', async () => {
    const origin = `http://127.0.0.1:${invalid.address().port}`;
    expect(await once(origin, 'floor')).toMatchObject({ mode: 'floor', tools: 1 });
    expect(await once(origin, 'strict')).toMatchObject({ mode: 'strict', tools: 1 });
    await expect(once(origin, 'checks')).rejects.toThrow(/is not a valid manifest/);
  });

  it('stops the strict read on a duplicate member, where the floor keeps the last one', async () => {
    const origin = `http://127.0.0.1:${duplicate.address().port}`;
    expect(await once(origin, 'floor')).toMatchObject({ mode: 'floor', tools: 1 });
    await expect(once(origin, 'strict')).rejects.toThrow(/duplicate/i);
  });

  it('refuses a mode it does not know instead of measuring a cold aicap discovery under that name', async () => {
    await expect(once(payments.origin, 'flor')).rejects.toThrow(/Usage: node bench\/sections\/discover-once\.js <origin> .*got \[".*","flor"\]/);
  });
});
