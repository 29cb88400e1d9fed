import type { CallEnvelope } from './call-envelope.js';
import type { CallerPolicy } from '../policy/caller-policy.js';
import type { ApproveFunction } from '../policy/enforce-call-policy.js';
import type { SessionStore } from '../policy/session-store.js';

/** `ClientOptions.retry`: how failed calls are retried. The tool's declared contract decides *whether*; these bound *how much*. */
export interface RetryOptions {
  /**
  Most retries of one request (the tool's `max_retries` may lower it, never raise it).

  @default 2
  */
  limit?: number;
  /**
  Ceiling of the first backoff delay; doubles per retry (full jitter draws below it). Also the
  delay of the `fixed_delay` strategy.

  @default 300
  */
  baseDelayInMs?: number;
  /**
  Ceiling of any backoff delay.

  @default 10_000
  */
  maxDelayInMs?: number;
  /**
  Longest `Retry-After` honoured. A server asking for more fails the call at once, with
  `error.retryAfterInMs` set so the orchestrator can decide.

  @default 60_000
  */
  maxRetryAfterInMs?: number;
  /**
  Deadline of the whole call, retries, waits and pages included.

  @default 120_000
  */
  totalTimeoutInMs?: number;
  /**
  Statuses retried when the tool does not declare them (only for methods safe to repeat): error
  statuses, 400 to 599; anything else is refused with `INVALID_OPTION` at `createClient`.

  @default [408, 429, 502, 503, 504]
  */
  statusCodes?: readonly number[];
  /**
  Source of randomness for jitter, a number in [0, 1) (injected in tests).

  @default Math.random
  */
  random?: () => number;
}

/** `ClientOptions.session`: the unit `max_actions_per_session` counts. */
export interface SessionOptions {
  /**
  Id of the agent session (a conversation or a run). Calls can override it per call.

  @default a random UUID per client
  */
  id?: string;
  /**
  Where action counters live (and, later, pins and job checkpoints). Share one (Redis) across
  processes to enforce budgets fleet-wide.

  @default createMemorySessionStore()
  */
  store?: SessionStore;
}

/** `ClientOptions.response`: bounds on what a call reads and hands to a model. */
export interface ResponseOptions {
  /**
  Largest response body read, in bytes; a larger one fails the call with `RESPONSE_TOO_LARGE` and is
  not retried.

  @default 1_048_576 (1 MiB)
  */
  maxSizeInBytes?: number;
  /**
  Longest `text` handed to a model, in characters; longer text is cut and `meta.truncated` set.

  @default 20_000
  */
  maxTextLength?: number;
}

/** `ClientOptions.pagination`: bounds of multi-page walks. */
export interface PaginationOptions {
  /**
  Most requests one `allPages` call or `paginate()` walk sends.

  @default 20
  */
  maxPages?: number;
  /**
  Longest time one `allPages` call or `paginate()` walk keeps asking for further pages; a walk past
  it stops with `page.stopReason` `time_limit` (each request also has its own timeout).

  @default 120_000
  */
  maxTimeInMs?: number;
  /**
  Most items collected by `allPages` (the tool's `returns.max_items` and the call's `maxItems` may lower it).

  @default 1_000
  */
  maxItems?: number;
}

/** The options of `createClient` that shape calls. */
export interface ClientCallOptions {
  /**
  Identifier of this agent, sent in the header the manifest's `auth.agent_identification` names.
  A call to a service that requires one fails before sending when it is missing.

  @default undefined
  */
  agentId?: string;
  /**
  Asked before every call that needs approval (the manifest's `human_approval_required` or the
  caller's `policy`). Without it such calls are refused: approval fails closed.

  @default undefined (calls that need approval are refused)
  */
  approve?: ApproveFunction;
  /** Retry bounds. */
  retry?: RetryOptions;
  /** Session for action budgets. */
  session?: SessionOptions;
  /**
  The caller's own policy, combined with each manifest's: it can only add restrictions.

  @default {}
  */
  policy?: CallerPolicy;
  /** Response size and model text bounds. */
  response?: ResponseOptions;
  /** Multi-page bounds. */
  pagination?: PaginationOptions;
  /**
  An OAuth token (client credentials) is replaced this long before it expires.

  @default 30_000
  */
  refreshTokensBeforeExpiryInMs?: number;
}

/** Options of one `client.call`. */
export interface CallOptions {
  /**
  Follow every page and return the items together (bounded by `maxItems` and `pagination.maxPages`).

  @default false
  */
  allPages?: boolean;
  /**
  Most items collected with `allPages`.

  @default pagination.maxItems, lowered by the tool's `returns.max_items`
  */
  maxItems?: number;
  /**
  Continue a walk from `envelope.page.next` of an earlier call.

  @default undefined (first page)
  */
  resumeFrom?: string | number;
  /**
  Idempotency key for tools that declare `idempotency_key_header` (the same key is sent on every
  retry). Pass one to make a call safe to repeat across processes.

  @default a random UUID per call
  */
  idempotencyKey?: string;
  /**
  Session this call counts against.

  @default session.id
  */
  sessionId?: string;
  /** Cancels the call (waits included). */
  signal?: AbortSignal;
  /**
  Decides approval for this call instead of `ClientOptions.approve`. An agent framework that has
  already asked its user (an approval step or interrupt) passes that answer here, so the user is not
  asked twice.

  @default ClientOptions.approve
  */
  approve?: ApproveFunction;
  /**
  Treat `null` as "not given" for every optional argument (at any depth) whose schema does not
  accept `null`: the field is dropped before validation. Set it when the arguments come from a
  strict-mode LLM tool export (`openai-strict`, `openai-responses-strict`), which makes optional
  fields required and nullable, so the model sends `null` for what it leaves out. A `null` for a
  required field, or for one whose schema allows `null`, is kept (and validated) as a value.

  @default false
  */
  nullMeansAbsent?: boolean;
  /**
  An envelope this client returned earlier: the parameters its tool links to this one are filled
  from its result (spec section 8.7), except those given in the arguments. A value the link cannot
  supply (missing, or failing this tool's schema) refuses the call with `LINK_UNRESOLVED`.

  @default undefined (nothing is filled)
  */
  from?: CallEnvelope;
}
