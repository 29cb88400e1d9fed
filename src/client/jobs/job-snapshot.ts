/**
 * Reading job state out of what the network sends: status objects (polls, `resync` snapshots) and
 * SSE messages, turned into typed {@link JobEvent}s and folded into a {@link JobState}.
 * @module
 */
import type { EventSchema, TemporalBehavior } from '../../manifest/manifest-v0.js';
import type { JobEvent, JobNeedsInputEvent, JobState } from './job-event.js';
import { isRecord } from '../../internal/is-record.js';

/** What turning a message into an event needs to know about the tool. @internal */
export interface JobEventSource {
  /** The tool's `temporal_behavior` (terminal states). */
  temporal: TemporalBehavior;
  /** The tool's `event_schema`, for resolving `resolution_endpoint`. */
  eventSchema: Record<string, EventSchema> | undefined;
  /** Turns a manifest job path into an absolute URL. */
  resolvePath: (path: string) => string;
}

/** The state fields a status object or a resync snapshot carries. @internal */
export function readSnapshot(snapshot: Record<string, unknown>): { status: string | undefined; percent: number | undefined; pendingInput: unknown } {
  const status = typeof snapshot['status'] === 'string' ? snapshot['status'] : typeof snapshot['state'] === 'string' ? snapshot['state'] : undefined;
  const progress = snapshot['progress'];
  const percent =
    typeof snapshot['percent'] === 'number'
      ? snapshot['percent']
      : typeof progress === 'number'
        ? progress
        : isRecord(progress) && typeof progress['percent'] === 'number'
          ? progress['percent']
          : undefined;
  const pending = snapshot['needs_input'] ?? snapshot['pending_input'];
  return { status, percent, pendingInput: isRecord(pending) ? pending : undefined };
}

/** True when a status object names one of the tool's terminal states. @internal */
export function isTerminalSnapshot(snapshot: Record<string, unknown>, temporal: TemporalBehavior): boolean {
  const { status } = readSnapshot(snapshot);
  return status !== undefined && temporal.terminal_states.includes(status);
}

/** The identity of a question: its `input_id`, or its whole data when the server gives none. @internal */
export function inputIdOf(data: unknown): string {
  return isRecord(data) && (typeof data['input_id'] === 'string' || typeof data['input_id'] === 'number') ? String(data['input_id']) : JSON.stringify(data);
}

/**
 * Turns a polled status object into events for what changed since `state`. With `questionsOnly`,
 * only a new question: a resumable stream will replay the rest. @internal
 */
export function eventsFromSnapshot(source: JobEventSource, state: JobState, snapshot: Record<string, unknown>, questionsOnly: boolean): JobEvent[] {
  const context = { input: source, state };
  const events: JobEvent[] = [];
  const next = readSnapshot(snapshot);
  if (!questionsOnly && next.percent !== undefined && next.percent !== state.percent) events.push(toJobEvent(context, 'progress', { percent: next.percent }, undefined, 'poll'));
  if (next.pendingInput !== undefined) events.push(toJobEvent(context, 'needs_input', next.pendingInput, undefined, 'poll'));
  if (!questionsOnly && next.status !== undefined && next.status !== state.status) events.push(toJobEvent(context, 'status', snapshot, undefined, 'poll'));
  return events;
}

/**
 * Builds the typed event for a message. An event of another name that is itself a declared
 * terminal state (`event: completed`), or whose data carries a terminal `status`, is a `status`
 * event: a server that ends its jobs that way must not be reconnected to forever. @internal
 */
export function toJobEvent(context: { input: JobEventSource; state: JobState }, name: string, data: unknown, id: string | undefined, source: 'stream' | 'poll'): JobEvent {
  const { input } = context;
  const terminalStates = input.temporal.terminal_states;
  const base = { id, name, data, source };
  const record = isRecord(data) ? data : {};
  if (name === 'status') {
    const status = readSnapshot(record).status ?? (typeof data === 'string' ? data : 'unknown');
    return { ...base, type: 'status', status, terminal: terminalStates.includes(status) };
  }
  if (name === 'progress') return { ...base, type: 'progress', percent: readSnapshot(record).percent };
  if (name === 'warning') return { ...base, type: 'warning', message: typeof record['message'] === 'string' ? record['message'] : undefined };
  if (name === 'needs_input') {
    const declared = input.eventSchema?.['needs_input']?.resolution_endpoint;
    const event: JobNeedsInputEvent = {
      ...base,
      type: 'needs_input',
      prompt: typeof record['prompt'] === 'string' ? record['prompt'] : undefined,
      options: Array.isArray(record['options']) ? record['options'] : undefined,
      resolutionUrl: declared === undefined ? undefined : input.resolvePath(declared),
    };
    return event;
  }
  if (name === 'resync') {
    const snapshot = readSnapshot(record);
    const status = snapshot.status ?? context.state.status;
    const state: JobState = {
      ...context.state,
      status,
      terminal: status !== undefined && terminalStates.includes(status),
      percent: snapshot.percent,
      pendingInput: snapshot.pendingInput === undefined ? undefined : (toJobEvent(context, 'needs_input', snapshot.pendingInput, undefined, source) as JobNeedsInputEvent),
    };
    return { ...base, type: 'resync', state };
  }
  if (terminalStates.includes(name)) return { ...base, type: 'status', status: name, terminal: true };
  const carried = readSnapshot(record).status;
  if (carried !== undefined && terminalStates.includes(carried)) return { ...base, type: 'status', status: carried, terminal: true };
  return { ...base, type: 'signal' };
}

/** Folds an event into the local state. @internal */
export function applyEvent(state: JobState, event: JobEvent): void {
  if (event.type === 'status') {
    state.status = event.status;
    state.terminal = event.terminal;
    // Any other status after a question means it was answered (or no longer matters).
    if (event.status !== 'needs_input') state.pendingInput = undefined;
  } else if (event.type === 'progress') {
    if (event.percent !== undefined) state.percent = event.percent;
  } else if (event.type === 'needs_input') {
    state.pendingInput = event;
  } else if (event.type === 'resync') {
    Object.assign(state, event.state);
  }
}

/** SSE data as JSON when it parses, else the raw text. @internal */
export function parseEventData(data: string): unknown {
  try {
    return JSON.parse(data) as unknown;
  } catch {
    return data;
  }
}
