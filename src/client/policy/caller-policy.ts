import type { Policy } from '../../manifest/manifest-v0.js';

/** Describes the tool a policy decision is about. */
export interface PolicySubject {
  /** Tool id as declared in the manifest. */
  toolId: string;
  /** Name the model sees (namespaced when several services are loaded). */
  exposedName: string;
  /** Origin the call goes to. */
  origin: string;
  /** HTTP method. */
  method: string;
}

/**
 * The caller's own policy. It is combined with the manifest's `policy` so that each rule can only
 * add restrictions: a manifest can never lift what the caller sets here.
 */
export interface CallerPolicy {
  /**
  Tools that need approval even if the manifest does not say so: a list of tool ids (any service),
  `<origin>|<tool id>` entries (one service), exposed names (matched by the tool id after the
  namespace, so a squatted namespace cannot dodge them) or `'*'`; or a predicate.

  @default [] (only the manifest's `human_approval_required`)
  */
  requireApproval?: readonly string[] | ((subject: PolicySubject) => boolean);
  /**
  Require approval for every tool whose method is not GET or HEAD, whatever the manifest declares.

  @default false
  */
  requireApprovalForConsequential?: boolean;
  /**
  More parameter names to redact, added to the manifest's `redact_from_logs`.

  @default []
  */
  redactFromLogs?: readonly string[];
  /**
  Upper bound of calls in one session across every service. The manifest's
  `max_actions_per_session` still applies per service; the lower bound wins.

  @default undefined (no caller limit)
  */
  maxActionsPerSession?: number;
  /**
  Tools never retried automatically, whatever the manifest claims about idempotency (entries as in
  `requireApproval`).

  @default []
  */
  neverRetry?: readonly string[];
  /**
  Tools that are refused outright (entries as in `requireApproval`).

  @default []
  */
  blockedTools?: readonly string[];
}

/** The policy that applies to one call: manifest ∧ caller. */
export interface EffectivePolicy {
  /** The call is refused without being sent. */
  blocked: boolean;
  /** A human must approve the call; why (one entry per rule that demands it). */
  approvalReasons: string[];
  /** Parameter names whose values are redacted. */
  redactNames: string[];
  /** Limit per service, from the manifest. */
  serviceBudget: number | undefined;
  /** Limit across services, from the caller. */
  callerBudget: number | undefined;
  /** Automatic retries are allowed at all (they still need idempotency). */
  retryAllowed: boolean;
}

/** Separates the namespace from the tool id in an exposed name (`payments__transfer`). */
const NAMESPACE_SEPARATOR = '__';

/**
 * True when a caller list names the tool. Entries are matched by identity, which another service
 * cannot take over: `'*'`, the tool id (on any service), or `<origin>|<tool id>` (on that service
 * only). An exposed name (`payments__transfer`) also matches the tool whose id follows the
 * namespace, on every service: namespaces are handed out in discovery order, so a service
 * discovered first could take `payments` and push the real tool to `payments2__transfer`; matching
 * by id keeps these lists (all restrictions) failing closed.
 */
function listed(list: readonly string[] | undefined, subject: PolicySubject): boolean {
  if (list === undefined) return false;
  return list.some((entry) => {
    if (entry === '*' || entry === subject.toolId || entry === subject.exposedName || entry === `${subject.origin}|${subject.toolId}`) return true;
    const separator = entry.indexOf(NAMESPACE_SEPARATOR);
    return separator > 0 && entry.slice(separator + NAMESPACE_SEPARATOR.length) === subject.toolId;
  });
}

/** Combines the manifest's policy with the caller's: every restriction of either applies. */
export function resolveEffectivePolicy(manifestPolicy: Policy | undefined, callerPolicy: CallerPolicy | undefined, subject: PolicySubject): EffectivePolicy {
  const approvalReasons: string[] = [];
  if (manifestPolicy?.human_approval_required?.includes(subject.toolId)) approvalReasons.push('the manifest lists it in `policy.human_approval_required`');
  const requireApproval = callerPolicy?.requireApproval;
  if (typeof requireApproval === 'function' ? requireApproval(subject) : listed(requireApproval, subject)) {
    approvalReasons.push('the caller policy `requireApproval` names it');
  }
  if (callerPolicy?.requireApprovalForConsequential === true && subject.method !== 'GET' && subject.method !== 'HEAD') {
    approvalReasons.push(`the caller policy \`requireApprovalForConsequential\` covers ${subject.method}`);
  }
  return {
    blocked: listed(callerPolicy?.blockedTools, subject),
    approvalReasons,
    redactNames: [...(manifestPolicy?.redact_from_logs ?? []), ...(callerPolicy?.redactFromLogs ?? [])],
    serviceBudget: manifestPolicy?.max_actions_per_session,
    callerBudget: callerPolicy?.maxActionsPerSession,
    retryAllowed: !listed(callerPolicy?.neverRetry, subject),
  };
}
