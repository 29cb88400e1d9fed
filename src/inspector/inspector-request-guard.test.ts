import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { cookieValue, guardInspectorRequest } from './inspector-request-guard.js';

const expected = { token: 'secret-token-123', port: 4100 };
const request = (method: string, headers: Record<string, string>): IncomingMessage => ({ method, headers }) as unknown as IncomingMessage;
const url = (path: string): URL => new URL(path, 'http://127.0.0.1:4100');

describe('guardInspectorRequest', () => {
  it.each([
    ['the token in the query', 'GET', { host: '127.0.0.1:4100' }, '/?token=secret-token-123', undefined],
    ['the token in the cookie', 'GET', { host: 'localhost:4100', cookie: 'a=b; aicap_inspector=secret-token-123' }, '/api/view', undefined],
    ['a JSON POST with the cookie', 'POST', { host: '127.0.0.1:4100', cookie: 'aicap_inspector=secret-token-123', 'content-type': 'application/json; charset=utf-8' }, '/api/call', undefined],
    ['no token', 'GET', { host: '127.0.0.1:4100' }, '/', 403],
    ['a wrong token of the same length', 'GET', { host: '127.0.0.1:4100', cookie: 'aicap_inspector=secret-token-124' }, '/', 403],
    ['another Host (DNS rebinding)', 'GET', { host: 'evil.example:4100', cookie: 'aicap_inspector=secret-token-123' }, '/', 403],
    ['another port on loopback', 'GET', { host: '127.0.0.1:4101', cookie: 'aicap_inspector=secret-token-123' }, '/', 403],
    ['a form post (text/plain)', 'POST', { host: '127.0.0.1:4100', cookie: 'aicap_inspector=secret-token-123', 'content-type': 'text/plain' }, '/api/call', 415],
    ['a DELETE', 'DELETE', { host: '127.0.0.1:4100', cookie: 'aicap_inspector=secret-token-123' }, '/api/call', 405],
  ])('answers %s with %s', (_label, method, headers, path, status) => {
    expect(guardInspectorRequest(request(method, headers), url(path), expected)?.status).toBe(status);
  });
});

describe('cookieValue', () => {
  it.each([
    [undefined, undefined],
    ['aicap_inspector=abc', 'abc'],
    ['x=1;  aicap_inspector = abc ;y=2', 'abc'],
    ['aicap_inspectorx=abc', undefined],
  ])('reads %s', (header, value) => {
    expect(cookieValue(header, 'aicap_inspector')).toBe(value);
  });
});
