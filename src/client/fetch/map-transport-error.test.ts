import { describe, expect, it } from 'vitest';
import { DEFAULT_OPTION_NAMES, resolveGuardedFetchSettings } from './guarded-fetch-options.js';
import { mapTransportError } from './map-transport-error.js';

const settings = resolveGuardedFetchSettings({ timeouts: { headersInMs: 1234 } }, { ...DEFAULT_OPTION_NAMES, timeouts: 'network.timeouts' });
const url = new URL('https://api.example/x?token=secret');

describe('mapTransportError', () => {
  it('names the phase and its option for undici timeouts found in the cause chain', () => {
    const error = mapTransportError(new TypeError('fetch failed', { cause: Object.assign(new Error('x'), { code: 'UND_ERR_HEADERS_TIMEOUT' }) }), { method: 'GET', url, settings, signal: undefined });
    expect(error).toMatchObject({ code: 'TIMEOUT', phase: 'headers', timeoutInMs: 1234 });
    expect(error.message).toContain('network.timeouts.headersInMs');
  });

  it("maps undici fetch's coding refusal, the caller's abort, and anything else", () => {
    expect(
      mapTransportError(new TypeError('fetch failed', { cause: new Error('too many content-encodings in response: 9, maximum allowed is 5') }), { method: 'GET', url, settings, signal: undefined }),
    ).toMatchObject({ code: 'CONTENT_ENCODING_REFUSED', codings: 9 });
    const controller = new AbortController();
    controller.abort();
    expect(mapTransportError(new Error('aborted'), { method: 'GET', url, settings, signal: controller.signal }).code).toBe('ABORTED');
    const other = mapTransportError(new Error('ECONNRESET'), { method: 'GET', url, settings, signal: undefined });
    expect(other.code).toBe('NETWORK_ERROR');
    expect(other.message).not.toContain('secret');
  });
});
