import { describe, expect, it } from 'vitest';
import type { TemporalBehavior } from '../../manifest/manifest-v0.js';
import type { JobState } from './job-event.js';
import { eventsFromSnapshot, readSnapshot, toJobEvent } from './job-snapshot.js';

const temporal: TemporalBehavior = { pattern: 'async_job', status_endpoint: '/jobs/{job_id}', status_response_type: 'event_stream', terminal_states: ['completed', 'failed'] };
const source = { temporal, eventSchema: undefined, resolvePath: (path: string) => `https://api.example.com${path}` };
const state: JobState = { jobId: 'j', status: 'running', terminal: false, lastEventId: undefined, percent: 10, pendingInput: undefined };

describe('job snapshots and events', () => {
  it('reads status, percent and a pending question from the usual spellings', () => {
    expect(readSnapshot({ state: 'running', progress: { percent: 40 }, pending_input: { input_id: '1' } })).toEqual({ status: 'running', percent: 40, pendingInput: { input_id: '1' } });
  });

  it('turns an event named after a terminal state, or carrying a terminal status, into a terminal status event', () => {
    expect(toJobEvent({ input: source, state }, 'completed', { result: 1 }, '9', 'stream')).toMatchObject({ type: 'status', status: 'completed', terminal: true, name: 'completed' });
    expect(toJobEvent({ input: source, state }, 'update', { status: 'failed' }, '9', 'stream')).toMatchObject({ type: 'status', status: 'failed', terminal: true });
    expect(toJobEvent({ input: source, state }, 'update', { status: 'running' }, '9', 'stream')).toMatchObject({ type: 'signal' });
  });

  it('synthesises only a new question when the stream owes the rest', () => {
    const snapshot = { status: 'needs_input', percent: 50, needs_input: { input_id: '2', prompt: 'Go?' } };
    expect(eventsFromSnapshot(source, state, snapshot, true).map((event) => event.type)).toEqual(['needs_input']);
    expect(eventsFromSnapshot(source, state, snapshot, false).map((event) => event.type)).toEqual(['progress', 'needs_input', 'status']);
  });
});
