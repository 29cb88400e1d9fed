import { describe, expect, it } from 'vitest';
import { AicapError } from '../../errors/aicap-error.js';
import { DiscoveryError } from './discovery-error.js';

describe('DiscoveryError', () => {
  it('lists every URL tried with why, and says what to do', () => {
    const attempts = [
      { url: 'https://api.example.test/.well-known/ai-capabilities', reason: 'status 404' },
      { url: 'https://api.example.test/', reason: 'no Link header with rel="ai-capabilities"' },
    ];
    const cause = new Error('last failure');
    const error = new DiscoveryError({ target: 'https://api.example.test', attempts, cause });
    expect(AicapError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ name: 'DiscoveryError', code: 'DISCOVERY_FAILED', attempts, cause });
    expect(error.message).toBe(
      'No AI capabilities manifest found for https://api.example.test (https://api.example.test/.well-known/ai-capabilities: status 404; https://api.example.test/: no Link header with rel="ai-capabilities"). Serve one at /.well-known/ai-capabilities, or pass the manifest URL itself.',
    );
  });

  it('says when nothing was tried', () => {
    expect(new DiscoveryError({ target: 'https://api.example.test', attempts: [] }).message).toContain('(nothing tried)');
  });
});
