import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { AICAP_VERSION } from './aicap-version.js';

describe('AICAP_VERSION', () => {
  it('is the version in package.json (bump both together)', () => {
    const manifest = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
    expect(AICAP_VERSION).toBe(manifest.version);
  });
});
