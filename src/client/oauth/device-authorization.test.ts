import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { AuthorizationServer } from 'oauth4webapi';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorOf } from '../../../test/helpers/error-of.js';
import { createAuthorizationBinding } from './discover-authorization-server.js';
import { authorizeWithDeviceCode, type DeviceAuthorizationPrompt } from './device-authorization.js';

// The token endpoint answers each device code from a script: what the user has (not yet) done.
const scripts = new Map<string, string[]>();
const requests: URLSearchParams[] = [];
let server: Server;
let issuer: string;

beforeAll(async () => {
  server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      const form = new URLSearchParams(body);
      requests.push(form);
      response.setHeader('content-type', 'application/json');
      if (request.url === '/device') {
        const scenario = form.get('scope') ?? 'ok';
        const steps: Record<string, string[]> = {
          ok: ['authorization_pending', 'slow_down', 'authorization_pending', 'tokens'],
          denied: ['authorization_pending', 'access_denied'],
          expired: ['expired_token'],
          forever: Array.from({ length: 1000 }, () => 'authorization_pending'),
        };
        scripts.set(`code-${scenario}`, [...(steps[scenario] ?? ['tokens'])]);
        response.end(
          JSON.stringify({
            device_code: `code-${scenario}`,
            user_code: 'WDJB-MJHT',
            verification_uri: `${issuer}/device`,
            verification_uri_complete: `${issuer}/device?user_code=WDJB-MJHT`,
            expires_in: 300,
            interval: 2,
          }),
        );
        return;
      }
      const step = scripts.get(form.get('device_code') ?? '')?.shift() ?? 'invalid_grant';
      if (step === 'tokens') {
        response.end(JSON.stringify({ access_token: 'user-access-token', refresh_token: 'user-refresh-token', token_type: 'Bearer', expires_in: 60, scope: 'payments:read' }));
        return;
      }
      response.statusCode = 400;
      response.end(JSON.stringify({ error: step }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}, 10_000);

afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

function metadata(): AuthorizationServer {
  return { issuer, token_endpoint: `${issuer}/token`, device_authorization_endpoint: `${issuer}/device` };
}

/** A clock that only moves when the flow sleeps, and the delays it slept. */
function fakeTime(): { now: () => number; sleep: (delayInMs: number) => Promise<void>; delays: number[] } {
  let time = 1_000_000;
  const delays: number[] = [];
  return { now: () => time, sleep: async (delayInMs) => void (delays.push(delayInMs), (time += delayInMs)), delays };
}

describe('authorizeWithDeviceCode', () => {
  it('shows the user code, polls at the server interval, slows down by 5 s on slow_down, and returns the tokens with the resource sent', async () => {
    const time = fakeTime();
    const prompts: DeviceAuthorizationPrompt[] = [];
    requests.length = 0;
    const tokens = await authorizeWithDeviceCode({
      authorizationServer: metadata(),
      clientId: 'cli',
      scopes: ['ok'],
      resource: 'https://api.example.com',
      fetch: globalThis.fetch,
      onPrompt: (prompt) => prompts.push(prompt),
      now: time.now,
      sleep: time.sleep,
    });
    expect(prompts).toEqual([{ verificationUri: `${issuer}/device`, verificationUriComplete: `${issuer}/device?user_code=WDJB-MJHT`, userCode: 'WDJB-MJHT', expiresInMs: 300_000 }]);
    expect(time.delays).toEqual([2000, 2000, 7000, 7000]);
    expect(tokens).toMatchObject({ accessToken: 'user-access-token', refreshToken: 'user-refresh-token', scopes: ['payments:read'], issuer, clientId: 'cli', expiresAtInMs: time.now() + 60_000 });
    expect(requests.every((form) => form.get('resource') === 'https://api.example.com')).toBe(true);
    expect(requests.at(-1)?.get('grant_type')).toBe('urn:ietf:params:oauth:grant-type:device_code');
  });

  it('says the user denied it on access_denied', async () => {
    const time = fakeTime();
    const error = await errorOf(
      authorizeWithDeviceCode({ authorizationServer: metadata(), clientId: 'cli', scopes: ['denied'], fetch: globalThis.fetch, onPrompt: () => undefined, now: time.now, sleep: time.sleep }),
    );
    expect(error.code).toBe('AUTH_FAILED');
    expect(error.message).toContain('denied');
  });

  it('stops on expired_token and after the longest wait, with a bounded number of polls', async () => {
    const expired = fakeTime();
    expect(
      (
        await errorOf(
          authorizeWithDeviceCode({
            authorizationServer: metadata(),
            clientId: 'cli',
            scopes: ['expired'],
            fetch: globalThis.fetch,
            onPrompt: () => undefined,
            now: expired.now,
            sleep: expired.sleep,
          }),
        )
      ).message,
    ).toContain('not approved in time');
    const waiting = fakeTime();
    const error = await errorOf(
      authorizeWithDeviceCode({
        authorizationServer: metadata(),
        clientId: 'cli',
        scopes: ['forever'],
        fetch: globalThis.fetch,
        onPrompt: () => undefined,
        maxDurationInMs: 20_000,
        now: waiting.now,
        sleep: waiting.sleep,
      }),
    );
    expect(error.message).toMatch(/not approved in time \(20 s\)/);
    expect(waiting.delays).toHaveLength(10);
  });

  it('refuses a server without a device authorization endpoint, and an endpoint off the binding, before sending anything', async () => {
    requests.length = 0;
    const { device_authorization_endpoint: _omitted, ...withoutDevice } = metadata();
    expect((await errorOf(authorizeWithDeviceCode({ authorizationServer: withoutDevice, clientId: 'cli', scopes: [], fetch: globalThis.fetch, onPrompt: () => undefined }))).message).toContain(
      'no `device_authorization_endpoint`',
    );
    const binding = createAuthorizationBinding('https://api.example.com', undefined, '`--issuer`', "the user's authorization");
    expect((await errorOf(authorizeWithDeviceCode({ authorizationServer: metadata(), binding, clientId: 'cli', scopes: [], fetch: globalThis.fetch, onPrompt: () => undefined }))).code).toBe(
      'AUTH_FAILED',
    );
    expect(requests).toHaveLength(0);
  });
});
