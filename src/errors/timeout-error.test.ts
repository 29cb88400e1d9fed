import { describe, expect, it } from 'vitest';
import { NetworkError } from './network-error.js';
import { TimeoutError, type TimeoutPhase } from './timeout-error.js';

describe('TimeoutError', () => {
  it.each<[TimeoutPhase, number, string]>([
    ['connect', 3000, 'network.connectTimeoutInMs'],
    ['headers', 10_000, 'network.headersTimeoutInMs'],
    ['body-idle', 500, 'network.bodyIdleTimeoutInMs'],
    ['total', 60_000, 'network.totalTimeoutInMs'],
  ])('says which deadline (%s) expired, after how long, on which request, and which option to raise', (phase, timeoutInMs, option) => {
    const error = new TimeoutError({ phase, timeoutInMs, method: 'GET', url: 'https://api.example.com/slow', option });
    expect(error.message).toBe(`Timed out after ${timeoutInMs} ms waiting for ${phase}: GET https://api.example.com/slow. Raise \`${option}\` if the server is legitimately slow.`);
    expect(error).toMatchObject({ code: 'TIMEOUT', name: 'TimeoutError', phase, timeoutInMs, option });
    expect(error.terms).toEqual([expect.objectContaining({ kind: 'option', option })]);
  });
});

describe('NetworkError', () => {
  it.each([
    { cause: new Error('ECONNRESET'), reason: 'ECONNRESET' },
    { cause: 'socket hang up', reason: 'socket hang up' },
  ])('names the cause ($reason), method and URL, and keeps the cause', ({ cause, reason }) => {
    const error = new NetworkError({ method: 'POST', url: 'https://api.example.com/pay', cause });
    expect(error.message).toBe(`Network error (${reason}): POST https://api.example.com/pay`);
    expect(error).toMatchObject({ code: 'NETWORK_ERROR', name: 'NetworkError', cause });
  });
});
