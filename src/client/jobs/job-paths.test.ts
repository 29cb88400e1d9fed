import { describe, expect, it } from 'vitest';
import type { ResolvedTool } from '../shapes/client-types.js';
import { checkJobId, jobIdFromBody, jobIdFromLocation, jobIdPlaceholder, pathArgumentsOf, resolveJobPath } from './job-paths.js';

function resolved(temporal: Record<string, unknown>, baseUrl = 'https://api.example.com/v1'): ResolvedTool {
  return {
    tool: {
      id: 'export',
      description: 'Exports',
      method: 'POST',
      path: '/accounts/{account_id}/exports',
      temporal_behavior: { pattern: 'async_job', status_response_type: 'json', terminal_states: ['completed'], status_endpoint: '/accounts/{account_id}/jobs/{job_id}', ...temporal },
    },
    service: { manifest: { service: { base_url: baseUrl } }, origin: new URL(baseUrl).origin },
  } as unknown as ResolvedTool;
}

describe('job paths', () => {
  it('reads a dotted job_id_field; its last segment is the placeholder', () => {
    const tool = resolved({ job_id_field: 'job.id', status_endpoint: '/jobs/{id}' });
    expect(jobIdFromBody(tool, { job: { id: 7 } })).toBe('7');
    expect(jobIdFromBody(tool, { 'job.id': 'x' })).toBeUndefined();
    expect(jobIdPlaceholder(tool)).toBe('{id}');
  });

  it('fills the job id and the tool path placeholders, percent-encoded, under base_url', () => {
    const tool = resolved({});
    const pathArguments = pathArgumentsOf(tool, { account_id: 'a/1', other: 'x' });
    expect(pathArguments).toEqual({ account_id: 'a/1' });
    expect(resolveJobPath({ resolved: tool, jobId: 'j 1', pathArguments }, '/accounts/{account_id}/jobs/{job_id}')).toBe('https://api.example.com/v1/accounts/a%2F1/jobs/j%201');
    expect(() => resolveJobPath({ resolved: tool, jobId: 'j', pathArguments: {} }, '/accounts/{account_id}/jobs/{job_id}')).toThrow(/placeholder \{account_id\}/);
  });

  it('compares against base_url as the URL parser spells it', () => {
    const tool = resolved({}, 'HTTPS://API.example.com/v1');
    expect(resolveJobPath({ resolved: tool, jobId: 'j', pathArguments: { account_id: 'a' } }, '/accounts/{account_id}/jobs/{job_id}')).toBe('https://api.example.com/v1/accounts/a/jobs/j');
  });

  it('reads the job id from a Location at the status endpoint only, and types a broken encoding', () => {
    const tool = resolved({});
    expect(jobIdFromLocation('/v1/accounts/a/jobs/j%207', tool, { account_id: 'a' })).toBe('j 7');
    expect(jobIdFromLocation('/v1/accounts/b/jobs/j7', tool, { account_id: 'a' })).toBeUndefined();
    expect(jobIdFromLocation('https://evil.example/v1/accounts/a/jobs/j7', tool, { account_id: 'a' })).toBeUndefined();
    expect(() => jobIdFromLocation('/v1/accounts/a/jobs/%E0%A4%A', tool, { account_id: 'a' })).toThrow(expect.objectContaining({ reason: 'protocol' }));
  });

  it('refuses job ids that cannot stay one path segment', () => {
    for (const id of ['', '.', '..', 'x'.repeat(257)]) expect(() => checkJobId(id, 'export')).toThrow(expect.objectContaining({ reason: 'protocol' }));
    expect(checkJobId('j-1', 'export')).toBe('j-1');
  });
});
