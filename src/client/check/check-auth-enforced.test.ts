import { describe, expect, it } from 'vitest';
import { stageManifest } from '../../../test/helpers/stage-manifest.js';
import type { Manifest } from '../../manifest/manifest-v0.js';
import { checkAuthEnforced, type AnonymousProbe } from './check-auth-enforced.js';
import type { CheckOutcome } from './check-result.js';

// listPayments and terms are read-only; only listPayments is scoped in the manifest below.
const scoped = { ...stageManifest(), auth: { type: 'bearer', scopes: { 'payments:read': ['listPayments'], 'payments:write': ['createPayment'] } } } as unknown as Manifest;

function grade(manifest: Manifest, probes: AnonymousProbe[] | undefined): { outcome: CheckOutcome; message: string } {
  const lines: Array<{ id: string; outcome: CheckOutcome; message: string }> = [];
  checkAuthEnforced(manifest, probes, (id, outcome, message) => void lines.push({ id, outcome, message }));
  expect(lines.map((line) => line.id)).toEqual(['auth.enforced']);
  return lines[0]!;
}

const probe = (id: string, status: number): AnonymousProbe => ({ id, target: `https://api.example.test/v1/${id}`, status });

describe('checkAuthEnforced', () => {
  it.each([
    ['probes off', undefined, 'skip', 'endpoint probes are off'],
    ['no scoped tool probed', [probe('terms', 200)], 'skip', 'not applicable'],
    ['a scoped tool refusing with 401', [probe('listPayments', 401), probe('terms', 200)], 'pass', '1 of 1 scoped tools refused'],
    ['a scoped tool refusing with 403', [probe('listPayments', 403)], 'pass', 'refused a request without credentials'],
    ['a scoped tool answering 200 without credentials', [probe('listPayments', 200)], 'fail', '1 of 1 scoped tools answered without credentials'],
    ['a scoped tool answering 204', [probe('listPayments', 204)], 'fail', 'answered 204'],
    ['only 404s (a preview serving the manifest only)', [probe('listPayments', 404)], 'skip', 'not determined'],
    ['only 500s', [probe('listPayments', 500)], 'skip', 'answered 500'],
  ])('%s: %s', (_case, probes, outcome, text) => {
    const line = grade(scoped, probes);
    expect(line.outcome).toBe(outcome);
    expect(line.message).toContain(text);
  });

  it('names the tool, its scope and the URL of an open endpoint, at most three of them', () => {
    const manifest = { ...scoped, auth: { type: 'bearer', scopes: { read: ['a', 'b', 'c', 'd'] } } } as unknown as Manifest;
    const line = grade(
      manifest,
      ['a', 'b', 'c', 'd'].map((id) => probe(id, 200)),
    );
    expect(line.message).toContain('4 of 4 scoped tools');
    expect(line.message).toContain('GET https://api.example.test/v1/a answered 200 (auth.scopes gives a "read")');
    expect(line.message).not.toContain('/v1/d');
  });

  it('one open scoped tool fails the check even when others refuse', () => {
    expect(grade(scoped, [probe('listPayments', 200), probe('listPayments', 401)]).outcome).toBe('fail');
  });

  it('a manifest without auth has no scoped tools: nothing to grade', () => {
    expect(grade({ ...stageManifest(), auth: undefined } as unknown as Manifest, [probe('listPayments', 200)]).outcome).toBe('skip');
  });
});
