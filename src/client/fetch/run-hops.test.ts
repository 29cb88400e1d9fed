import { describe, expect, it } from 'vitest';
import { SsrfBlockedError } from '../errors/ssrf-blocked-error.js';
import type { HopState } from './follow-redirect.js';
import { runHops, type HopAnswer } from './run-hops.js';

function state(url: string): HopState {
  return { url: new URL(url), method: 'GET', headers: new Headers({ authorization: 'Bearer t' }), body: undefined, hops: [new URL(url)] };
}

function answer(status: number, location?: string): HopAnswer<string> & { discarded: boolean } {
  const result = { status, location, discarded: false, discard: () => void (result.discarded = true), finish: () => `final ${status}` };
  return result;
}

describe('runHops', () => {
  it('checks every hop, follows redirects and returns the final answer', async () => {
    const checked: string[] = [];
    const answers = [answer(302, '/next'), answer(307, 'https://other.example/last'), answer(200)];
    const sent: HopState[] = [];
    const result = await runHops(state('https://api.example/start'), { checkUrl: (url) => void checked.push(url.href), maxRedirects: 3, maxRedirectsOption: 'maxRedirects' }, async (hop) => {
      sent.push({ ...hop });
      return answers.shift()!;
    });
    expect(result).toBe('final 200');
    expect(checked).toEqual(['https://api.example/start', 'https://api.example/next', 'https://other.example/last']);
    // The hop to another origin dropped the credential.
    expect(sent[2]!.headers.has('authorization')).toBe(false);
    expect(sent[1]!.headers.get('authorization')).toBe('Bearer t');
  });

  it('returns a 3xx as is when redirects are off, and stops at the first refused hop', async () => {
    expect(await runHops(state('https://api.example/'), { checkUrl: () => undefined, maxRedirects: 0, maxRedirectsOption: 'm' }, async () => answer(301, '/x'))).toBe('final 301');
    const refuse = (url: URL): void => {
      if (url.hostname === '127.0.0.1') throw new SsrfBlockedError({ url: url.href, reason: 'test', range: 'loopback' });
    };
    const first = answer(302, 'http://127.0.0.1/admin');
    await expect(runHops(state('https://api.example/'), { checkUrl: refuse, maxRedirects: 3, maxRedirectsOption: 'm' }, async () => first)).rejects.toMatchObject({ code: 'SSRF_BLOCKED' });
    expect(first.discarded).toBe(true);
  });

  it('refuses more hops than allowed, naming the option', async () => {
    await expect(
      runHops(state('https://api.example/'), { checkUrl: () => undefined, maxRedirects: 2, maxRedirectsOption: 'discovery.maxRedirects' }, async () => answer(302, '/again')),
    ).rejects.toMatchObject({ code: 'REDIRECT_BLOCKED', message: expect.stringContaining('discovery.maxRedirects') });
  });
});
