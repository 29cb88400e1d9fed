import type { Manifest } from '../../manifest/manifest-v0.js';
import type { CheckOutcome } from './check-result.js';

/** What one anonymous probe of a read-only tool or resource got. */
export interface AnonymousProbe {
  /** The tool or resource id. */
  id: string;
  /** `GET` and the URL probed. */
  target: string;
  /** The answer's status. */
  status: number;
}

/**
 * Grades spec section 4 ("the server MUST enforce authentication and authorization on every call as
 * if the manifest did not exist") from the anonymous probes: a tool that `auth.scopes` gives a scope
 * must not answer a request without credentials with a success. Tools no scope names may be public,
 * so only scoped ones count; a probe that got neither a refusal (401, 403) nor a success (a `404`
 * from a preview serving the manifest only) proves nothing either way, so the check is skipped.
 */
export function checkAuthEnforced(manifest: Manifest, probes: readonly AnonymousProbe[] | undefined, add: (id: string, outcome: CheckOutcome, message: string) => void): void {
  if (!probes) {
    add('auth.enforced', 'skip', 'not run: endpoint probes are off (--no-probe)');
    return;
  }
  const scopeOf = new Map<string, string>();
  for (const [scope, ids] of Object.entries(manifest.auth?.scopes ?? {})) for (const id of ids) if (!scopeOf.has(id)) scopeOf.set(id, scope);
  const scoped = probes.filter((probe) => scopeOf.has(probe.id));
  if (scoped.length === 0) {
    add('auth.enforced', 'skip', 'not applicable: no read-only tool or resource that auth.scopes gives a scope was probed');
    return;
  }
  const open = scoped.filter((probe) => probe.status >= 200 && probe.status < 300);
  if (open.length > 0) {
    const examples = open
      .slice(0, 3)
      .map((probe) => `GET ${probe.target} answered ${probe.status} (auth.scopes gives ${probe.id} "${scopeOf.get(probe.id)}")`)
      .join('; ');
    add(
      'auth.enforced',
      'fail',
      `${open.length} of ${scoped.length} scoped tools answered without credentials: ${examples}; the server must refuse a call without credentials whatever the manifest says`,
    );
    return;
  }
  const refused = scoped.filter((probe) => probe.status === 401 || probe.status === 403);
  if (refused.length === 0) {
    add(
      'auth.enforced',
      'skip',
      `not determined: none of the ${scoped.length} scoped tools answered 401, 403 or a success without credentials (first: GET ${scoped[0]!.target} answered ${scoped[0]!.status})`,
    );
    return;
  }
  add('auth.enforced', 'pass', `${refused.length} of ${scoped.length} scoped tools refused a request without credentials (401 or 403), none answered it`);
}
