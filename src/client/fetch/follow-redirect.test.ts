import { describe, expect, it } from 'vitest';
import { followRedirect, type HopState } from './follow-redirect.js';

function state(method: string, body: RequestInit['body'] = undefined): HopState {
  const url = new URL('https://api.example/start');
  return { url, method, headers: new Headers({ authorization: 'Bearer t', accept: 'application/json', 'content-type': 'application/json', 'x-custom': '1' }), body, hops: [url] };
}

describe('followRedirect', () => {
  it("turns a 303 into a GET without a body or content headers, without editing the caller's Headers", () => {
    const hop = state('POST', '{"a":1}');
    const callerHeaders = hop.headers;
    followRedirect(hop, 303, '/done', 3, 'maxRedirects');
    expect(hop.method).toBe('GET');
    expect(hop.body).toBeNull();
    expect(hop.headers.has('content-type')).toBe(false);
    expect(callerHeaders.has('content-type')).toBe(true);
    expect(hop.url.href).toBe('https://api.example/done');
  });

  it('keeps only content-negotiation headers across origins and never re-sends a body there', () => {
    const hop = state('GET');
    followRedirect(hop, 302, 'https://other.example/', 3, 'maxRedirects');
    expect([...hop.headers.keys()]).toEqual(['accept']);
    expect(() => followRedirect(state('PUT', 'x'), 307, 'https://other.example/', 3, 'maxRedirects')).toThrow(expect.objectContaining({ code: 'REDIRECT_BLOCKED' }));
  });

  it('refuses an invalid Location', () => {
    expect(() => followRedirect(state('GET'), 302, 'http://[bad', 3, 'maxRedirects')).toThrow(/invalid Location/);
  });
});
