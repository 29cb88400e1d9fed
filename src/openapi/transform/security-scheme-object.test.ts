import { describe, expect, it } from 'vitest';
import { createTestContext, TEST_DOCUMENT_URL } from '../test-helpers/create-test-context.js';
import { transformSecuritySchemeObjects } from './security-scheme-object.js';

describe('transformSecuritySchemeObjects', () => {
  const cases: Array<[string, { schemes: unknown; security?: unknown; want: unknown }]> = [
    ['maps HTTP bearer', { schemes: { token: { type: 'http', scheme: 'bearer' } }, want: { auth: { type: 'bearer' }, scopedSchemes: new Set() } }],
    ['maps HTTP basic (case-insensitive scheme)', { schemes: { basic: { type: 'http', scheme: 'Basic' } }, want: { auth: { type: 'basic' }, scopedSchemes: new Set() } }],
    [
      'maps an API key with its location',
      {
        schemes: { key: { type: 'apiKey', in: 'header', name: 'X-Api-Key' } },
        want: { auth: { type: 'api_key', api_key: { in: 'header', name: 'X-Api-Key' } }, scopedSchemes: new Set() },
      },
    ],
    [
      'uses an OpenID Connect URL as provider_discovery',
      {
        schemes: { oidc: { type: 'openIdConnect', openIdConnectUrl: 'https://id.example.com/.well-known/openid-configuration' } },
        want: { auth: { type: 'oauth2', provider_discovery: 'https://id.example.com/.well-known/openid-configuration' }, scopedSchemes: new Set(['oidc']) },
      },
    ],
    [
      'prefers x-ai-provider-discovery on an OAuth 2 scheme',
      {
        schemes: { oauth: { type: 'oauth2', 'x-ai-provider-discovery': 'https://auth.example.com/meta', flows: { clientCredentials: { tokenUrl: 'https://auth.example.com/token', scopes: {} } } } },
        want: { auth: { type: 'oauth2', provider_discovery: 'https://auth.example.com/meta' }, scopedSchemes: new Set(['oauth']) },
      },
    ],
    [
      'takes the primary type from the root security requirement and lists every method',
      {
        schemes: { key: { type: 'apiKey', in: 'query', name: 'api_key' }, oauth: { type: 'oauth2', flows: {} } },
        security: [{ oauth: ['read'] }],
        want: { auth: { type: 'oauth2', supported_methods: ['api_key', 'oauth2'], api_key: { in: 'query', name: 'api_key' } }, scopedSchemes: new Set(['oauth']) },
      },
    ],
    ['produces no auth without schemes', { schemes: undefined, want: { scopedSchemes: new Set() } }],
  ];
  it.each(cases)('%s', (_name, { schemes, security, want }) => {
    expect(transformSecuritySchemeObjects(schemes, security, TEST_DOCUMENT_URL, createTestContext())).toEqual(want);
  });

  it('derives the RFC 8414 metadata URL from the token URL and warns that it is a guess', () => {
    const context = createTestContext();
    const mapping = transformSecuritySchemeObjects(
      { oauth: { type: 'oauth2', flows: { authorizationCode: { authorizationUrl: 'https://login.example.com/authorize', tokenUrl: 'https://login.example.com/token', scopes: {} } } } },
      undefined,
      TEST_DOCUMENT_URL,
      context,
    );
    expect(mapping.auth?.provider_discovery).toBe('https://login.example.com/.well-known/oauth-authorization-server');
    expect(context.warnings).toEqual([expect.objectContaining({ code: 'auth.discovery_guessed', where: 'securitySchemes/oauth' })]);
  });

  it('warns about schemes spec v0.3 cannot express', () => {
    const context = createTestContext();
    const mapping = transformSecuritySchemeObjects({ digest: { type: 'http', scheme: 'digest' }, tls: { type: 'mutualTLS' } }, undefined, TEST_DOCUMENT_URL, context);
    expect(mapping.auth).toBeUndefined();
    expect(context.warnings.map((warning) => warning.where)).toEqual(['securitySchemes/digest', 'securitySchemes/tls']);
  });

  it('maps cookie API keys, and other static HTTP schemes to an API key in Authorization with the scheme as prefix', () => {
    const cookie = transformSecuritySchemeObjects({ session: { type: 'apiKey', in: 'cookie', name: 'sid' } }, undefined, TEST_DOCUMENT_URL, createTestContext());
    expect(cookie.auth).toEqual({ type: 'api_key', api_key: { in: 'cookie', name: 'sid' } });
    const token = transformSecuritySchemeObjects({ token: { type: 'http', scheme: 'Token' } }, undefined, TEST_DOCUMENT_URL, createTestContext());
    expect(token.auth).toEqual({ type: 'api_key', api_key: { in: 'header', name: 'Authorization', prefix: 'Token ' } });
  });
});
