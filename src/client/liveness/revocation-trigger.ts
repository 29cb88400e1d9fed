import type { Auth, Resource, Tool } from '../../manifest/manifest-v0.js';
import { parseWwwAuthenticate } from '../../internal/http/parse-www-authenticate.js';

/** Most scope tokens read from one challenge or error body: a real answer names a few. */
const MAX_SCOPES = 32;

/**
 * Why an answer of a tool's endpoint means the manifest held may be out of date, or `undefined` when
 * it does not: a `404` or `410` (the route is gone), or a `401`/`403` whose challenge (RFC 6750 §3
 * `scope`) or problem body (`scope`, `required_scope`) names a scope the held manifest does not give
 * to this tool: the API now demands what the manifest never said, so the manifest changed. A
 * `401`/`403` naming a scope the manifest does list for the tool is an ordinary missing grant (step-up
 * handles it) and triggers nothing. The reason is built from the status and the client's own tool id,
 * never from the answer's text. @internal
 */
export function revocationTrigger(answer: { status: number; headers: Pick<Headers, 'get'> | undefined; body: unknown }, tool: Tool | Resource, auth: Auth | undefined): string | undefined {
  const { status } = answer;
  if (status === 404 || status === 410) return `HTTP ${status} from the endpoint of "${tool.id}"`;
  if (status !== 401 && status !== 403) return undefined;
  const named = namedScopes(answer.headers?.get('www-authenticate') ?? null, answer.body);
  if (named.length === 0) return undefined;
  const listed = new Set(
    Object.entries(auth?.scopes ?? {})
      .filter(([, ids]) => Array.isArray(ids) && ids.includes(tool.id))
      .map(([scope]) => scope),
  );
  return named.some((scope) => !listed.has(scope)) ? `HTTP ${status} naming a scope the manifest does not give to "${tool.id}"` : undefined;
}

/** The scope tokens a challenge's `scope` parameter or a problem body's `scope`/`required_scope` names. */
function namedScopes(challengeHeader: string | null, body: unknown): string[] {
  const texts: string[] = [];
  for (const challenge of parseWwwAuthenticate(challengeHeader)) {
    const scope = challenge.parameters['scope'];
    if (scope !== undefined) texts.push(scope);
  }
  if (body !== null && typeof body === 'object' && !Array.isArray(body)) {
    for (const key of ['scope', 'required_scope']) {
      const value = (body as Record<string, unknown>)[key];
      if (typeof value === 'string') texts.push(value);
    }
  }
  return texts
    .flatMap((text) => text.slice(0, 4096).split(/\s+/))
    .filter((token) => token.length > 0)
    .slice(0, MAX_SCOPES);
}
