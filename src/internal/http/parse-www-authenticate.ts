/** One challenge of a `WWW-Authenticate` header. */
export interface AuthenticateChallenge {
  /** Scheme, lower case (`bearer`, `basic`, …). */
  scheme: string;
  /** Auth parameters by lower-case name (`error`, `scope`, `resource_metadata`, …). */
  parameters: Record<string, string>;
}

// scheme, then either a token68 or comma-separated name=value pairs (values quoted or tokens).
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+/;

/**
 * Parses a `WWW-Authenticate` header into its challenges (RFC 9110 §11.6.1). Lenient: anything it
 * cannot read ends the parse instead of throwing, since the header comes from the server.
 */
export function parseWwwAuthenticate(header: string | null): AuthenticateChallenge[] {
  const challenges: AuthenticateChallenge[] = [];
  if (header === null) return challenges;
  let rest = header.trim();
  let current: AuthenticateChallenge | undefined;
  for (let guard = 0; rest.length > 0 && guard < 64; guard++) {
    rest = rest.replace(/^[\s,]+/, '');
    const name = TOKEN.exec(rest)?.[0];
    if (name === undefined) break;
    const afterName = rest.slice(name.length);
    const equals = /^\s*=\s*/.exec(afterName);
    if (current !== undefined && equals !== null && !/^\s*=\s*(?:[,\s]|$)/.test(afterName)) {
      let value: string;
      let remainder = afterName.slice(equals[0].length);
      if (remainder.startsWith('"')) {
        const match = /^"((?:[^"\\]|\\.)*)"/.exec(remainder);
        if (match === null) break;
        value = match[1]!.replace(/\\(.)/g, '$1');
        remainder = remainder.slice(match[0].length);
      } else {
        value = TOKEN.exec(remainder)?.[0] ?? '';
        remainder = remainder.slice(value.length);
      }
      current.parameters[name.toLowerCase()] = value;
      rest = remainder;
      continue;
    }
    current = { scheme: name.toLowerCase(), parameters: {} };
    challenges.push(current);
    rest = afterName;
    // token68 form (`Basic dXNlcg==`): skip it.
    const token68 = /^\s+[A-Za-z0-9\-._~+/]+=*\s*(?:,|$)/.exec(rest);
    if (token68 !== null && !/^\s+[^\s=]+\s*=\s*[^=]/.test(rest)) rest = rest.slice(token68[0].length);
  }
  return challenges;
}

/**
 * The RFC 9728 `resource_metadata` URL of a 401's `WWW-Authenticate` (the first Bearer challenge
 * naming one): pass it as `discoveryUrl` to `startUserAuthorization`. Undefined when no challenge
 * names one; fall back to the manifest's `auth.provider_discovery` then.
 */
export function findResourceMetadataUrl(header: string | null): string | undefined {
  return parseWwwAuthenticate(header).find((challenge) => challenge.scheme === 'bearer' && challenge.parameters['resource_metadata'] !== undefined)?.parameters['resource_metadata'];
}
