import { AicapError } from '../errors/aicap-error.js';
import { isRecord } from '../internal/is-record.js';

/** A service's or a tool's state (spec section 7.21). */
export type HealthStatus = 'ok' | 'degraded' | 'maintenance';

/** The status of one tool in a {@link HealthReport}. */
export interface ToolHealth {
  /** The tool's own state. */
  status: HealthStatus;
  /** Seconds to wait, or an RFC 3339 date-time to wait until. */
  retry_after?: number | string;
  /** A sentence for operators: untrusted text. */
  message?: string;
}

/** The document a health resource serves (spec section 7.21). */
export interface HealthReport extends ToolHealth {
  /** Tools whose state differs from the service's, by id. */
  tools?: Record<string, ToolHealth>;
}

const STATUSES: ReadonlySet<string> = new Set(['ok', 'degraded', 'maintenance']);
/** Longest `retry_after` in seconds: a week. */
const MAX_RETRY_AFTER_IN_SECONDS = 604_800;
/** Most tools a report may list. */
const MAX_TOOLS = 2_000;
const RFC_3339 = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?(?:Z|[+-]\d\d:\d\d)$/i;

/**
 * Checks a health report (a parsed JSON value) and returns it with nothing else in it: unknown
 * members are dropped. Throws `INVALID_ARGUMENT` naming the JSON Pointer of the first problem.
 * @example
 * const report = parseHealthReport({ status: 'maintenance', retry_after: 600 });
 */
export function parseHealthReport(value: unknown): HealthReport {
  const report: HealthReport = parseEntry(value, '');
  const tools = (value as { tools?: unknown }).tools;
  if (tools === undefined) return report;
  if (!isRecord(tools)) throw invalid('/tools', 'must be an object of tool id → status');
  const entries = Object.entries(tools);
  if (entries.length > MAX_TOOLS) throw invalid('/tools', `lists ${entries.length} tools, more than ${MAX_TOOLS}`);
  const parsed: Record<string, ToolHealth> = Object.create(null) as Record<string, ToolHealth>;
  for (const [id, entry] of entries) {
    if (!/^[A-Za-z][A-Za-z0-9_-]{0,63}$/.test(id)) throw invalid('/tools', `has a key that is not a tool id: ${JSON.stringify(id.slice(0, 80))}`);
    parsed[id] = parseEntry(entry, `/tools/${id}`);
  }
  return { ...report, tools: parsed };
}

/**
 * When `retry_after` says to try again, in milliseconds since the epoch, from `nowInMs`; `null` when
 * it says nothing.
 */
export function retryAtOf(entry: Pick<ToolHealth, 'retry_after'>, nowInMs: number): number | null {
  const { retry_after: retryAfter } = entry;
  if (typeof retryAfter === 'number') return nowInMs + retryAfter * 1000;
  if (typeof retryAfter === 'string') return Date.parse(retryAfter);
  return null;
}

function parseEntry(value: unknown, pointer: string): ToolHealth {
  if (!isRecord(value)) throw invalid(pointer, 'must be an object');
  const { status, retry_after: retryAfter, message } = value as Record<string, unknown>;
  if (typeof status !== 'string' || !STATUSES.has(status)) throw invalid(`${pointer}/status`, 'must be "ok", "degraded" or "maintenance"');
  const entry: ToolHealth = { status: status as HealthStatus };
  if (retryAfter !== undefined) {
    const valid =
      (typeof retryAfter === 'number' && Number.isInteger(retryAfter) && retryAfter >= 0 && retryAfter <= MAX_RETRY_AFTER_IN_SECONDS) ||
      (typeof retryAfter === 'string' && RFC_3339.test(retryAfter) && !Number.isNaN(Date.parse(retryAfter)));
    if (!valid) throw invalid(`${pointer}/retry_after`, `must be whole seconds from 0 to ${MAX_RETRY_AFTER_IN_SECONDS} or an RFC 3339 date-time`);
    entry.retry_after = retryAfter as number | string;
  }
  if (message !== undefined) {
    if (typeof message !== 'string' || message.length > 512) throw invalid(`${pointer}/message`, 'must be a string of at most 512 characters');
    entry.message = message;
  }
  return entry;
}

function invalid(pointer: string, rule: string): AicapError {
  return new AicapError('INVALID_ARGUMENT', `Health report at ${pointer || '/'} ${rule} (spec section 7.21).`);
}
