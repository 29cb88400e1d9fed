import type { ErrorContract } from '../../manifest/manifest-v0.js';

/** A declared error a response matched. */
export interface DeclaredErrorMatch {
  /** The key of the contract in the tool's `errors`. */
  code: string;
  /** The contract. */
  contract: ErrorContract;
}

/**
 * Maps a failed response to the tool's declared `errors`: by status, then by the problem `type`
 * (RFC 9457) when several contracts share the status. A typed contract never matches a response of
 * another type; `undefined` means the error is undeclared.
 */
export function matchDeclaredError(errors: Record<string, ErrorContract> | undefined, status: number, problemType: string | undefined): DeclaredErrorMatch | undefined {
  const candidates = Object.entries(errors ?? {}).filter(([, contract]) => contract.status === status);
  if (problemType !== undefined) {
    const exact = candidates.find(([, contract]) => contract.type === problemType);
    if (exact) return { code: exact[0], contract: exact[1] };
  }
  const untyped = candidates.find(([, contract]) => contract.type === undefined);
  if (untyped) return { code: untyped[0], contract: untyped[1] };
  // The server sent no problem type and only one contract has the status: that is the one meant.
  if (problemType === undefined && candidates.length === 1) return { code: candidates[0]![0], contract: candidates[0]![1] };
  return undefined;
}
