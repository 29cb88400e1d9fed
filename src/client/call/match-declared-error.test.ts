import { describe, expect, it } from 'vitest';
import type { ErrorContract } from '../../manifest/manifest-v0.js';
import { matchDeclaredError } from './match-declared-error.js';

const errors: Record<string, ErrorContract> = {
  rate_limited: { status: 429 },
  not_found: { status: 404, type: 'urn:problem:not-found' },
  gone: { status: 404, type: 'urn:problem:gone' },
  conflict: { status: 409, type: 'urn:problem:conflict' },
  generic_400: { status: 400 },
  typed_400: { status: 400, type: 'urn:problem:bad-date' },
};

describe('matchDeclaredError', () => {
  it.each([
    [429, undefined, 'rate_limited'],
    [429, 'urn:anything', 'rate_limited'],
    [404, 'urn:problem:gone', 'gone'],
    [404, 'urn:problem:not-found', 'not_found'],
    [404, undefined, undefined],
    [404, 'urn:problem:other', undefined],
    [409, undefined, 'conflict'],
    [409, 'urn:problem:other', undefined],
    [400, 'urn:problem:bad-date', 'typed_400'],
    [400, 'urn:problem:other', 'generic_400'],
    [500, undefined, undefined],
  ])('status %i with type %j matches %j', (status, type, expected) => {
    expect(matchDeclaredError(errors, status, type)?.code).toBe(expected);
  });

  it('matches nothing when the tool declares no errors', () => {
    expect(matchDeclaredError(undefined, 429, undefined)).toBeUndefined();
  });
});
