import { describe, expect, it } from 'vitest';
import type { JobEvent, JobEventPage, JobRecord, JobStatus } from '../job-event-store.js';
import { composeChunk, resumePosition } from './stream-job-events.js';

const record = (status: JobStatus, lastEventId: number): JobRecord => ({
  principal: 'p',
  snapshot: { job_id: 'j', status, status_url: '/jobs/j', last_event_id: lastEventId, created_at: 't', updated_at: 't' },
});
const tick = (id: number): JobEvent => ({ id, event: 'tick', data: { id } });
const page = (events: JobEvent[], firstId: number, lastId: number): JobEventPage => ({ events, firstId, lastId });

describe('resumePosition', () => {
  it.each([
    [null, 0],
    ['12', 12],
    [' 7 ', 7],
    ['abc', -1],
    ['1'.repeat(16), -1],
    ['-3', -1],
  ])('%j → %d', (header, expected) => {
    expect(resumePosition(header)).toBe(expected);
  });
});

describe('composeChunk', () => {
  it('writes the events after the position and moves to the last one', () => {
    const chunk = composeChunk(record('running', 3), page([tick(2), tick(3)], 1, 3), 1, 65_536);
    expect(chunk).toEqual({ text: expect.stringContaining('id: 3\nevent: tick'), position: 3, done: false });
    expect(chunk.text.match(/^id: /gm)).toHaveLength(2);
  });

  it('stops at maxChunkBytes but always writes at least one event', () => {
    const first = composeChunk(record('running', 3), page([tick(1), tick(2), tick(3)], 1, 3), 0, 10);
    expect(first.position).toBe(1);
    expect(first.text.match(/^id: /gm)).toHaveLength(1);
  });

  it('ends the stream at a terminal status event, and once a terminal job has nothing more', () => {
    const finished: JobEvent = { id: 2, event: 'status', data: { status: 'completed' } };
    expect(composeChunk(record('completed', 3), page([tick(1), finished, tick(3)], 1, 3), 0, 65_536)).toMatchObject({ position: 2, done: true });
    expect(composeChunk(record('failed', 3), page([], 1, 3), 3, 65_536)).toEqual({ text: '', position: 3, done: true });
    expect(composeChunk(record('running', 3), page([], 1, 3), 3, 65_536)).toEqual({ text: '', position: 3, done: false });
  });

  it.each([
    ['an id we did not issue', -1],
    ['an id in the future', 9],
    ['an id older than the kept log', 2],
  ])('answers %s with a resync snapshot at the newest id', (_name, position) => {
    const chunk = composeChunk(record('running', 8), page([tick(6), tick(7), tick(8)], 6, 8), position, 65_536);
    expect(chunk.position).toBe(8);
    expect(chunk.done).toBe(false);
    expect(chunk.text).toMatch(/^id: 8\nevent: resync\ndata: \{.*"last_event_id":8/);
  });
});
