import { describe, expect, it } from 'vitest';
import { resolveManifestRoute } from './manifest-route.js';

// The route's settled parts, without a request: options checked at creation, answers built once.

describe('resolveManifestRoute', () => {
  it('builds the public route by default: well-known path, public cache, CORS for any origin, OPTIONS allowed', () => {
    const route = resolveManifestRoute({ manifest: {} });
    expect(route.path).toBe('/.well-known/ai-capabilities');
    expect(route.commonHeaders).toEqual({
      'Cache-Control': 'public, max-age=300',
      'X-Content-Type-Options': 'nosniff',
      'Access-Control-Allow-Origin': '*',
      'Access-Control-Expose-Headers': 'ETag, Link',
    });
    expect(route.preflight?.status).toBe(204);
    expect(route.preflight?.headers['Access-Control-Max-Age']).toBe('86400');
    expect(route.methodNotAllowed('POST')).toMatchObject({ status: 405, headers: { Allow: 'GET, HEAD, OPTIONS' } });
    expect(route.notFound.status).toBe(404);
  });

  it('with per-credential variants: private cache, Vary: Authorization on every answer that depends on it, the challenge on 401', () => {
    const route = resolveManifestRoute({ load: () => ({}), resolveScopes: () => [], requireAuth: { challenge: 'Bearer realm="x"' }, cors: false });
    expect(route.commonHeaders).toEqual({ 'Cache-Control': 'private, max-age=300', 'X-Content-Type-Options': 'nosniff', Vary: 'Authorization' });
    expect(route.unauthorized).toMatchObject({ status: 401, headers: { 'WWW-Authenticate': 'Bearer realm="x"', Vary: 'Authorization' } });
    expect(route.notAcceptable.headers['Vary']).toBe('Authorization, Accept-Encoding');
    expect(route.preflight).toBeUndefined();
    expect(route.methodNotAllowed('PUT').headers['Allow']).toBe('GET, HEAD');
  });

  it.each([
    [{}, /exactly one of the `manifest` and `load`/],
    [{ manifest: {}, load: () => ({}) }, /exactly one of the `manifest` and `load`/],
    [{ manifest: {}, path: 'no-slash' }, /path/],
    [{ manifest: {}, requireAuth: true }, /`requireAuth` option needs `resolveScopes`/],
    [{ manifest: {}, resolveScopes: () => [], cacheControl: 'public, max-age=60' }, /must not be `public`/],
    [{ manifest: {}, cacheControl: 'max-age=1\r\nSet-Cookie: a=b' }, /cacheControl/],
    [{ manifest: {}, cors: { origin: 'https://a.example\n' } }, /cors\.origin/],
  ])('refuses %j with INVALID_OPTION', (options, message) => {
    expect(() => resolveManifestRoute(options)).toThrow(expect.objectContaining({ code: 'INVALID_OPTION', message: expect.stringMatching(message) }));
  });
});
