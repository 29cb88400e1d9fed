import { AicapError } from '../../errors/aicap-error.js';
import type { WordedMessage } from '../../errors/message-term.js';

/** Why a call was refused before anything was sent. */
export type PolicyRefusalCode = 'APPROVAL_REQUIRED' | 'APPROVAL_DENIED' | 'BUDGET_EXCEEDED' | 'TOOL_DISABLED';

/** The policy (the manifest's or the caller's) refused a call. Nothing was sent. Turned into the envelope's `error` by the call part. @internal */
export class PolicyRefusedError extends AicapError {
  override name: string = 'PolicyRefusedError';
  /** Tool the call was for. */
  readonly toolId: string;

  constructor(code: PolicyRefusalCode, toolId: string, message: string | WordedMessage) {
    super(code, message);
    this.toolId = toolId;
  }
}
