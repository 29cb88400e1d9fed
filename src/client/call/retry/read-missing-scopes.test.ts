import { describe, expect, it } from 'vitest';
import type { Auth } from '../../../manifest/manifest-v0.js';
import { readMissingScopes } from './read-missing-scopes.js';

// A 403 challenge's `scope` is the API's text at call time, headed for the user's authorization
// request: only well-formed tokens the manifest declared survive, and not too many.

const auth: Auth = { type: 'oauth2', scopes: { 'payments:read': ['listPayments'], 'payments:write': ['createPayment'], admin: [] } } as unknown as Auth;
const challenge = (parameters: Record<string, string>) => [{ parameters }];

describe('readMissingScopes', () => {
  it.each<[string, Record<string, string>, string[] | undefined]>([
    ['the declared scopes asked for', { error: 'insufficient_scope', scope: 'payments:write payments:read' }, ['payments:write', 'payments:read']],
    ['a repeated scope once', { error: 'insufficient_scope', scope: 'admin  admin\tadmin' }, ['admin']],
    ['only the declared ones of a mix', { error: 'insufficient_scope', scope: 'payments:write root superuser' }, ['payments:write']],
    ['nothing when none is declared', { error: 'insufficient_scope', scope: 'root superuser' }, undefined],
    ['nothing without a scope parameter', { error: 'insufficient_scope' }, undefined],
    ['nothing for another error', { error: 'invalid_token', scope: 'admin' }, undefined],
    ['nothing for an empty scope', { error: 'insufficient_scope', scope: '' }, undefined],
    ['no prototype name taken for a declared scope', { error: 'insufficient_scope', scope: 'constructor __proto__ toString hasOwnProperty' }, undefined],
    ['no token with a quote or a backslash', { error: 'insufficient_scope', scope: 'admin" payments:read\\x' }, undefined],
    ['no control character smuggled into a token', { error: 'insufficient_scope', scope: 'admin\u0007 payments:read\u001b[31m' }, undefined],
  ])('takes %s', (_case, parameters, expected) => {
    expect(readMissingScopes(challenge(parameters), auth)).toEqual(expected);
  });

  it('reads the insufficient_scope challenge among several', () => {
    expect(readMissingScopes([{ parameters: { realm: 'api' } }, { parameters: { error: 'insufficient_scope', scope: 'admin' } }], auth)).toEqual(['admin']);
  });

  it('takes nothing when the manifest declares no scopes at all', () => {
    expect(readMissingScopes(challenge({ error: 'insufficient_scope', scope: 'admin' }), undefined)).toBeUndefined();
    expect(readMissingScopes(challenge({ error: 'insufficient_scope', scope: 'admin' }), { type: 'oauth2' } as Auth)).toBeUndefined();
  });

  it('keeps at most 32 scopes and ignores names over 128 characters', () => {
    const many = Object.fromEntries(Array.from({ length: 40 }, (_, index) => [`s${index}`, []]));
    const long = 'a'.repeat(129);
    const declared = { type: 'oauth2', scopes: { ...many, [long]: [] } } as unknown as Auth;
    const scopes = readMissingScopes(challenge({ error: 'insufficient_scope', scope: [long, ...Object.keys(many)].join(' ') }), declared);
    expect(scopes).toHaveLength(32);
    expect(scopes).not.toContain(long);
    expect(scopes?.[0]).toBe('s0');
  });
});
