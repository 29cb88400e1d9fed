import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { injectedGuardedFetch, jsonResponse, stageDependencies } from '../../../test/helpers/injected-guarded-fetch.js';
import { stageManifest } from '../../../test/helpers/stage-manifest.js';
import { resolveCallRuntime, type CallRuntime } from './call-runtime.js';

// The `@default` each call option documents (what a user reads in their editor) is the value the
// client applies: read from this module's TSDoc and compared with the resolved runtime.

const source = readFileSync(new URL('./client-call-options.ts', import.meta.url), 'utf8');

/** `@default` text by `Interface.field`, from the TSDoc blocks of the module. */
function documentedDefaults(): Map<string, string> {
  const defaults = new Map<string, string>();
  for (const [, name, body] of source.matchAll(/export interface (\w+) \{([\s\S]*?)\n\}/g)) {
    for (const [, value, field] of body!.matchAll(/@default ([^\n]+)\n\s*\*\/\n\s*(\w+)\?:/g)) defaults.set(`${name}.${field}`, value!.trim());
  }
  return defaults;
}

/** The leading number of a `@default` (`1_048_576 (1 MiB)` → 1048576). */
function leadingNumber(text: string): number {
  const match = /^[\d_]+/.exec(text);
  if (match === null) throw new Error(`"${text}" does not start with a number`);
  return Number(match[0].replaceAll('_', ''));
}

const runtime = resolveCallRuntime(
  {},
  stageDependencies(
    stageManifest(),
    injectedGuardedFetch(() => jsonResponse(200, {})),
  ),
);

describe('client call options: documented defaults', () => {
  const defaults = documentedDefaults();

  it('finds the TSDoc of every option group', () => {
    for (const group of ['RetryOptions', 'SessionOptions', 'ResponseOptions', 'PaginationOptions', 'ClientCallOptions', 'CallOptions']) {
      expect(
        [...defaults.keys()].some((key) => key.startsWith(`${group}.`)),
        group,
      ).toBe(true);
    }
  });

  it.each<[string, (resolved: CallRuntime) => number]>([
    ['RetryOptions.limit', (resolved) => resolved.retry.limit],
    ['RetryOptions.baseDelayInMs', (resolved) => resolved.retry.baseDelayInMs],
    ['RetryOptions.maxDelayInMs', (resolved) => resolved.retry.maxDelayInMs],
    ['RetryOptions.maxRetryAfterInMs', (resolved) => resolved.retry.maxRetryAfterInMs],
    ['RetryOptions.totalTimeoutInMs', (resolved) => resolved.retry.totalTimeoutInMs],
    ['ResponseOptions.maxSizeInBytes', (resolved) => resolved.maxResponseSizeInBytes],
    ['ResponseOptions.maxTextLength', (resolved) => resolved.maxTextLength],
    ['PaginationOptions.maxPages', (resolved) => resolved.maxPages],
    ['PaginationOptions.maxTimeInMs', (resolved) => resolved.maxWalkTimeInMs],
    ['PaginationOptions.maxItems', (resolved) => resolved.defaultMaxItems],
  ])('%s is applied as documented', (key, applied) => {
    const documented = defaults.get(key);
    expect(documented, `no @default for ${key}`).toBeDefined();
    expect(applied(runtime)).toBe(leadingNumber(documented!));
  });

  it('documents the retried statuses that are applied', () => {
    expect(JSON.parse(defaults.get('RetryOptions.statusCodes')!)).toEqual([...runtime.retry.statusCodes]);
  });

  it('documents the ClientCallOptions defaults that are not numbers as what the client does', () => {
    expect(defaults.get('ClientCallOptions.agentId')).toBe('undefined');
    expect(runtime.agentId).toBeUndefined();
    expect(defaults.get('ClientCallOptions.approve')).toMatch(/refused/);
    expect(runtime.approve).toBeUndefined();
    expect(defaults.get('CallOptions.allPages')).toBe('false');
    expect(defaults.get('CallOptions.nullMeansAbsent')).toBe('false');
  });
});
