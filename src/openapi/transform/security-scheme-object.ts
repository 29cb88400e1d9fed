import type { Auth, AuthType } from '../../manifest/manifest-v0.js';
import { isRecord, nonEmptyString, type TransformContext } from './transform-context.js';

// HTTP schemes (IANA registry) that answer a challenge per request: no static credential presents them.
const CHALLENGE_SCHEMES = new Set(['digest', 'negotiate', 'ntlm', 'hoba', 'mutual', 'scram-sha-1', 'scram-sha-256', 'vapid', 'concealed', 'dpop', 'gnap', 'privatetoken']);

/** What the Security Scheme Objects contribute to the manifest. */
export interface SecurityMapping {
  /** The `auth` block without `scopes` (those come from the operations). */
  auth?: Auth;
  /** Names of the schemes whose requirement lists are scopes (OAuth 2 and OpenID Connect). */
  scopedSchemes: Set<string>;
}

/**
 * Maps `components.securitySchemes` and the root `security` requirement to `auth`: the primary
 * scheme (first of the root requirement, else the first declared) gives `type`; every mappable
 * scheme adds to `supported_methods`; an API key's location becomes `api_key`; an OpenID Connect
 * URL (or the RFC 8414 metadata URL of an OAuth 2 token endpoint's origin) becomes
 * `provider_discovery`.
 */
export function transformSecuritySchemeObjects(schemes: unknown, rootSecurity: unknown, documentUrl: string, context: TransformContext): SecurityMapping {
  const mapping: SecurityMapping = { scopedSchemes: new Set() };
  if (!isRecord(schemes)) return mapping;
  const types = new Map<string, AuthType>();
  let apiKey: Auth['api_key'];
  let discovery: string | undefined;
  for (const [name, value] of Object.entries(schemes)) {
    const where = `securitySchemes/${name}`;
    const scheme = context.resolver.follow(value, documentUrl).value;
    if (!isRecord(scheme)) continue;
    const type = scheme['type'];
    if (type === 'http') {
      const httpScheme = String(scheme['scheme'] ?? '').toLowerCase();
      if (httpScheme === 'bearer') types.set(name, 'bearer');
      else if (httpScheme === 'basic') types.set(name, 'basic');
      else if (/^[a-z][a-z0-9._~+-]*$/.test(httpScheme) && !CHALLENGE_SCHEMES.has(httpScheme)) {
        // Any other scheme that carries a static credential (`Authorization: Token <key>`) is an API
        // key in Authorization with the scheme as its prefix (spec v0.3 `auth.api_key.prefix`).
        types.set(name, 'api_key');
        apiKey ??= { in: 'header', name: 'Authorization', prefix: `${String(scheme['scheme']).slice(0, 60)} ` };
      } else
        context.warn({ code: 'auth.unsupported', where, message: `HTTP authentication scheme "${httpScheme}" needs a challenge-response exchange, which spec v0.3 cannot express; it was left out` });
    } else if (type === 'apiKey') {
      const location = scheme['in'];
      const keyName = nonEmptyString(scheme['name']);
      if ((location === 'header' || location === 'query' || location === 'cookie') && keyName) {
        types.set(name, 'api_key');
        apiKey ??= { in: location, name: keyName.slice(0, 256) };
      } else context.warn({ code: 'auth.unsupported', where, message: `an API key "in": "${String(location)}" cannot be expressed (header, query or cookie); it was left out` });
    } else if (type === 'oauth2' || type === 'openIdConnect') {
      types.set(name, 'oauth2');
      mapping.scopedSchemes.add(name);
      discovery ??= providerDiscovery(scheme, context, where);
    } else {
      context.warn({ code: 'auth.unsupported', where, message: `security scheme type "${String(type)}" has no spec v0.1 equivalent; it was left out` });
    }
  }
  if (types.size === 0) return mapping;
  const primaryName = firstRequiredScheme(rootSecurity, types) ?? types.keys().next().value!;
  const auth: Auth = { type: types.get(primaryName)! };
  const methods = [...new Set(types.values())];
  if (methods.length > 1) auth.supported_methods = methods;
  if (apiKey) auth.api_key = apiKey;
  if (discovery) auth.provider_discovery = discovery;
  mapping.auth = auth;
  return mapping;
}

function firstRequiredScheme(security: unknown, types: Map<string, AuthType>): string | undefined {
  if (!Array.isArray(security)) return undefined;
  for (const requirement of security) {
    if (!isRecord(requirement)) continue;
    const name = Object.keys(requirement).find((key) => types.has(key));
    if (name) return name;
  }
  return undefined;
}

function providerDiscovery(scheme: Record<string, unknown>, context: TransformContext, where: string): string | undefined {
  const declared = nonEmptyString(scheme['x-ai-provider-discovery']) ?? nonEmptyString(scheme['openIdConnectUrl']);
  if (declared && isHttpsUrl(declared)) return declared;
  const flows = isRecord(scheme['flows']) ? Object.values(scheme['flows']) : [];
  for (const flow of flows) {
    if (!isRecord(flow)) continue;
    const endpoint = nonEmptyString(flow['tokenUrl']) ?? nonEmptyString(flow['authorizationUrl']);
    if (endpoint && isHttpsUrl(endpoint)) {
      // RFC 8414 §3: the metadata lives under the issuer's origin. Only a guess when the issuer has a
      // path, so say so; x-ai-provider-discovery on the scheme sets it exactly.
      const guessed = `${new URL(endpoint).origin}/.well-known/oauth-authorization-server`;
      context.warn({
        code: 'auth.discovery_guessed',
        where,
        message: `provider_discovery set to ${guessed} (RFC 8414, from the token URL's origin); declare "x-ai-provider-discovery" on the scheme if the metadata lives elsewhere`,
      });
      return guessed;
    }
  }
  return undefined;
}

function isHttpsUrl(value: string): boolean {
  try {
    return new URL(value).protocol === 'https:' && value.length <= 2048;
  } catch {
    return false;
  }
}
