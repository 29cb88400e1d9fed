import { describe, expect, it } from 'vitest';
import { createCheckpointWriter } from './create-checkpoint-writer.js';
import { checkpointKey } from './job-checkpoint.js';
import type { JobCheckpoint } from './job.js';

const checkpoint = (status: string): JobCheckpoint => ({
  version: 1,
  toolId: 'createReport',
  origin: 'https://api.example.test',
  jobId: 'j1',
  lastEventId: undefined,
  status,
  terminal: false,
  percent: undefined,
  pendingInput: undefined,
});

describe('createCheckpointWriter', () => {
  it('writes in the order saved even when an earlier write is slower, so the last checkpoint wins', async () => {
    const stored = new Map<string, unknown>();
    const written: string[] = [];
    let first = true;
    const writer = createCheckpointWriter({
      sessionStore: {
        async set(key, value) {
          const status = (value as JobCheckpoint).status!;
          // The first write resolves after the second was queued: a queue in order still ends with the second.
          if (first) {
            first = false;
            await new Promise((resolve) => setImmediate(resolve));
          }
          written.push(status);
          stored.set(key, value);
        },
      },
      timeToLiveInMs: 1_000,
      onFailure: () => expect.unreachable(),
    });
    writer.save(checkpoint('running'));
    writer.save(checkpoint('completed'));
    await writer.settled();
    expect(written).toEqual(['running', 'completed']);
    expect((stored.get(checkpointKey(checkpoint('x'))) as JobCheckpoint).status).toBe('completed');
  });

  it('reports a failed write and still makes the next one, with the time to live given', async () => {
    const failures: unknown[] = [];
    const calls: [string, number | undefined][] = [];
    const writer = createCheckpointWriter({
      sessionStore: {
        set(_key, value, timeToLiveInMs) {
          calls.push([(value as JobCheckpoint).status!, timeToLiveInMs]);
          if ((value as JobCheckpoint).status === 'running') throw new Error('store down');
        },
      },
      timeToLiveInMs: 60_000,
      onFailure: (error) => failures.push(error),
    });
    writer.save(checkpoint('running'));
    writer.save(checkpoint('completed'));
    await writer.settled();
    expect(calls).toEqual([
      ['running', 60_000],
      ['completed', 60_000],
    ]);
    expect(failures).toHaveLength(1);
    expect(String(failures[0])).toContain('store down');
  });
});
