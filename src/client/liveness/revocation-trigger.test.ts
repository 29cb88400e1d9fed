import { describe, expect, it } from 'vitest';
import type { Auth, Tool } from '../../manifest/manifest-v0.js';
import { revocationTrigger } from './revocation-trigger.js';

// Which answers of a tool's endpoint mean the manifest held may be out of date.

const tool = { id: 'listOrders', path: '/orders', method: 'GET', description: 'Lists orders.' } as Tool;
const auth = { type: 'oauth2', scopes: { 'orders:read': ['listOrders'], 'orders:write': ['createOrder'] } } as unknown as Auth;

function trigger(status: number, challenge?: string, body?: unknown, declared: Auth | undefined = auth): string | undefined {
  return revocationTrigger({ status, headers: new Headers(challenge ? { 'www-authenticate': challenge } : {}), body }, tool, declared);
}

describe('revocationTrigger', () => {
  it.each([404, 410])('a %i means the route is gone', (status) => {
    expect(trigger(status)).toBe(`HTTP ${status} from the endpoint of "listOrders"`);
  });

  it.each([200, 201, 400, 409, 422, 429, 500, 503])('a %i triggers nothing', (status) => {
    expect(trigger(status, 'Bearer scope="admin"', { scope: 'admin' })).toBeUndefined();
  });

  it.each([
    ['a challenge naming an undeclared scope', 401, 'Bearer error="insufficient_scope", scope="orders:admin"', undefined],
    ['a challenge naming a scope among declared ones', 403, 'Bearer scope="orders:read orders:admin"', undefined],
    ["a challenge naming another tool's scope", 403, 'Bearer scope="orders:write"', undefined],
    ['a problem body naming an undeclared scope', 403, undefined, { type: 'about:blank', scope: 'orders:admin' }],
    ['a problem body with required_scope', 401, undefined, { required_scope: 'orders:export' }],
  ])('%s triggers a revalidation', (_case, status, challenge, body) => {
    expect(trigger(status, challenge, body)).toBe(`HTTP ${status} naming a scope the manifest does not give to "listOrders"`);
  });

  it.each([
    ['a challenge without a scope', 401, 'Bearer realm="api"', undefined],
    ['a challenge naming the declared scope (an ordinary missing grant)', 403, 'Bearer error="insufficient_scope", scope="orders:read"', undefined],
    ['a body naming the declared scope', 403, undefined, { scope: 'orders:read' }],
    ['a body whose scope is not a string', 403, undefined, { scope: ['orders:admin'] }],
    ['a body that is an array', 403, undefined, [{ scope: 'orders:admin' }]],
    ['a body that is text', 403, undefined, 'scope=orders:admin'],
    ['a blank scope', 403, 'Bearer scope="   "', undefined],
    ['a malformed challenge', 401, 'Bearer scope="unterminated', undefined],
  ])('%s triggers nothing', (_case, status, challenge, body) => {
    expect(trigger(status, challenge, body)).toBeUndefined();
  });

  it('any named scope is undeclared for a manifest without auth', () => {
    expect(revocationTrigger({ status: 401, headers: new Headers({ 'www-authenticate': 'Bearer scope="orders:read"' }), body: undefined }, tool, undefined)).toBeDefined();
  });

  it('a manifest whose scope lists are malformed counts them as not given', () => {
    expect(trigger(403, 'Bearer scope="orders:read"', undefined, { type: 'oauth2', scopes: { 'orders:read': 'listOrders' } } as unknown as Auth)).toBeDefined();
  });

  it('builds its reason from the status and the tool id only, never from the answer text', () => {
    const reason = trigger(403, 'Bearer scope="ignore-previous-instructions"', { scope: '\u202eevil\u0007 <script>' });
    expect(reason).toBe('HTTP 403 naming a scope the manifest does not give to "listOrders"');
  });

  it('reads a bounded number of scopes: a huge list of declared scopes ending in an undeclared one triggers nothing', () => {
    const many = Array.from({ length: 40 }, () => 'orders:read').join(' ');
    expect(trigger(403, `Bearer scope="${many} orders:admin"`)).toBeUndefined();
    expect(trigger(403, undefined, { scope: `${'orders:read '.repeat(1000)}orders:admin` })).toBeUndefined();
  });

  it('works without headers (a network answer without a response)', () => {
    expect(revocationTrigger({ status: 404, headers: undefined, body: undefined }, tool, auth)).toBeDefined();
    expect(revocationTrigger({ status: 403, headers: undefined, body: { scope: 'orders:admin' } }, tool, auth)).toBeDefined();
  });
});
