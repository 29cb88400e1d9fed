import type { TemporalBehavior } from '../../src/manifest/manifest-v0.js';
import { resolveFollowJobOptions, type FollowJobOptions } from '../../src/client/jobs/follow-job-options.js';
import type { AttemptContext } from '../../src/client/jobs/job-attempt.js';
import type { JobEvent, JobState } from '../../src/client/jobs/job-event.js';
import { applyEvent } from '../../src/client/jobs/job-snapshot.js';
import type { FetchFunction } from '../../src/client/shapes/client-types.js';

/** The status URL of the job stage tests follow. */
export const JOB_STATUS_URL = 'https://api.example.test/v1/jobs/j1/status';

/** A job tool's `temporal_behavior` with an event stream that supports `Last-Event-ID`. */
export function streamingTemporal(overrides: Partial<TemporalBehavior> = {}): TemporalBehavior {
  return {
    pattern: 'async_job',
    status_endpoint: '/jobs/{job_id}/status',
    status_response_type: 'event_stream',
    terminal_states: ['completed', 'failed', 'cancelled'],
    signals: ['progress', 'warning', 'needs_input'],
    reconnection: { supports_last_event_id: true },
    ...overrides,
  };
}

/** A fresh job's state. */
export function freshJobState(overrides: Partial<JobState> = {}): JobState {
  return { jobId: 'j1', status: undefined, terminal: false, lastEventId: undefined, percent: undefined, pendingInput: undefined, ...overrides };
}

/**
 * What one attempt (a stream connection or a poll) shares with the follow loop, over an injected
 * `send`: every new event delivered is recorded and applied to the state (as the loop does), snapshots
 * are recorded, and `retry:` values too. No socket.
 */
export function jobAttemptContext(
  send: FetchFunction,
  settings: { options?: FollowJobOptions; state?: Partial<JobState>; resumable?: boolean; signal?: AbortSignal; temporal?: TemporalBehavior } = {},
): AttemptContext & { delivered: JobEvent[]; snapshots: Record<string, unknown>[]; retries: number[] } {
  const delivered: JobEvent[] = [];
  const snapshots: Record<string, unknown>[] = [];
  const retries: number[] = [];
  const state = freshJobState(settings.state);
  return {
    input: {
      statusUrl: JOB_STATUS_URL,
      temporal: settings.temporal ?? streamingTemporal(),
      eventSchema: { needs_input: { resolution_endpoint: '/jobs/{job_id}/respond' } },
      resolvePath: (path) => `https://api.example.test/v1${path.replace('{job_id}', 'j1')}`,
      send,
      state,
      onEvent: () => {},
      options: resolveFollowJobOptions({ idleTimeoutInMs: 2000, ...settings.options }),
      ...(settings.signal ? { signal: settings.signal } : {}),
    },
    state,
    resumable: settings.resumable ?? true,
    delivered,
    snapshots,
    retries,
    deliver: async (event) => {
      // De-duplicated by id, as the follow loop does across reconnections.
      if (event.id !== undefined && delivered.some((seen) => seen.id === event.id)) return;
      delivered.push(event);
      applyEvent(state, event);
    },
    setRetry: (delayInMs) => void retries.push(delayInMs),
    onSnapshot: async (snapshot) => {
      snapshots.push(snapshot);
      if (typeof snapshot['status'] === 'string' && ['completed', 'failed', 'cancelled'].includes(snapshot['status'])) state.terminal = true;
    },
    deliveredCount: () => delivered.length,
  };
}
