import { optionTerm, worded } from '../../errors/message-term.js';
import { PolicyRefusedError } from './policy-refused-error.js';
import type { EffectivePolicy, PolicySubject } from './caller-policy.js';
import type { SessionStore } from './session-store.js';

/** What the approval callback is asked to decide. */
export interface ApprovalRequest extends PolicySubject {
  /** The tool's description, as declared. */
  description: string;
  /**
  The arguments as the model proposed them, unredacted: the callback is the caller's own code and
  the human needs to see what they approve. Do not log them as they are.
  */
  arguments: Record<string, unknown>;
  /** Each rule that demands approval. */
  reasons: string[];
  /**
  The URL the request goes to, as it will be sent: `service.base_url` with its path, the tool's path
  with its placeholders filled, and the query (credentials are not attached yet). Show this, not the
  origin and the declared path: a user approves the request that is actually made.
  */
  url: string;
}

/** Decides whether a call that needs approval may go ahead. Anything but `true` refuses it. */
export type ApproveFunction = (request: ApprovalRequest) => boolean | Promise<boolean>;

/** A session: the unit that `max_actions_per_session` counts. */
export interface CallSession {
  /** Stable id of the agent session (a conversation, a run). */
  id: string;
  /** Where its counters live. */
  store: SessionStore;
}

/** Inputs of {@link enforceCallPolicy}. */
export interface EnforceCallPolicyInput {
  policy: EffectivePolicy;
  subject: PolicySubject;
  description: string;
  arguments: Record<string, unknown>;
  /** The request's URL, for {@link ApprovalRequest.url}. */
  url: string;
  approve: ApproveFunction | undefined;
  session: CallSession;
}

/**
 * Applies the fail-closed rules before a call is sent: blocked tools, approval (no callback means
 * refused) and the session budgets. Throws {@link PolicyRefusedError}; resolves when the call may go.
 * The budget is consumed only after approval, so a refused call costs nothing.
 */
export async function enforceCallPolicy(input: EnforceCallPolicyInput): Promise<void> {
  const { policy, subject } = input;
  if (policy.blocked) {
    throw new PolicyRefusedError('TOOL_DISABLED', subject.toolId, `Tool "${subject.exposedName}" is blocked by the caller policy \`blockedTools\`. Do not call it.`);
  }
  if (policy.approvalReasons.length > 0) {
    if (input.approve === undefined) {
      throw new PolicyRefusedError(
        'APPROVAL_REQUIRED',
        subject.toolId,
        worded`Tool "${subject.exposedName}" needs human approval (${policy.approvalReasons.join('; ')}) and no \`approve\` callback is configured, so the call was refused. Pass ${optionTerm('approve', { of: 'createClient' })}.`,
      );
    }
    let approved: boolean;
    try {
      approved = (await input.approve({ ...subject, description: input.description, arguments: input.arguments, reasons: policy.approvalReasons, url: input.url })) === true;
    } catch {
      // An approval UI that crashes has not approved anything.
      approved = false;
    }
    if (!approved) {
      throw new PolicyRefusedError('APPROVAL_DENIED', subject.toolId, `The call to "${subject.exposedName}" was not approved. Tell the user it was not performed.`);
    }
  }
  if (policy.serviceBudget !== undefined) {
    const used = await input.session.store.increment(`aicap:actions:${input.session.id}:${subject.origin}`, 1);
    if (used > policy.serviceBudget) {
      throw new PolicyRefusedError(
        'BUDGET_EXCEEDED',
        subject.toolId,
        `Session "${input.session.id}" used its ${policy.serviceBudget} actions for ${subject.origin} (\`policy.max_actions_per_session\`); the call was refused. Start a new session to continue.`,
      );
    }
  }
  if (policy.callerBudget !== undefined) {
    const used = await input.session.store.increment(`aicap:actions:${input.session.id}`, 1);
    if (used > policy.callerBudget) {
      throw new PolicyRefusedError(
        'BUDGET_EXCEEDED',
        subject.toolId,
        `Session "${input.session.id}" used its ${policy.callerBudget} actions (caller policy \`maxActionsPerSession\`); the call was refused.`,
      );
    }
  }
}
