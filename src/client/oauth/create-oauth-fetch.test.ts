import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorOf } from '../../../test/helpers/error-of.js';
import { createOAuthFetch, OAUTH_MAX_RESPONSE_SIZE_IN_BYTES } from './create-oauth-fetch.js';

/** A loopback authorization server: `/small` answers metadata, `/huge` a document past the OAuth cap. */
let server: Server;
let origin: string;

beforeAll(async () => {
  server = createServer((request, response) => {
    response.setHeader('content-type', 'application/json');
    const huge = JSON.stringify({ issuer: 'x', padding: 'p'.repeat(OAUTH_MAX_RESPONSE_SIZE_IN_BYTES) });
    if (request.url === '/huge') response.end(huge);
    else if (request.url === '/huge-chunked') {
      // No Content-Length: the cap must hold while the body streams.
      for (let offset = 0; offset < huge.length; offset += 65_536) response.write(huge.slice(offset, offset + 65_536));
      response.end();
    } else response.end(JSON.stringify({ issuer: 'x' }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

describe('createOAuthFetch', () => {
  it('reaches an origin the caller named on loopback', async () => {
    const response = await createOAuthFetch([origin, undefined, 'not a url'])(`${origin}/small`);
    expect(await response.json()).toEqual({ issuer: 'x' });
  });

  it.each([
    ['a loopback origin nobody named', () => [] as string[]],
    ['another port of a named loopback host', () => [`http://127.0.0.1:1`]],
  ])('refuses %s (SSRF policy) before connecting', async (_name, trusted) => {
    const error = await errorOf(createOAuthFetch(trusted())(`${origin}/small`));
    expect(error.code).toBe('SSRF_BLOCKED');
  });

  it.each(['/huge', '/huge-chunked'])('stops reading a document past 1 MiB (%s) and names the option to raise in the caller’s words', async (path) => {
    const error = await errorOf((async () => (await createOAuthFetch([origin])(`${origin}${path}`)).text())());
    expect(error.code).toBe('RESPONSE_TOO_LARGE');
    expect(error.message).toContain('Raise `createGuardedFetch({ maxResponseSizeInBytes })` passed as `fetch`');
  });
});
