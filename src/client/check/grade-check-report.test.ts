import { describe, expect, it } from 'vitest';
import type { CheckResult } from './check-result.js';
import { gradeCheckReport } from './grade-check-report.js';

const url = 'https://api.example.com';
const pass = (id: string): CheckResult => ({ id, outcome: 'pass', message: 'ok' });
const healthy = ['manifest.fetch', 'manifest.status', 'manifest.media_type', 'manifest.valid', 'manifest.no_secrets', 'manifest.origin_binding', 'http.compression_vary'].map(pass);

describe('gradeCheckReport', () => {
  it('gives each line its level and section, and an endpoint probe the probe rule', () => {
    const graded = gradeCheckReport({ url, checks: [...healthy, pass('http.etag'), pass('endpoint.create_payment'), pass('x.unknown')] });
    const byId = new Map(graded.checks.map((check) => [check.id, check]));
    expect(byId.get('manifest.valid')).toMatchObject({ level: 'MUST', section: '9.1' });
    expect(byId.get('http.etag')).toMatchObject({ level: 'SHOULD', section: '5' });
    expect(byId.get('endpoint.create_payment')).toMatchObject({ level: 'SHOULD', section: '7.16' });
    expect(byId.get('x.unknown')).toMatchObject({ level: 'SHOULD', section: '—' });
  });

  it('conforms when every MUST that ran passed; a failed SHOULD does not change that', () => {
    const graded = gradeCheckReport({ url, checks: [...healthy, { id: 'http.etag', outcome: 'fail', message: 'no ETag' }] });
    expect(graded.ok).toBe(true);
    expect(graded.must).toEqual({ met: 7, total: 7 });
    expect(graded.should.met).toBe(graded.should.total - 1);
    expect(graded.summary).toMatch(/^conforms to aicap \d+\.\d+: 7\/7 MUST, /);
  });

  it('does not conform when a MUST warns or fails, except a valid manifest with warnings', () => {
    const warned = gradeCheckReport({ url, checks: healthy.map((check) => (check.id === 'manifest.valid' ? { ...check, outcome: 'warn' as const } : check)) });
    expect(warned.ok).toBe(true);
    const secrets = gradeCheckReport({ url, checks: healthy.map((check) => (check.id === 'manifest.no_secrets' ? { ...check, outcome: 'warn' as const } : check)) });
    expect(secrets.ok).toBe(false);
    expect(secrets.summary).toMatch(/^does not conform to aicap /);
  });

  it('lists what needed the answer as skipped when fetching the manifest failed, and does not count skips', () => {
    const graded = gradeCheckReport({ url, checks: [{ id: 'manifest.fetch', outcome: 'fail', message: 'ECONNREFUSED' }] });
    const skipped = graded.checks.filter((check) => check.outcome === 'skip');
    expect(skipped.map((check) => check.id)).toEqual(expect.arrayContaining(['manifest.media_type', 'manifest.valid', 'http.etag', 'manifest.no_secrets']));
    expect(skipped.find((check) => check.id === 'http.etag')?.message).toContain('manifest.fetch');
    expect(graded.must).toEqual({ met: 0, total: 1 });
    expect(graded.ok).toBe(false);
    expect(graded.skipped).toBe(skipped.length);
    expect(graded.summary).toContain(`(${skipped.length} skipped)`);
  });

  it('skips what needed a valid manifest when validation failed, naming it', () => {
    const graded = gradeCheckReport({ url, checks: [pass('manifest.fetch'), pass('manifest.status'), { id: 'manifest.valid', outcome: 'fail', message: 'bad' }] });
    expect(graded.checks.find((check) => check.id === 'manifest.origin_binding')).toMatchObject({ outcome: 'skip', message: expect.stringContaining('manifest.valid failed') });
    expect(graded.checks.find((check) => check.id === 'auth.provider_discovery')?.message).toContain('manifest.valid failed');
  });

  it('says not applicable for rules a healthy service may not meet, and never adds endpoint or MCP lines', () => {
    const graded = gradeCheckReport({ url, checks: healthy });
    expect(graded.checks.find((check) => check.id === 'auth.provider_discovery')).toMatchObject({ outcome: 'skip', message: expect.stringContaining('not applicable') });
    expect(graded.checks.some((check) => check.id === 'endpoints.probe' || check.id.startsWith('mcp.'))).toBe(false);
  });

  it('keeps a detected MCP server report short: nothing added', () => {
    const graded = gradeCheckReport({ url, checks: [{ id: 'mcp.detected', outcome: 'fail', message: 'an MCP server, not an aicap manifest' }] });
    expect(graded.checks).toHaveLength(1);
    expect(graded.summary).toBe(`does not conform to aicap ${graded.suite}: 0/1 MUST, 0/0 SHOULD`);
  });
});
