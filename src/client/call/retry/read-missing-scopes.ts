import type { Auth } from '../../../manifest/manifest-v0.js';

/** Most scopes taken from one challenge: a real step-up asks for a few. */
const MAX_SCOPES = 32;
/** Longest scope name taken from a challenge, in characters. */
const MAX_SCOPE_LENGTH = 128;
/** An RFC 6750 §3 scope token: printable ASCII except space, `"` and `\`. */
const SCOPE_TOKEN = /^[\x21\x23-\x5B\x5D-\x7E]+$/;

/**
 * The scopes the 403 `insufficient_scope` challenge among `challenges` asks for that step-up may use: only well-formed
 * scope tokens that the manifest's `auth.scopes` declares, at most {@link MAX_SCOPES}. The
 * challenge's `scope` is the API's own text at call time; it reaches the user's authorization request
 * and the advice printed to the user, so nothing else from it is kept. `undefined` when none is left
 * (no step-up then: the call fails with `INSUFFICIENT_SCOPE`).
 * @internal
 */
export function readMissingScopes(challenges: readonly { parameters: Readonly<Record<string, string>> }[], auth: Auth | undefined): string[] | undefined {
  const challengeScope = challenges.find((challenge) => challenge.parameters['error'] === 'insufficient_scope')?.parameters['scope'];
  if (challengeScope === undefined) return undefined;
  const declared = auth?.scopes ?? {};
  const scopes = new Set<string>();
  for (const token of challengeScope.split(/\s+/)) {
    if (scopes.size >= MAX_SCOPES) break;
    if (token.length === 0 || token.length > MAX_SCOPE_LENGTH || !SCOPE_TOKEN.test(token) || !Object.hasOwn(declared, token)) continue;
    scopes.add(token);
  }
  return scopes.size === 0 ? undefined : [...scopes];
}
