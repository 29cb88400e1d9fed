import type { IncomingHttpHeaders } from 'node:http';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { headerRecord, headerValue, requestHeaders, toHeaders } from './node-headers.js';

// The lazy Headers over undici's record must answer exactly as a Headers filled from the same record.

function filled(raw: IncomingHttpHeaders): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(raw)) {
    if (Array.isArray(value)) for (const item of value) headers.append(name, item);
    else if (value !== undefined) headers.append(name, value);
  }
  return headers;
}

const raw: IncomingHttpHeaders = {
  'content-type': 'application/json',
  'set-cookie': ['a=1', 'b=2'],
  'x-padded': ' \t value \t ',
  'x-empty': '',
  'x-list': [],
  'retry-after': '30',
};

describe('toHeaders (lazy Headers over a Node record)', () => {
  it.each(['content-type', 'Content-Type', 'SET-COOKIE', 'x-padded', 'x-empty', 'x-list', 'retry-after', 'absent'])('get(%j) and has() answer as a filled Headers', (name) => {
    const lazy = toHeaders(raw);
    const reference = filled(raw);
    expect(lazy.get(name)).toBe(reference.get(name));
    expect(lazy.has(name)).toBe(reference.has(name));
  });

  it('gives the record Object.fromEntries gives of a filled Headers, before and after filling, without filling it', () => {
    const reference = Object.fromEntries(filled(raw));
    const lazy = toHeaders(raw);
    expect(headerRecord(lazy)).toStrictEqual(reference);
    expect(headerRecord(filled(raw))).toStrictEqual(reference);
    lazy.append('x-added', 'yes');
    expect(headerRecord(lazy)).toStrictEqual({ ...reference, 'x-added': 'yes' });
  });

  it.each(['__proto__', 'constructor', 'toString', 'hasOwnProperty'])('does not read the prototype for a header named %j', (name) => {
    const lazy = toHeaders({ 'content-type': 'text/plain' });
    expect(lazy.get(name)).toBeNull();
    expect(lazy.has(name)).toBe(false);
  });

  it('answers like a filled Headers for any header values (property test)', () => {
    const token = fc.stringMatching(/^[a-z][a-z0-9-]{0,11}$/);
    const value = fc.stringMatching(/^[\t ]{0,2}[!-~]{0,8}(?: [!-~]{1,8})?[\t ]{0,2}$/);
    fc.assert(
      fc.property(fc.dictionary(token, fc.oneof(value, fc.array(value, { maxLength: 3 }))), token, (record, probe) => {
        const lazy = toHeaders(record);
        const reference = filled(record);
        for (const name of [probe, ...Object.keys(record)]) {
          expect(lazy.get(name)).toBe(reference.get(name));
          expect(lazy.has(name)).toBe(reference.has(name));
        }
        expect([...toHeaders(record)]).toEqual([...reference]);
      }),
      { numRuns: 200 },
    );
  });

  it('is plain Headers after a write: set, append and delete see the record and change it', () => {
    const lazy = toHeaders({ 'x-a': '1', 'x-b': ['2', '3'] });
    lazy.append('x-b', '4');
    expect(lazy.get('x-b')).toBe('2, 3, 4');
    lazy.set('x-a', 'one');
    lazy.delete('x-c');
    expect([...lazy]).toEqual([
      ['x-a', 'one'],
      ['x-b', '2, 3, 4'],
    ]);
    lazy.delete('x-a');
    expect(lazy.has('x-a')).toBe(false);
  });

  it('keeps each Set-Cookie apart (getSetCookie), never joined into one', () => {
    expect(toHeaders(raw).getSetCookie()).toEqual(['a=1', 'b=2']);
  });

  it.each<[string, (headers: Headers) => unknown]>([
    [
      'forEach',
      (headers) => {
        const seen: string[] = [];
        headers.forEach((value, name) => seen.push(`${name}=${value}`));
        return seen;
      },
    ],
    ['keys', (headers) => [...headers.keys()]],
    ['values', (headers) => [...headers.values()]],
    ['entries', (headers) => [...headers.entries()]],
  ])('%s lists what a filled Headers lists', (_name, read) => {
    expect(read(toHeaders(raw))).toEqual(read(filled(raw)));
  });

  it('passes into new Headers() whole (the copy a Response makes)', () => {
    expect([...new Headers(toHeaders(raw))]).toEqual([...filled(raw)]);
  });
});

describe('requestHeaders', () => {
  it.each<[string, string, Record<string, string>]>([
    ['https', 'https://api.example.test/x', { 'accept-encoding': 'br, gzip, deflate' }],
    ['http', 'http://api.example.test/x', { 'accept-encoding': 'gzip, deflate' }],
    ['a loopback origin (no compression to pay for)', 'http://127.0.0.1:8080/x', { 'accept-encoding': 'identity' }],
    ['a loopback origin by name', 'https://localhost:8443/x', { 'accept-encoding': 'identity' }],
    ['IPv6 loopback', 'http://[::1]:8080/x', { 'accept-encoding': 'identity' }],
  ])('adds the defaults fetch would over %s', (_scheme, url, expected) => {
    expect(requestHeaders(new Headers(), new URL(url))).toEqual({ accept: '*/*', 'accept-language': '*', 'sec-fetch-mode': 'cors', 'user-agent': 'undici', ...expected });
  });

  it('keeps what the caller set, never overridden by a default', () => {
    const given = new Headers({ Accept: 'application/json', 'User-Agent': 'agent/1', 'Accept-Encoding': 'identity', Authorization: 'Bearer t' });
    expect(requestHeaders(given, new URL('https://api.example.test/'))).toMatchObject({
      accept: 'application/json',
      'user-agent': 'agent/1',
      'accept-encoding': 'identity',
      authorization: 'Bearer t',
    });
  });
});

describe('headerValue', () => {
  it.each<[string | string[] | undefined, string | undefined]>([
    ['one', 'one'],
    [['first', 'second'], 'first'],
    [[], undefined],
    [undefined, undefined],
  ])('%j → %j', (value, expected) => {
    expect(headerValue(value)).toBe(expected);
  });
});
