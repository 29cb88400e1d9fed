import { describe, expect, it } from 'vitest';
import { parseHealthReport, retryAtOf } from './parse-health-report.js';

function refusal(value: unknown): { code: string; message: string } {
  try {
    parseHealthReport(value);
  } catch (error) {
    return error as { code: string; message: string };
  }
  throw new Error('expected the report to be refused');
}

describe('parseHealthReport', () => {
  it('keeps the known members and drops the rest', () => {
    const report = parseHealthReport({ status: 'degraded', retry_after: 30, message: 'slow', extra: 'dropped', tools: { pay: { status: 'maintenance', note: 'x' } } });
    expect(report).toEqual({ status: 'degraded', retry_after: 30, message: 'slow', tools: { pay: { status: 'maintenance' } } });
  });

  it('refuses a value that is not an object, and an unknown status, naming the pointer', () => {
    expect(refusal(null)).toMatchObject({ code: 'INVALID_ARGUMENT', message: expect.stringContaining('at / must be an object') });
    expect(refusal(['ok']).code).toBe('INVALID_ARGUMENT');
    expect(refusal({ status: 'OK' }).message).toContain('/status');
    expect(refusal({}).message).toContain('/status');
  });

  it('takes retry_after as whole seconds from 0 to a week, refusing the rest', () => {
    expect(parseHealthReport({ status: 'maintenance', retry_after: 0 }).retry_after).toBe(0);
    expect(parseHealthReport({ status: 'maintenance', retry_after: 604_800 }).retry_after).toBe(604_800);
    for (const bad of [604_801, -1, 1.5, Number.NaN, '600', true]) {
      expect(refusal({ status: 'maintenance', retry_after: bad }).message).toContain('/retry_after');
    }
  });

  it('takes retry_after as an RFC 3339 date-time, refusing other date forms and impossible dates', () => {
    expect(parseHealthReport({ status: 'ok', retry_after: '2026-12-04T06:00:00Z' }).retry_after).toBe('2026-12-04T06:00:00Z');
    expect(parseHealthReport({ status: 'ok', retry_after: '2026-12-04T06:00:00.5+01:00' }).status).toBe('ok');
    for (const bad of ['Fri, 04 Dec 2026 06:00:00 GMT', '2026-12-04', '2026-13-45T99:00:00Z']) {
      expect(refusal({ status: 'ok', retry_after: bad }).message).toContain('/retry_after');
    }
  });

  it('caps the operator message at 512 characters', () => {
    expect(parseHealthReport({ status: 'ok', message: 'm'.repeat(512) }).message).toHaveLength(512);
    expect(refusal({ status: 'ok', message: 'm'.repeat(513) }).message).toContain('/message');
    expect(refusal({ status: 'ok', message: 5 }).message).toContain('/message');
  });

  it('points into tools by id, and refuses keys that are not tool ids', () => {
    expect(refusal({ status: 'ok', tools: { pay: { status: 'down' } } }).message).toContain('/tools/pay/status');
    expect(refusal({ status: 'ok', tools: [] }).message).toContain('/tools');
    const hostile = refusal({ status: 'ok', tools: { '../x\u001b[31m': { status: 'ok' } } });
    expect(hostile.message).toContain('not a tool id');
    expect(hostile.message).not.toContain('\u001b');
  });

  it('accepts 2,000 tools and refuses 2,001', () => {
    const tools = (count: number) => Object.fromEntries(Array.from({ length: count }, (_, index) => [`t${index}`, { status: 'ok' }]));
    expect(Object.keys(parseHealthReport({ status: 'ok', tools: tools(2000) }).tools ?? {})).toHaveLength(2000);
    expect(refusal({ status: 'ok', tools: tools(2001) }).message).toContain('2001 tools');
  });

  it('does not let a tool named __proto__ or constructor reach the prototype', () => {
    const report = parseHealthReport(JSON.parse('{"status":"ok","tools":{"constructor":{"status":"degraded"}}}'));
    expect(report.tools?.['constructor']).toEqual({ status: 'degraded' });
    expect(({} as Record<string, unknown>)['status']).toBeUndefined();
  });
});

describe('retryAtOf', () => {
  it('adds seconds to the injected now, parses a date-time, and says null when nothing is given', () => {
    expect(retryAtOf({ retry_after: 600 }, 1_000)).toBe(601_000);
    expect(retryAtOf({ retry_after: '1970-01-01T00:00:10Z' }, 5)).toBe(10_000);
    expect(retryAtOf({}, 5)).toBeNull();
  });
});
