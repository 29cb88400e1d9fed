import { AicapError } from '../../errors/aicap-error.js';

/** What withdrew a tool: the revalidation that found it gone. */
export interface ToolRevocation {
  /** Id of the withdrawn tool (or resource). */
  toolId: string;
  /** The name the model saw for it. */
  exposedName: string;
  /** Origin of its service. */
  origin: string;
  /** URL of the manifest that no longer lists it. */
  manifestUrl: string;
  /** Manifest digest that still listed it. */
  previousDigest: string;
  /** Manifest digest that no longer does. */
  digest: string;
  /** When the client learnt it, in milliseconds since the epoch (the client's clock). */
  revokedAtInMs: number;
  /** What made the client revalidate (`404 from GET /orders/1`, `change feed`, `client.revalidate`). */
  reason: string;
}

/**
 * `TOOL_REVOKED`: the API withdrew the tool (its revalidated manifest no longer lists it). Thrown (and
 * put in the envelope) for the call that found out and for every later call of that tool, which is
 * refused before any request. Its `userMessage` says which tool, which digests and when.
 */
export class ToolRevokedError extends AicapError {
  override name = 'ToolRevokedError';
  /** The revocation: tool, digests, time, reason. */
  readonly revocation: ToolRevocation;
  /** A sentence for the user (the tool's id and origin are the client's own, checked values). */
  readonly userMessage: string;

  constructor(revocation: ToolRevocation) {
    const when = new Date(revocation.revokedAtInMs).toISOString();
    const userMessage = `The tool "${revocation.exposedName}" was withdrawn by ${revocation.origin} at ${when}; it can no longer be called. Pick another tool.`;
    super(
      'TOOL_REVOKED',
      `Tool "${revocation.toolId}" of ${revocation.origin} was revoked at ${when}: the manifest ${revocation.manifestUrl} changed from ${revocation.previousDigest} to ${revocation.digest} and no longer lists it (revalidated after ${revocation.reason}). ` +
        'Pick another tool; discover the service again if it should come back.',
    );
    this.revocation = revocation;
    this.userMessage = userMessage;
  }
}
