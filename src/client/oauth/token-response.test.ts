import * as oauth from 'oauth4webapi';
import { describe, expect, it } from 'vitest';
import type { TokenSet } from '../shapes/token-store.js';
import { oauthErrorCode, tokenSetFromResponse } from './token-response.js';

const context = { issuer: 'https://auth.example.com', clientId: 'cli', requestedScopes: ['read', 'write'], nowInMs: 1_000 };
const previous: TokenSet = { accessToken: 'old', refreshToken: 'old-refresh', scopes: ['read'], issuer: context.issuer, clientId: 'cli' };
const response = (members: Record<string, unknown>): oauth.TokenEndpointResponse => ({ access_token: 'new', token_type: 'bearer', ...members }) as oauth.TokenEndpointResponse;

describe('tokenSetFromResponse', () => {
  it.each([
    { name: 'the granted scopes, split on any whitespace', members: { scope: ' read \t admin ' }, previous: undefined, expected: { scopes: ['read', 'admin'] } },
    { name: 'the requested scopes when none are granted', members: {}, previous: undefined, expected: { scopes: ['read', 'write'] } },
    { name: 'the requested scopes when the granted scope is blank', members: { scope: '  ' }, previous: undefined, expected: { scopes: ['read', 'write'] } },
    { name: 'the previous scopes on a refresh that names none', members: {}, previous, expected: { scopes: ['read'] } },
    { name: 'the expiry from expires_in', members: { expires_in: 60 }, previous: undefined, expected: { expiresAtInMs: 61_000 } },
    { name: 'a rotated refresh token over the previous one', members: { refresh_token: 'rotated' }, previous, expected: { refreshToken: 'rotated' } },
    { name: 'the previous refresh token when it was not rotated', members: {}, previous, expected: { refreshToken: 'old-refresh' } },
  ])('keeps $name', ({ members, previous: before, expected }) => {
    const tokens = tokenSetFromResponse(response(members), { ...context, ...(before === undefined ? {} : { previous: before }) });
    expect(tokens).toMatchObject({ accessToken: 'new', issuer: context.issuer, clientId: 'cli', ...expected });
  });

  it('leaves out what the response does not give: no refresh token, no expiry', () => {
    const tokens = tokenSetFromResponse(response({}), context);
    expect(Object.keys(tokens).sort()).toEqual(['accessToken', 'clientId', 'issuer', 'scopes']);
  });

  it('does not share the requested scopes array with the caller', () => {
    const requestedScopes = ['read'];
    const tokens = tokenSetFromResponse(response({}), { ...context, requestedScopes });
    requestedScopes.push('admin');
    expect(tokens.scopes).toEqual(['read']);
  });
});

describe('oauthErrorCode', () => {
  it('reads the OAuth error code of an error response', async () => {
    const error = await oauth.processRevocationResponse(new Response(JSON.stringify({ error: 'invalid_grant' }), { status: 400, headers: { 'content-type': 'application/json' } })).then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(oauthErrorCode(error)).toBe('invalid_grant');
  });

  it.each([new Error('invalid_grant'), { error: 'invalid_grant' }, undefined])('is undefined for anything else (%s)', (error) => {
    expect(oauthErrorCode(error)).toBeUndefined();
  });
});
