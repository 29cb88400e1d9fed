import { describe, expect, it } from 'vitest';
import type { Auth } from '../../manifest/manifest-v0.js';
import type { OriginCredentials } from '../shapes/client-types.js';
import { choosePresentation, credentialMismatch } from './choose-presentation.js';

const token: OriginCredentials = { token: 't' };
const apiKey: OriginCredentials = { apiKey: 'k' };
const basic: OriginCredentials = { username: 'u', password: 'p' };
const everything: OriginCredentials = { token: 't', apiKey: 'k', username: 'u', password: 'p' };
const provider: OriginCredentials = { tokenProvider: async () => 't' };
const clientCredentials: OriginCredentials = { oauth: { clientId: 'c', clientSecret: 's' } };

describe('choosePresentation', () => {
  it.each<[string, Auth | undefined, OriginCredentials, ReturnType<typeof choosePresentation>]>([
    ['the manifest type when a credential can present it', { type: 'api_key' }, everything, 'api_key'],
    ['Basic when the manifest says basic', { type: 'basic' }, everything, 'basic'],
    ['a bearer token for oauth2', { type: 'oauth2' }, everything, 'bearer'],
    ['a token provider for bearer', { type: 'bearer' }, provider, 'bearer'],
    ['client credentials for oauth2', { type: 'oauth2' }, clientCredentials, 'bearer'],
    ['the first supported method a credential can present', { type: 'oauth2', supported_methods: ['api_key', 'basic'] }, { apiKey: 'k', username: 'u' }, 'api_key'],
    ['a later supported method when the type cannot be presented', { type: 'bearer', supported_methods: ['basic'] }, basic, 'basic'],
    ['auth.type before supported_methods', { type: 'basic', supported_methods: ['api_key'] }, { apiKey: 'k', username: 'u' }, 'basic'],
    ['a bearer token first without a manifest auth', undefined, everything, 'bearer'],
    ['an API key before Basic without a manifest auth', undefined, { apiKey: 'k', username: 'u' }, 'api_key'],
    ['what the credentials hold when nothing offered matches', { type: 'basic' }, apiKey, 'api_key'],
    ['what the credentials hold for an unknown method', { type: 'hmac' as Auth['type'] }, token, 'bearer'],
    ['nothing when the credentials hold nothing', { type: 'bearer' }, {}, undefined],
  ])('picks %s', (_name, auth, credentials, expected) => {
    expect(choosePresentation(auth, credentials)).toBe(expected);
  });
});

describe('credentialMismatch', () => {
  it.each<[string, Auth | undefined, OriginCredentials | undefined]>([
    ['no manifest auth', undefined, apiKey],
    ['no credentials', { type: 'bearer' }, undefined],
    ['auth.type none', { type: 'none' }, apiKey],
    ['credentials that hold nothing', { type: 'bearer' }, {}],
    ['a credential that satisfies the type', { type: 'api_key' }, apiKey],
    ['a credential that satisfies a supported method', { type: 'bearer', supported_methods: ['api_key'] }, apiKey],
    ['a method this client does not know (the server decides)', { type: 'bearer', supported_methods: ['mutual_tls' as Auth['type']] }, apiKey],
    ['none among the supported methods', { type: 'bearer', supported_methods: ['none'] }, apiKey],
  ])('is undefined for %s', (_name, auth, credentials) => {
    expect(credentialMismatch(auth, credentials)).toBeUndefined();
  });

  it.each<[string, Auth, OriginCredentials, string[]]>([
    ['an API key for a bearer API', { type: 'bearer' }, apiKey, ['a bearer token', 'an `apiKey`', '`token` (CLI `--token`)']],
    ['a token for an API-key API', { type: 'api_key' }, token, ['an API key', 'a bearer token (`token`, `tokenProvider`, `oauth` or `user`)', '`apiKey` (CLI `--api-key`)']],
    ['a username for oauth2', { type: 'oauth2' }, basic, ['an OAuth 2 token', 'a `username`', '`aicap login`']],
    ['a token for Basic', { type: 'basic' }, token, ['HTTP Basic', '`username` and `password` (CLI `--username` and `--password-env`)']],
    [
      'two credentials for neither of two methods',
      { type: 'basic', supported_methods: ['api_key'] },
      { token: 't' },
      ['HTTP Basic or an API key', '`auth.type` and `auth.supported_methods`', '`apiKey` (CLI `--api-key`)'],
    ],
  ])('says what the service accepts, what was given and what to pass, for %s', (_name, auth, credentials, phrases) => {
    const message = credentialMismatch(auth, credentials);
    expect(message).toBeDefined();
    for (const phrase of phrases) expect(message).toContain(phrase);
  });

  it('lists every credential held when none fits', () => {
    expect(credentialMismatch({ type: 'bearer' }, { apiKey: 'k', username: 'u' })).toContain('an `apiKey` and a `username`');
  });

  it('names supported_methods only when the manifest has them', () => {
    expect(credentialMismatch({ type: 'bearer' }, apiKey)).not.toContain('supported_methods');
  });

  it('never puts a credential value in the message', () => {
    const secret = { apiKey: 'key-very-secret', username: 'user-very-secret', password: 'password-very-secret' };
    expect(credentialMismatch({ type: 'bearer' }, secret)).not.toMatch(/very-secret/);
  });
});
