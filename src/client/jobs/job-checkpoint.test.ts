import { describe, expect, it } from 'vitest';
import { stageManifest } from '../../../test/helpers/stage-manifest.js';
import { stageService } from '../../../test/helpers/injected-guarded-fetch.js';
import { freshJobState } from '../../../test/helpers/job-attempt-context.js';
import type { Tool } from '../../manifest/manifest-v0.js';
import { checkpointKey, checkpointOf, isCheckpoint } from './job-checkpoint.js';
import type { JobNeedsInputEvent } from './job-event.js';
import type { JobLocation } from './job-paths.js';

const valid = { version: 1, toolId: 'export', origin: 'https://api.example.test', jobId: 'j1', lastEventId: '7', status: 'running', terminal: false, percent: 40, pendingInput: undefined };

describe('checkpointKey', () => {
  it('keys by origin, tool and job, each percent-encoded', () => {
    expect(checkpointKey({ origin: 'https://api.example.test', toolId: 'export', jobId: 'j/1' })).toBe('aicap:job:https%3A%2F%2Fapi.example.test/export/j%2F1');
  });

  it.each([
    [
      { origin: 'https://a.test', toolId: 'x', jobId: '1' },
      { origin: 'https://b.test', toolId: 'x', jobId: '1' },
    ],
    [
      { origin: 'https://a.test', toolId: 'x/y', jobId: '1' },
      { origin: 'https://a.test', toolId: 'x', jobId: 'y/1' },
    ],
    [
      { origin: 'https://a.test/x', toolId: 'y', jobId: '1' },
      { origin: 'https://a.test', toolId: 'x/y', jobId: '1' },
    ],
  ])('never gives two jobs the same key: %o and %o', (left, right) => {
    expect(checkpointKey(left)).not.toBe(checkpointKey(right));
  });
});

describe('isCheckpoint', () => {
  it('accepts a checkpoint as job.checkpoint() returns it, and after a JSON round trip through a store', () => {
    expect(isCheckpoint(valid)).toBe(true);
    expect(isCheckpoint(JSON.parse(JSON.stringify({ ...valid, lastEventId: undefined, pathArguments: { account_id: 'acc_1' } })))).toBe(true);
  });

  it.each([
    ['null', null],
    ['an array', [valid]],
    ['a string', JSON.stringify(valid)],
    ['another version', { ...valid, version: 2 }],
    ['no tool id', { ...valid, toolId: undefined }],
    ['a numeric job id', { ...valid, jobId: 1 }],
    ['an origin that is not a string', { ...valid, origin: { href: 'https://api.example.test' } }],
    ['a numeric last event id', { ...valid, lastEventId: 7 }],
    ['a null status', { ...valid, status: null }],
    ['terminal as a string', { ...valid, terminal: 'false' }],
    ['a percent that is not a number', { ...valid, percent: '40%' }],
    ['path arguments that are not strings', { ...valid, pathArguments: { account_id: 1 } }],
    ['path arguments as an array', { ...valid, pathArguments: ['acc_1'] }],
  ])('refuses %s (a damaged or foreign record in a shared store)', (_case, value) => {
    expect(isCheckpoint(value)).toBe(false);
  });
});

describe('checkpointOf', () => {
  const manifest = stageManifest();
  const location = (pathArguments: Record<string, string>): JobLocation => ({
    resolved: { service: stageService(manifest), tool: manifest.tools[0] as Tool, exposedName: 'listPayments' },
    jobId: 'j1',
    pathArguments,
  });

  it('records what resuming needs, and passes its own guard', () => {
    const question = { type: 'needs_input', data: { prompt: 'Approve?' } } as JobNeedsInputEvent;
    const checkpoint = checkpointOf(location({ account_id: 'acc_1' }), freshJobState({ status: 'needs_input', lastEventId: '3', percent: 10, pendingInput: question }));
    expect(checkpoint).toEqual({
      version: 1,
      toolId: 'listPayments',
      origin: 'https://api.example.test',
      jobId: 'j1',
      lastEventId: '3',
      status: 'needs_input',
      terminal: false,
      percent: 10,
      pendingInput: { prompt: 'Approve?' },
      pathArguments: { account_id: 'acc_1' },
    });
    expect(isCheckpoint(checkpoint)).toBe(true);
  });

  it('leaves pathArguments out when the tool path has none, and copies them otherwise', () => {
    expect(checkpointOf(location({}), freshJobState())).not.toHaveProperty('pathArguments');
    const given = { account_id: 'acc_1' };
    const checkpoint = checkpointOf(location(given), freshJobState());
    given.account_id = 'changed';
    expect(checkpoint.pathArguments).toEqual({ account_id: 'acc_1' });
  });
});
