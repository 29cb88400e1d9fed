import { invalidOptionError } from '../../errors/invalid-option-error.js';
import { MAX_TIMER_IN_MS } from '../../internal/sleep.js';

/** How a job's status is followed: reconnection, polling and safety bounds. Every field is optional. */
export interface FollowJobOptions {
  /**
  Wait before reopening a dropped stream when the server sent no `retry:` field.

  @default 1000
  */
  reconnectDelayInMs?: number;
  /**
  Lower bound of the reconnection delay: a server's `retry: 0` cannot make the client hammer it.

  @default 250
  */
  minReconnectDelayInMs?: number;
  /**
  Upper bound of the reconnection delay (server `retry:` and exponential backoff alike).

  @default 30_000
  */
  maxReconnectDelayInMs?: number;
  /**
  Each wait is lengthened by a random amount up to this fraction, so that many clients cut at the
  same moment do not reconnect at the same moment.

  @default 0.3
  */
  jitterRatio?: number;
  /**
  Lower bound of the polling interval taken from `fallback_poll_interval_seconds` (5 s when absent).

  @default 1000
  */
  minPollIntervalInMs?: number;
  /**
  Upper bound of the polling interval.

  @default 60_000
  */
  maxPollIntervalInMs?: number;
  /**
  Silence on an open stream (no byte, not even a heartbeat comment) after which it is treated as
  dead and reopened with `Last-Event-ID`. Keep it longer than the server's heartbeat interval
  (aicap servers default to 15 s).

  @default 45_000
  */
  idleTimeoutInMs?: number;
  /**
  Largest SSE line or event (in UTF-16 code units) buffered while parsing; a longer one ends the job
  with `JobError` `event-too-large` instead of growing memory.

  @default 1_048_576
  */
  maxEventSizeInChars?: number;
  /**
  Consecutive failed attempts (network errors, 408, 429, 502, 503, 504, streams that close without an event) after
  which following stops with `JobError` `unavailable`. Any exchange that brings news resets the count.

  @default 10
  */
  maxConsecutiveFailures?: number;
  /**
  Total time one `followJobStatus` run (iteration, `finished()`, `result()`) may follow the job
  before it stops with `JobError` `timeout`. The job goes on on its server: resume it later from
  its checkpoint. `0` means no limit (only for callers that bound following themselves, e.g. with
  a `signal`).

  @default 1_800_000 (30 minutes)
  */
  maxDurationInMs?: number;
  /**
  Random numbers in [0, 1) for the jitter. Inject a seeded one to replay a test.

  @default Math.random
  */
  random?: () => number;
}

const DEFAULTS = {
  reconnectDelayInMs: 1000,
  minReconnectDelayInMs: 250,
  maxReconnectDelayInMs: 30_000,
  jitterRatio: 0.3,
  minPollIntervalInMs: 1000,
  maxPollIntervalInMs: 60_000,
  idleTimeoutInMs: 45_000,
  maxEventSizeInChars: 1_048_576,
  maxConsecutiveFailures: 10,
  maxDurationInMs: 1_800_000,
  random: Math.random,
} satisfies Required<FollowJobOptions>;

/** The resolved follow options, and the path of the options they came from (`jobs.follow` or `follow`), which messages name. @internal */
export type ResolvedFollowJobOptions = Required<FollowJobOptions> & { optionPath: string };

/** Options that become timer lengths (or bound them). */
const TIMER_OPTIONS = ['reconnectDelayInMs', 'minReconnectDelayInMs', 'maxReconnectDelayInMs', 'minPollIntervalInMs', 'maxPollIntervalInMs', 'idleTimeoutInMs', 'maxDurationInMs'] as const;

/** Options that must be integers (counts and timer lengths Node accepts). */
const INTEGER_OPTIONS = new Set<keyof FollowJobOptions>(['maxConsecutiveFailures', 'maxDurationInMs']);

// The defaults as resolved for each option path, made on first use.
const DEFAULTS_BY_PATH = new Map<string, ResolvedFollowJobOptions>();

/** Checks the options once, at creation, and fills the defaults. Throws `INVALID_OPTION` naming the field. @internal */
export function resolveFollowJobOptions(options?: FollowJobOptions, optionPath = 'follow'): ResolvedFollowJobOptions {
  // Every client resolves its `jobs.follow`, nearly always not given: the defaults pass every check, so
  // they are resolved once per option path (the code names two) and shared, frozen, by those clients.
  if (options === undefined) {
    let resolvedDefaults = DEFAULTS_BY_PATH.get(optionPath);
    if (resolvedDefaults === undefined) DEFAULTS_BY_PATH.set(optionPath, (resolvedDefaults = Object.freeze({ ...DEFAULTS, optionPath })));
    return resolvedDefaults;
  }
  const resolved = { ...DEFAULTS, ...options };
  for (const name of Object.keys(DEFAULTS) as (keyof FollowJobOptions)[]) {
    if (name === 'random') {
      if (typeof resolved.random !== 'function') throw invalidOptionError(`${optionPath}.random`, 'a function returning numbers in [0, 1)', resolved.random);
      continue;
    }
    const value = resolved[name];
    const ratio = name === 'jitterRatio';
    if (typeof value !== 'number' || !Number.isFinite(value) || value < 0 || (ratio && value > 1) || (INTEGER_OPTIONS.has(name) && !Number.isSafeInteger(value))) {
      throw invalidOptionError(`${optionPath}.${name}`, ratio ? 'a number between 0 and 1' : INTEGER_OPTIONS.has(name) ? 'an integer ≥ 0' : 'a finite number ≥ 0', value);
    }
  }
  if (resolved.minReconnectDelayInMs > resolved.maxReconnectDelayInMs)
    throw invalidOptionError(`${optionPath}.minReconnectDelayInMs`, `at most \`maxReconnectDelayInMs\` (${resolved.maxReconnectDelayInMs})`, resolved.minReconnectDelayInMs);
  if (resolved.minPollIntervalInMs > resolved.maxPollIntervalInMs)
    throw invalidOptionError(`${optionPath}.minPollIntervalInMs`, `at most \`maxPollIntervalInMs\` (${resolved.maxPollIntervalInMs})`, resolved.minPollIntervalInMs);
  if (resolved.maxEventSizeInChars < 1) throw invalidOptionError(`${optionPath}.maxEventSizeInChars`, 'at least 1', resolved.maxEventSizeInChars);
  // Node's timers overflow past 2^31-1 ms (about 24.8 days) and would fire at once: every length that becomes a timer is bounded.
  for (const name of TIMER_OPTIONS) {
    if (resolved[name] > MAX_TIMER_IN_MS)
      throw invalidOptionError(`${optionPath}.${name}`, `at most ${MAX_TIMER_IN_MS} (about 24.8 days)${name === 'maxDurationInMs' ? ', or 0 for no limit' : ''}`, resolved[name]);
  }
  return { ...resolved, optionPath };
}
