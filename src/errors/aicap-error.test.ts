import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { AicapError } from './aicap-error.js';
import { HTTP_ERROR_BODY_MAX_SIZE_IN_BYTES, HTTPError } from './http-error.js';
import { ManifestParseError } from './manifest-parse-error.js';
import { ManifestValidationError } from './manifest-validation-error.js';
import { NetworkError } from './network-error.js';
import { TimeoutError } from './timeout-error.js';

describe('AicapError', () => {
  const errors = {
    AicapError: new AicapError('INVALID_OPTION', 'bad'),
    HTTPError: new HTTPError({ status: 503, statusText: 'Service Unavailable', method: 'GET', url: 'https://api.example.com/x' }),
    ManifestParseError: new ManifestParseError('bad json'),
    ManifestValidationError: new ManifestValidationError([]),
    NetworkError: new NetworkError({ method: 'GET', url: 'https://api.example.com/x', cause: new Error('ECONNRESET') }),
    TimeoutError: new TimeoutError({ phase: 'headers', timeoutInMs: 100, method: 'GET', url: 'https://api.example.com/x', option: 'timeout.headersInMs' }),
  };

  it.each(Object.entries(errors))('%s is an Error, an AicapError, and names itself', (name, error) => {
    expect(error).toBeInstanceOf(Error);
    expect(AicapError.isInstance(error)).toBe(true);
    expect(error.name).toBe(name);
    expect(typeof error.code).toBe('string');
  });

  it('recognises a subclass by its own isInstance and refuses the others', () => {
    expect(HTTPError.isInstance(errors.HTTPError)).toBe(true);
    expect(HTTPError.isInstance(errors.TimeoutError)).toBe(false);
    expect(TimeoutError.isInstance(errors.TimeoutError)).toBe(true);
    expect(ManifestValidationError.isInstance(errors.ManifestParseError)).toBe(false);
  });

  it('recognises errors from another copy of the package by the Symbol.for brand and name', () => {
    const foreign = Object.assign(new Error('x'), { name: 'HTTPError', code: 'HTTP_ERROR' });
    Object.defineProperty(foreign, Symbol.for('aicap.error'), { value: true });
    expect(AicapError.isInstance(foreign)).toBe(true);
    expect(HTTPError.isInstance(foreign)).toBe(true);
    expect(TimeoutError.isInstance(foreign)).toBe(false);
  });

  it.each([null, undefined, 'HTTP_ERROR', new Error('plain'), { code: 'HTTP_ERROR', name: 'HTTPError' }])('refuses %j', (value) => {
    expect(AicapError.isInstance(value)).toBe(false);
    expect(HTTPError.isInstance(value)).toBe(false);
  });

  it('names method and URL in HTTP, network and timeout messages, and the option for timeouts', () => {
    expect(errors.HTTPError.message).toBe('Request failed with status code 503 Service Unavailable: GET https://api.example.com/x');
    expect(errors.NetworkError.message).toContain('ECONNRESET');
    expect(errors.NetworkError.cause).toBeInstanceOf(Error);
    expect(errors.TimeoutError.message).toContain('`timeout.headersInMs`');
  });

  it('documents every code in the code table of docs/spec.md, and lists nothing else there', () => {
    const declared = [...readFileSync(new URL('./aicap-error.ts', import.meta.url), 'utf8').matchAll(/^\s*\| '([A-Z_]+)';?$/gm)].map((match) => match[1]);
    const spec = readFileSync(new URL('../../docs/spec.md', import.meta.url), 'utf8');
    const section = spec.slice(spec.indexOf('### 8.6 Error codes'), spec.indexOf('## 9. Validation'));
    const documented = [...section.matchAll(/^\| `([A-Z_]+)` \|/gm)].map((match) => match[1]);
    expect(declared.length).toBeGreaterThan(20);
    expect(documented.sort()).toEqual([...declared].sort());
  });

  it('keeps the start of an HTTP error body as text, bounded, and says when it was cut', () => {
    const short = new HTTPError({ status: 400, method: 'GET', url: 'https://api.example.com/x', body: new TextEncoder().encode('{"detail":"bad"}') });
    expect(short).toMatchObject({ responseBody: '{"detail":"bad"}', responseBodyTruncated: false });
    // 2047 ASCII bytes, then a 3-byte character across the limit: the cut character is dropped, not mangled.
    const long = new HTTPError({
      status: 502,
      method: 'GET',
      url: 'https://api.example.com/x',
      body: new TextEncoder().encode(`${'a'.repeat(HTTP_ERROR_BODY_MAX_SIZE_IN_BYTES - 1)}€${'b'.repeat(10_000)}`),
    });
    expect(long.responseBodyTruncated).toBe(true);
    expect(long.responseBody).toBe('a'.repeat(HTTP_ERROR_BODY_MAX_SIZE_IN_BYTES - 1));
    expect(long.message).not.toContain('aaa');
    expect(errors.HTTPError).toMatchObject({ responseBody: undefined, responseBodyTruncated: false });
  });

  it('lists up to five errors with pointers in a validation message, root shown as (root)', () => {
    const issues = Array.from({ length: 7 }, (_, index) => ({ pointer: index === 0 ? '' : `/tools/${index}`, code: 'x.y', message: 'bad', severity: 'error' as const }));
    const error = new ManifestValidationError([...issues, { pointer: '/w', code: 'w', message: 'warn', severity: 'warning' }], 'Manifest from https://api.example.com');
    expect(error.message).toMatch(/^Manifest from https:\/\/api\.example\.com is invalid: \(root\) x\.y: bad; \/tools\/1 x\.y: bad/);
    expect(error.message).toContain('(and 2 more)');
    expect(error.message).not.toContain('/w');
    expect(error.issues).toHaveLength(8);
    expect(error.code).toBe('MANIFEST_INVALID');
  });
});
