import type { Auth, AuthType } from '../../manifest/manifest-v0.js';
import type { OriginCredentials } from '../shapes/client-types.js';

/** How a request presents its credential. */
export type Presentation = 'api_key' | 'basic' | 'bearer';

const KNOWN_TYPES = new Set<AuthType>(['none', 'bearer', 'api_key', 'oauth2', 'basic']);

/** The schemes a manifest accepts: `auth.type`, then `auth.supported_methods`, in order. */
function offeredSchemes(auth: Auth): string[] {
  return [...new Set([auth.type, ...(auth.supported_methods ?? [])])];
}

function hasBearer(credentials: OriginCredentials): boolean {
  return credentials.token !== undefined || credentials.tokenProvider !== undefined || credentials.oauth !== undefined || credentials.user !== undefined;
}

/** What each configured credential can present. */
function presentable(credentials: OriginCredentials): Presentation[] {
  const found: Presentation[] = [];
  if (credentials.apiKey !== undefined) found.push('api_key');
  if (credentials.username !== undefined) found.push('basic');
  if (hasBearer(credentials)) found.push('bearer');
  return found;
}

function satisfies(scheme: string, presentation: Presentation): boolean {
  return scheme === presentation || (scheme === 'oauth2' && presentation === 'bearer');
}

/**
 * Picks how to present `credentials` to a service: the first scheme the manifest offers (`auth.type`,
 * then `supported_methods`) that a configured credential can present; without a match (or without
 * `auth`), what the credentials hold (a bearer token first, then an API key, then Basic). Undefined
 * when there is nothing to present.
 */
export function choosePresentation(auth: Auth | undefined, credentials: OriginCredentials): Presentation | undefined {
  const available = presentable(credentials);
  if (auth !== undefined) {
    for (const scheme of offeredSchemes(auth)) {
      const match = available.find((presentation) => satisfies(scheme, presentation));
      if (match !== undefined) return match;
    }
  }
  return available.includes('bearer') ? 'bearer' : available[0];
}

/**
 * Why `credentials` cannot satisfy the manifest's `auth`, naming its scheme and what to pass instead;
 * undefined when they can (or when the manifest names a method this client does not know, or none).
 */
export function credentialMismatch(auth: Auth | undefined, credentials: OriginCredentials | undefined): string | undefined {
  if (auth === undefined || credentials === undefined || auth.type === 'none') return undefined;
  const available = presentable(credentials);
  if (available.length === 0) return undefined;
  const schemes = offeredSchemes(auth);
  if (schemes.some((scheme) => !KNOWN_TYPES.has(scheme as AuthType) || scheme === 'none')) return undefined;
  if (schemes.some((scheme) => available.some((presentation) => satisfies(scheme, presentation)))) return undefined;
  const wanted = schemes.map((scheme) => SCHEME_NAMES[scheme as AuthType]).join(' or ');
  const held = available.map((presentation) => HELD_NAMES[presentation]).join(' and ');
  return `The service accepts ${wanted} (\`auth.type\`${auth.supported_methods === undefined ? '' : ' and `auth.supported_methods`'}), but the credentials given hold ${held}, which cannot present it; pass ${schemes.map((scheme) => WHAT_TO_PASS[scheme as AuthType]).join(' or ')}.`;
}

const SCHEME_NAMES: Record<AuthType, string> = { none: 'no credentials', bearer: 'a bearer token', api_key: 'an API key', oauth2: 'an OAuth 2 token', basic: 'HTTP Basic' };
const HELD_NAMES: Record<Presentation, string> = { api_key: 'an `apiKey`', basic: 'a `username`', bearer: 'a bearer token (`token`, `tokenProvider`, `oauth` or `user`)' };
const WHAT_TO_PASS: Record<AuthType, string> = {
  none: 'nothing',
  bearer: '`token` (CLI `--token`)',
  api_key: '`apiKey` (CLI `--api-key`)',
  oauth2: '`token`, `oauth` or `user` (CLI `--token` or `aicap login`)',
  basic: '`username` and `password` (CLI `--username` and `--password-env`)',
};
