// `aicap check` / `checkCapabilities`: the http.revocation_window rule (spec section 8.8), against a real server.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkCapabilities, gradeCheckReport } from '../../src/client/index.js';
import { json, startClientTestServer, type ClientTestServer } from '../helpers/client-test-server.js';
import { smallManifest } from '../helpers/client-manifests.js';

let server: ClientTestServer;
beforeAll(async () => {
  server = await startClientTestServer();
});
afterAll(async () => {
  await server.close();
});

async function windowCheck(cacheControl: string | undefined, maxStaleInSeconds?: number): Promise<{ outcome: string; message: string; level: string; section: string } | undefined> {
  server.routes.set(
    '/.well-known/ai-capabilities',
    json(smallManifest('Orders API', server.origin, [{ id: 'get_order', description: 'Reads one order.' }]), cacheControl === undefined ? {} : { 'cache-control': cacheControl }),
  );
  const report = await checkCapabilities(server.origin, { probeEndpoints: false, ...(maxStaleInSeconds === undefined ? {} : { maxStaleInSeconds }) });
  return gradeCheckReport(report).checks.find((check) => check.id === 'http.revocation_window');
}

describe('http.revocation_window', () => {
  it('passes a max-age within a day and names the sum', async () => {
    expect(await windowCheck('public, max-age=300, stale-while-revalidate=60')).toMatchObject({
      outcome: 'pass',
      level: 'SHOULD',
      section: '8.8',
      message: 'clients keep the manifest at most 360 s without asking (max-age 300 + stale-while-revalidate 60)',
    });
  });

  it('warns when max-age plus the stale windows pass the threshold, saying what to do', async () => {
    const check = await windowCheck('public, max-age=86400, stale-if-error=604800');
    expect(check?.outcome).toBe('warn');
    expect(check?.message).toContain('up to 691200 s (max-age 86400 + stale-if-error 604800), more than 86400 s');
    expect(check?.message).toContain('410');
  });

  it('takes the threshold from the caller (the --max-stale flag of aicap check)', async () => {
    expect((await windowCheck('max-age=600', 300))?.outcome).toBe('warn');
    expect((await windowCheck('max-age=600', 600))?.outcome).toBe('pass');
  });

  it('counts s-maxage for caches on the way, and passes no-cache', async () => {
    expect((await windowCheck('max-age=60, s-maxage=172800'))?.outcome).toBe('warn');
    expect((await windowCheck('no-cache'))?.outcome).toBe('pass');
  });

  it('is skipped without Cache-Control', async () => {
    expect((await windowCheck(undefined))?.outcome).toBe('skip');
  });
});
