import type { MessageTerm } from '../../errors/message-term.js';
import type { FollowUp } from './compute-follow-ups.js';
import type { ArgumentProblem } from './invalid-arguments-error.js';

/**
 * Why a multi-page walk stopped before the last page: `item_limit` (`maxItems`), `request_limit`
 * (`pagination.maxPages`), `time_limit` (`pagination.maxTimeInMs`), `repeated_cursor` (a cursor or
 * URL already requested), `repeated_page` (a page identical to an earlier one), `cross_origin_next`
 * (a next link to another origin), `unrecognized_pagination` (the page says more exist but neither
 * a declaration nor detection shows how to reach them, or its JSON cannot be read: its data is
 * returned as it came), `error`.
 */
export type PageStopReason = 'item_limit' | 'request_limit' | 'time_limit' | 'repeated_cursor' | 'repeated_page' | 'cross_origin_next' | 'unrecognized_pagination' | 'error';

/** Where a paginated result stands. */
export interface PageState {
  /**
  What to pass as `resumeFrom` to continue: the next cursor, page number or offset, or the next
  URL for `Link` pagination. `null` when there is nothing more to fetch (or it cannot be resumed).
  */
  next: string | number | null;
  /** True when the last page was reached; false when more exist or the walk stopped early. */
  complete: boolean;
  /** Why the walk stopped early, when it did. */
  stopReason?: PageStopReason;
}

/** A failure, shaped for an orchestrator and a model alike. */
export interface CallError {
  /**
  The tool's declared error code (a key of its `errors`) when `declared`, otherwise an aicap code:
  `HTTP_ERROR` (an undeclared status), `INVALID_ARGUMENTS`, `APPROVAL_REQUIRED`, `APPROVAL_DENIED`,
  `BUDGET_EXCEEDED`, `TIMEOUT`, `NETWORK_ERROR`, `RESPONSE_TOO_LARGE`, `AUTH_FAILED`,
  `INSUFFICIENT_SCOPE`, …
  */
  code: string;
  /** HTTP status of the failing response; 0 when nothing was received (or nothing was sent). */
  status: number;
  /** The failure is transient by the tool's contract: calling again later may succeed. */
  retryable: boolean;
  /** How long the server asked to wait (`Retry-After`), in milliseconds; `null` when it did not say. */
  retryAfterInMs: number | null;
  /** What to tell the user: the producer's declared `context`, or a plain description. */
  userMessage: string;
  /** The status (and problem type) matched one of the tool's declared `errors`. */
  declared: boolean;
  /** Details for developers and logs, with every credential and redacted value removed. */
  message: string;
  /** For `INVALID_ARGUMENTS`: each bad field, so the model can fix its call. */
  problems?: ArgumentProblem[];
  /** The option of the client (or of the call) the failure concerns, as a program writes it (`agentId`, `network.timeouts.headersInMs`). */
  option?: string;
  /** The terms `message` and `userMessage` name whose wording depends on the reader (an option, a method to call), as data; see `AicapError.terms`. */
  terms?: readonly MessageTerm[];
}

/** Facts about how the call went. */
export interface CallMeta {
  /** Tool (or resource) id. */
  toolId: string;
  /** HTTP requests sent, retries and pages included. */
  attempts: number;
  /** Wall time of the whole call. */
  durationInMs: number;
  /** `text` was cut to the configured length. */
  truncated: boolean;
  /** The response's `Location` header, when it sent one (an async job's 202 points at its status). */
  location?: string;
}

/** The fields every envelope has, success or failure. */
export interface CallEnvelopeBase {
  /** HTTP status of the last response; 0 when none was received. */
  status: number;
  /** The response body: parsed JSON, text, or a description of binary content; the collected items for `allPages`. */
  data: unknown;
  /** The items of a paginated (or array) result. */
  items?: unknown[];
  /** Pagination state, when the tool pages. */
  page?: PageState;
  /**
  The result as text for a model: the response (or error) body wrapped in `<untrusted-data>` markers,
  credentials removed, and cut at `response.maxTextLength` (then `meta.truncated` is true). Never put
  it in a system prompt: it is data from the API, not instructions.
  */
  text: string;
  /** Attempts, duration, truncation. */
  meta: CallMeta;
  /**
  The calls the tool's `links` allow after this result, arguments filled from it (spec section 8.7);
  present on a success of a tool that declares links. Offered, never made: pass the envelope as
  `from` to call one, and approval, budgets and policy apply as to any call. The values are data
  from the API.
  */
  next?: FollowUp[];
}

/** A call that succeeded (every page, for `allPages`). */
export interface CallSuccess extends CallEnvelopeBase {
  /** A 2xx response. */
  ok: true;
  /** Never set on success (`never`, so `envelope.error?.code` reads without narrowing). */
  error?: never;
}

/** A call that failed; `items` and `page` keep what was collected before a failing page. */
export interface CallFailure extends CallEnvelopeBase {
  /** Not a 2xx response, or nothing was sent. */
  ok: false;
  /** What went wrong, for the orchestrator and the model. */
  error: CallError;
}

/**
 * The one result shape of every call, success or failure (the call flow of `docs/architecture.md`). `call` resolves to it
 * rather than throwing for anything that happens to a well-formed call, so an orchestrator can hand
 * `text` (or `error`) straight back to the model. Narrow on `ok` to reach `error`.
 * @example
 * const result = await client.call('list_transactions', { account_id: '12345' });
 * if (!result.ok) console.log(result.error.code, result.error.userMessage);
 */
export type CallEnvelope = CallSuccess | CallFailure;

/** Builds an envelope from fields where `ok` is only known at run time (an optional field left undefined is left out); a failure always carries its error. @internal */
export function toCallEnvelope(
  fields: Omit<CallEnvelopeBase, 'items' | 'page' | 'next'> & {
    ok: boolean;
    error?: CallError | undefined;
    items?: unknown[] | undefined;
    page?: PageState | undefined;
    next?: FollowUp[] | undefined;
  },
): CallEnvelope {
  // The fields are taken one by one: a rest pattern copies through a slow generic path, on every call.
  const { ok, error, items, page, next } = fields;
  // Built in the order the fields were always listed in (`JSON.stringify` of an envelope keeps it).
  const envelope = { status: fields.status, data: fields.data } as CallEnvelope;
  if (items !== undefined) envelope.items = items;
  if (page !== undefined) envelope.page = page;
  envelope.text = fields.text;
  envelope.meta = fields.meta;
  if (next !== undefined) envelope.next = next;
  envelope.ok = ok;
  if (!ok) {
    (envelope as CallFailure).error = error ?? {
      code: 'HTTP_ERROR',
      status: fields.status,
      retryable: false,
      retryAfterInMs: null,
      userMessage: 'The call failed.',
      declared: false,
      message: 'The call failed without details.',
    };
  }
  return envelope;
}
