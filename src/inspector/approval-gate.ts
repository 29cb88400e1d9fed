import type { ApproveFunction } from '../client/index.js';
import type { CatalogTool } from '../tools/index.js';

/** What the confirm dialog asks the person. */
export interface ApprovalQuestion {
  toolId: string;
  method: string;
  origin: string;
  path: string;
  /** The URL the request goes to (base path included, placeholders filled), redacted for display. */
  url: string;
  reason: string;
  /** The arguments that would be sent, redacted for display. */
  arguments: unknown;
}

/** The `approve` callback of one call from the page, and the question it recorded when it said no. */
export interface ApprovalGate {
  approve: ApproveFunction;
  question(): ApprovalQuestion | undefined;
}

/**
 * An approval callback that approves when the person already confirmed, and otherwise refuses and
 * records the question (URL and arguments redacted by `display`) for the page's confirm dialog.
 */
export function createApprovalGate(tool: Pick<CatalogTool, 'id' | 'path'>, approved: boolean, display: (value: unknown) => unknown): ApprovalGate {
  let question: ApprovalQuestion | undefined;
  return {
    approve: (approval) => {
      if (approved) return true;
      question = {
        toolId: tool.id,
        method: approval.method,
        origin: approval.origin,
        path: tool.path,
        url: String(display(approval.url)),
        reason: approval.reasons.join(' '),
        arguments: display(approval.arguments),
      };
      return false;
    },
    question: () => question,
  };
}
