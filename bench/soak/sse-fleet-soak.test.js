import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { HAS_REDIS_SERVER } from './start-soak-fleet.js';
import { readSoakSettings } from './sse-fleet-soak.js';
import { memoryTrend } from './summarize-soak.js';

const SCRIPT = fileURLToPath(new URL('./sse-fleet-soak.js', import.meta.url));
const BUILT = ['../../dist/redis/index.js', '../../examples/payments/dist/start-payments-server.js'].every((path) => existsSync(fileURLToPath(new URL(path, import.meta.url))));
if (!HAS_REDIS_SERVER || !BUILT) console.warn('Skipping the soak smoke run: it needs redis-server on PATH (apt-get install -y redis-server) and `npm run build`.');

describe('readSoakSettings', () => {
  it('defaults to the issue figures, --quick to a smoke run, explicit flags winning', () => {
    expect(readSoakSettings(['--output', 'x.md']).settings).toMatchObject({ durationInSeconds: 60, subscribers: 1000, replicas: 2, quick: false });
    expect(readSoakSettings(['--quick', '--output', 'x.md']).settings).toMatchObject({ durationInSeconds: 5, subscribers: 100, quick: true });
    expect(readSoakSettings(['--quick', '--subscribers', '40', '--output', 'x.md']).settings.subscribers).toBe(40);
    expect(() => readSoakSettings(['--subscribers', 'many'])).toThrow('--subscribers must be a whole number');
  });
});

describe('memoryTrend', () => {
  it('gives start, max, end and the least-squares slope per minute', () => {
    const samples = [0, 1, 2].map((minute) => ({ atInMs: minute * 60_000, rssInBytes: (10 + 2 * minute) * 1024 * 1024 }));
    expect(memoryTrend(samples, 'rssInBytes')).toEqual({ samples: 3, startInMiB: 10, maxInMiB: 14, endInMiB: 14, slopeInMiBPerMinute: 2 });
  });
});

describe.skipIf(!HAS_REDIS_SERVER || !BUILT)('npm run bench:soak -- --quick', () => {
  const folder = mkdtempSync(join(tmpdir(), 'aicap-soak-test-'));
  afterAll(() => rmSync(folder, { recursive: true, force: true }));

  it('runs 100 subscribers on two replicas, delivers events exactly once each, and writes the Markdown and JSON', { timeout: 180_000 }, async () => {
    const output = join(folder, 'soak.md');
    const code = await new Promise((resolve) => execFile(process.execPath, [SCRIPT, '--quick', '--output', output], { timeout: 170_000 }, (error) => resolve(error ? (error.code ?? -1) : 0)));
    expect(code).toBe(0);
    const results = JSON.parse(readFileSync(join(folder, 'soak.json'), 'utf8'));
    expect(results.settings).toMatchObject({ quick: true, subscribers: 100, durationInSeconds: 5, replicas: 2 });
    expect(results.subscribers).toMatchObject({ requested: 100, connected: 100, perReplica: [50, 50] });
    expect(results.delivery.eventsCreated).toBeGreaterThan(0);
    expect(results.delivery.deliveries).toBeGreaterThan(0);
    expect(results.delivery.deliveries).toBeLessThanOrEqual(results.delivery.deliveriesExpected);
    expect(results.subscribers).toMatchObject({ errors: 0, duplicates: 0, gaps: 0 });
    expect(Number.isFinite(results.delivery.latencyInMs.p99)).toBe(true);
    expect(results.replicas).toHaveLength(2);
    for (const replica of results.replicas) expect(replica.rss.samples).toBeGreaterThan(0);
    expect(readFileSync(output, 'utf8')).toContain('## Delivery');
  });
});
