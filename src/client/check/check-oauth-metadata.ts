import { isRecord } from '../../internal/is-record.js';
import type { Manifest } from '../../manifest/manifest-v0.js';
import type { FetchFunction } from '../shapes/client-types.js';
import { describeError, type AddCheck } from './check-result.js';

// Bound: a hostile protected-resource document cannot make the check fetch without end.
const MAX_AUTHORIZATION_SERVERS = 3;

/**
 * Checks the OAuth metadata a manifest's `auth.provider_discovery` names. Protected-resource metadata
 * (RFC 9728) must name the API as its `resource` and list `authorization_servers`; each of those (and
 * an authorization-server document named directly) must publish RFC 8414 metadata with the members
 * §2 requires: `issuer` equal to the server's identifier, `response_types_supported`, and the
 * authorization and token endpoints unless its grant types make them unnecessary.
 * @internal
 */
export async function checkOAuthMetadata(manifest: Manifest, fetch: FetchFunction, add: AddCheck): Promise<void> {
  const discovery = manifest.auth?.provider_discovery;
  if (!discovery) return;
  const metadata = await getJson(discovery, fetch);
  if (typeof metadata === 'string') {
    add('auth.provider_discovery', 'fail', `GET ${discovery} ${metadata}`);
    return;
  }
  if (Array.isArray(metadata['authorization_servers'])) {
    add('auth.provider_discovery', 'pass', `${discovery} is protected-resource metadata (RFC 9728)`);
    const resource = metadata['resource'];
    const expected = [manifest.service.base_url.replace(/\/+$/, ''), new URL(manifest.service.base_url).origin];
    if (typeof resource !== 'string') add('auth.protected_resource', 'fail', `${discovery} has no \`resource\` (RFC 9728 §2 requires it); set it to ${expected[0]!}`);
    else
      add(
        'auth.protected_resource',
        expected.includes(resource.replace(/\/+$/, '')) ? 'pass' : 'fail',
        `resource is ${resource}${expected.includes(resource.replace(/\/+$/, '')) ? '' : `; it must identify this API (${expected[0]!})`}`,
      );
    const servers = metadata['authorization_servers'].filter((server): server is string => typeof server === 'string').slice(0, MAX_AUTHORIZATION_SERVERS);
    if (servers.length === 0) add('auth.authorization_server', 'fail', `${discovery} lists no authorization server URL`);
    for (const issuer of servers) await checkAuthorizationServer(issuer, fetch, add);
    return;
  }
  if (typeof metadata['token_endpoint'] === 'string' || typeof metadata['issuer'] === 'string') {
    add('auth.provider_discovery', 'pass', `${discovery} is authorization-server metadata (RFC 8414 / OpenID)`);
    reportRequiredMembers(discovery, metadata, typeof metadata['issuer'] === 'string' ? metadata['issuer'] : undefined, add);
    return;
  }
  add('auth.provider_discovery', 'fail', `${discovery} has neither authorization_servers (RFC 9728) nor issuer/token_endpoint (RFC 8414)`);
}

/** RFC 8414 §3: the well-known suffix goes between the host and the issuer's path; OpenID's location is the fallback. */
async function checkAuthorizationServer(issuer: string, fetch: FetchFunction, add: AddCheck): Promise<void> {
  let url: URL;
  try {
    url = new URL(issuer);
  } catch {
    add('auth.authorization_server', 'fail', `authorization server ${JSON.stringify(issuer.slice(0, 200))} is not an absolute URL`);
    return;
  }
  const path = url.pathname.replace(/\/+$/, '');
  const locations = [
    `${url.origin}/.well-known/oauth-authorization-server${path}`,
    `${url.origin}/.well-known/openid-configuration${path}`,
    ...(path ? [`${url.origin}${path}/.well-known/openid-configuration`] : []),
  ];
  const tried: string[] = [];
  for (const location of locations) {
    const metadata = await getJson(location, fetch);
    if (typeof metadata === 'string') {
      tried.push(`${location} ${metadata}`);
      continue;
    }
    reportRequiredMembers(location, metadata, issuer, add);
    return;
  }
  add('auth.authorization_server', 'fail', `no authorization-server metadata for ${issuer}: ${tried.join('; ')}`);
}

function reportRequiredMembers(location: string, metadata: Record<string, unknown>, issuer: string | undefined, add: AddCheck): void {
  const problems: string[] = [];
  if (typeof metadata['issuer'] !== 'string') problems.push('`issuer` is missing');
  else if (issuer !== undefined && metadata['issuer'].replace(/\/+$/, '') !== issuer.replace(/\/+$/, '')) problems.push(`\`issuer\` is ${metadata['issuer']}, not ${issuer} (RFC 8414 §3.3)`);
  if (!Array.isArray(metadata['response_types_supported'])) problems.push('`response_types_supported` is missing');
  // Absent grant types default to authorization_code and implicit (RFC 8414 §2), which use the authorization endpoint.
  const grants = Array.isArray(metadata['grant_types_supported']) ? metadata['grant_types_supported'] : ['authorization_code', 'implicit'];
  if (typeof metadata['authorization_endpoint'] !== 'string' && (grants.includes('authorization_code') || grants.includes('implicit')))
    problems.push('`authorization_endpoint` is missing (required with the authorization_code or implicit grant)');
  if (typeof metadata['token_endpoint'] !== 'string' && grants.some((grant) => grant !== 'implicit')) problems.push('`token_endpoint` is missing');
  add(
    'auth.authorization_server',
    problems.length === 0 ? 'pass' : 'fail',
    problems.length === 0 ? `${location} has the members RFC 8414 §2 requires` : `${location}: ${problems.join('; ')} (RFC 8414 §2)`,
  );
}

async function getJson(url: string, fetch: FetchFunction): Promise<Record<string, unknown> | string> {
  try {
    const answer = await fetch(url, { headers: { accept: 'application/json' } });
    if (answer.status !== 200) {
      await answer.body?.cancel();
      return `answered ${answer.status}`;
    }
    const body = (await answer.json()) as unknown;
    return isRecord(body) ? body : 'is not a JSON object';
  } catch (error) {
    return `failed: ${describeError(error)}`;
  }
}
