import { SCHEMA_VERSION } from '../../manifest/manifest-v0.js';
import type { CheckOutcome, CheckResult } from './check-result.js';

/** The requirement level of a check: a MUST of the spec, or a SHOULD (RECOMMENDED). */
export type RequirementLevel = 'MUST' | 'SHOULD';

/** One check line, with the rule it grades. */
export interface GradedCheck extends CheckResult {
  /** MUST or SHOULD. */
  level: RequirementLevel;
  /** The section of `docs/spec.md` the check tests, e.g. `5`, or `A` for Appendix A. (OAuth metadata is graded under 7.16, which names RFC 9728 and RFC 8414.) */
  section: string;
  /** Ids of the conformance kit's producer scenarios (`conformance/http/producer.json`) that test the same rule, when there are any: a second implementation's kit run and this report can be compared line by line. */
  kit?: string[];
}

/** How many checks of one level were met, of those that ran. */
export interface LevelTally {
  met: number;
  total: number;
}

/** A check report graded against the spec: every line with its level and section, and a summary. */
export interface GradedCheckReport {
  url: string;
  /** True when every MUST that ran was met. */
  ok: boolean;
  /** The spec version graded against, `MAJOR.MINOR`. */
  suite: string;
  checks: GradedCheck[];
  must: LevelTally;
  should: LevelTally;
  /** Checks that did not run (not applicable, or needing what failed). */
  skipped: number;
  /** One line a badge can carry: `conforms to aicap <version>: <met>/<total> MUST, <met>/<total> SHOULD`. */
  summary: string;
}

interface Requirement {
  level: RequirementLevel;
  section: string;
  /** The check needs a valid manifest: when validation failed it is listed as skipped. */
  needsManifest?: boolean;
  /** The check needs the manifest's answer: when fetching it failed it is listed as skipped. */
  needsResponse?: boolean;
  /** A warning still meets the rule (a valid manifest with warnings is valid). */
  warnMeets?: boolean;
  /** Why the check may not run on a healthy service: it is listed as skipped with this. */
  notApplicable?: string;
  /** The kit's producer scenarios that test the same rule. */
  kit?: readonly string[];
}

const requirements: Record<string, Requirement> = {
  'manifest.fetch': { level: 'MUST', section: '3', kit: ['producer.manifest.get'] },
  'manifest.status': { level: 'MUST', section: '3', kit: ['producer.manifest.get'] },
  'manifest.media_type': { level: 'MUST', section: '2', needsResponse: true, kit: ['producer.manifest.get'] },
  'manifest.valid': { level: 'MUST', section: '9.1', needsResponse: true, warnMeets: true, kit: ['producer.manifest.get'] },
  'manifest.no_secrets': { level: 'MUST', section: '10.5', needsManifest: true, kit: ['producer.manifest.no_secrets'] },
  'manifest.origin_binding': { level: 'MUST', section: '9.2', needsManifest: true },
  'trust.poisoning': { level: 'SHOULD', section: '10.2', needsManifest: true },
  'http.per_credential_private': { level: 'MUST', section: '4', needsResponse: true, notApplicable: 'the manifest does not vary on Authorization', kit: ['producer.manifest.per_credential_private'] },
  'http.compression_vary': { level: 'MUST', section: '5', needsResponse: true, kit: ['producer.manifest.compression_vary', 'producer.manifest.not_modified_vary'] },
  'http.no_set_cookie': { level: 'SHOULD', section: '5', needsResponse: true },
  'http.cors': { level: 'SHOULD', section: '3', needsResponse: true, kit: ['producer.manifest.cors'] },
  'http.cors_preflight': { level: 'SHOULD', section: '3', needsResponse: true, kit: ['producer.manifest.cors_preflight'] },
  'http.cache_control': { level: 'SHOULD', section: '5', needsResponse: true, kit: ['producer.manifest.cache_control'] },
  'http.etag': { level: 'SHOULD', section: '5', needsResponse: true, kit: ['producer.manifest.etag'] },
  'http.etag_is_digest': { level: 'SHOULD', section: '5', needsManifest: true, notApplicable: 'no ETag on the identity form', kit: ['producer.manifest.etag_is_digest'] },
  'http.revocation_window': { level: 'SHOULD', section: '8.8', needsResponse: true, notApplicable: 'no Cache-Control' },
  'http.conditional': { level: 'SHOULD', section: '5', needsResponse: true, notApplicable: 'no ETag to revalidate with', kit: ['producer.manifest.not_modified'] },
  'http.head': { level: 'SHOULD', section: '3', needsResponse: true, kit: ['producer.manifest.head'] },
  'endpoints.consequential': { level: 'SHOULD', section: '8.1', needsManifest: true },
  'endpoints.probe': { level: 'SHOULD', section: '7.16', needsManifest: true },
  'auth.enforced': { level: 'MUST', section: '4', needsManifest: true, kit: ['producer.call.requires_credentials'] },
  'auth.provider_discovery': { level: 'MUST', section: '7.16', needsManifest: true, notApplicable: 'the manifest names no auth.provider_discovery' },
  'auth.protected_resource': { level: 'MUST', section: '7.16' },
  'auth.authorization_server': { level: 'MUST', section: '7.16' },
  catalog: { level: 'SHOULD', section: '3' },
  'mcp.server_card': { level: 'SHOULD', section: 'A' },
  'mcp.endpoint': { level: 'SHOULD', section: 'A' },
  'mcp.detected': { level: 'MUST', section: '3' },
};

function requirementOf(id: string): Requirement {
  // Each endpoint probe (`endpoint.<tool id>`) grades the same rule: 401 with a challenge (section 7.16).
  return requirements[id] ?? (id.startsWith('endpoint.') ? requirements['endpoints.probe']! : { level: 'SHOULD', section: '—' });
}

/**
 * Grades a check report against the spec: each line gets the level and section of the rule it
 * tests, checks that needed a valid manifest and could not run are added as skipped (so a report
 * says what it did not look at), and a summary counts the MUSTs and SHOULDs met. A `pass` meets a
 * rule, a `warn` or `fail` does not (except a valid manifest with warnings), a `skip` is not counted.
 * @example
 * const graded = gradeCheckReport(await checkCapabilities('https://api.example.com'));
 * console.log(graded.summary); // e.g. "conforms to aicap 0.2: 9/9 MUST, 10/10 SHOULD (2 skipped)"
 */
export function gradeCheckReport(report: { url: string; checks: readonly CheckResult[] }): GradedCheckReport {
  const checks: GradedCheck[] = report.checks.map((check) => ({ ...check, ...pick(requirementOf(check.id)) }));
  const ran = new Set(report.checks.map((check) => check.id));
  const outcomeOf = (id: string): CheckOutcome | undefined => report.checks.find((check) => check.id === id)?.outcome;
  const responseFailed = outcomeOf('manifest.status') !== 'pass';
  const manifestFailed = responseFailed || outcomeOf('manifest.valid') === 'fail';
  // An origin recognised as an MCP server has no manifest to grade: its report stays short.
  if (!ran.has('mcp.detected')) {
    for (const [id, requirement] of Object.entries(requirements)) {
      if (ran.has(id) || id === 'endpoints.probe' || id.startsWith('mcp.')) continue;
      const reason =
        requirement.needsResponse && responseFailed
          ? `not run: needs the manifest's answer (${outcomeOf('manifest.fetch') ? 'manifest.fetch' : 'manifest.status'} failed)`
          : requirement.needsManifest && manifestFailed
            ? 'not run: needs a valid manifest (manifest.valid failed)'
            : requirement.notApplicable && !manifestFailed
              ? `not applicable: ${requirement.notApplicable}`
              : undefined;
      if (reason) checks.push({ id, outcome: 'skip', message: reason, ...pick(requirement) });
    }
  }
  const tally = (level: RequirementLevel): LevelTally => {
    const counted = checks.filter((check) => check.level === level && check.outcome !== 'skip');
    return { met: counted.filter((check) => meets(check)).length, total: counted.length };
  };
  const must = tally('MUST');
  const should = tally('SHOULD');
  const suite = SCHEMA_VERSION.split('.').slice(0, 2).join('.');
  const ok = must.met === must.total;
  const skipped = checks.filter((check) => check.outcome === 'skip').length;
  const summary = `${ok ? 'conforms to' : 'does not conform to'} aicap ${suite}: ${must.met}/${must.total} MUST, ${should.met}/${should.total} SHOULD${skipped > 0 ? ` (${skipped} skipped)` : ''}`;
  return { url: report.url, ok, suite, checks, must, should, skipped, summary };
}

function pick(requirement: Requirement): { level: RequirementLevel; section: string; kit?: string[] } {
  return { level: requirement.level, section: requirement.section, ...(requirement.kit ? { kit: [...requirement.kit] } : {}) };
}

/** Every rule `gradeCheckReport` grades, by check id (endpoint probes as `endpoints.probe`), with its level, section and kit scenarios. @internal */
export function gradedRules(): Array<{ id: string; level: RequirementLevel; section: string; kit?: string[] }> {
  return Object.entries(requirements).map(([id, requirement]) => ({ id, ...pick(requirement) }));
}

function meets(check: GradedCheck): boolean {
  const outcome: CheckOutcome = check.outcome;
  return outcome === 'pass' || (outcome === 'warn' && requirementOf(check.id).warnMeets === true);
}
