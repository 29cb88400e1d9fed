import { describe, expect, it } from 'vitest';
import { findResourceMetadataUrl, parseWwwAuthenticate } from './parse-www-authenticate.js';

describe('parseWwwAuthenticate', () => {
  it.each([
    ['Bearer', [{ scheme: 'bearer', parameters: {} }]],
    [
      'Bearer realm="api", error="invalid_token", error_description="The token expired"',
      [{ scheme: 'bearer', parameters: { realm: 'api', error: 'invalid_token', error_description: 'The token expired' } }],
    ],
    ['Bearer error="insufficient_scope", scope="admin read"', [{ scheme: 'bearer', parameters: { error: 'insufficient_scope', scope: 'admin read' } }]],
    [
      'Basic realm="x", Bearer error=invalid_token',
      [
        { scheme: 'basic', parameters: { realm: 'x' } },
        { scheme: 'bearer', parameters: { error: 'invalid_token' } },
      ],
    ],
    ['Basic dXNlcjpwYXNz', [{ scheme: 'basic', parameters: {} }]],
    ['Bearer realm="a \\"quoted\\" word"', [{ scheme: 'bearer', parameters: { realm: 'a "quoted" word' } }]],
    [
      'Bearer resource_metadata="https://api.example.com/.well-known/oauth-protected-resource"',
      [{ scheme: 'bearer', parameters: { resource_metadata: 'https://api.example.com/.well-known/oauth-protected-resource' } }],
    ],
  ])('parses %j', (header, expected) => {
    expect(parseWwwAuthenticate(header)).toEqual(expected);
  });

  it.each([null, '', '   ', '"unterminated', '=,=,='])('never throws on %j', (header) => {
    expect(() => parseWwwAuthenticate(header)).not.toThrow();
  });
});

describe('findResourceMetadataUrl', () => {
  it.each([
    ['Bearer resource_metadata="https://api.example/.well-known/oauth-protected-resource/v2"', 'https://api.example/.well-known/oauth-protected-resource/v2'],
    ['Basic realm="x", Bearer error="invalid_token", resource_metadata="https://api.example/m"', 'https://api.example/m'],
    ['Bearer realm="api"', undefined],
    [null, undefined],
  ])('reads %s', (header, want) => {
    expect(findResourceMetadataUrl(header)).toBe(want);
  });
});
