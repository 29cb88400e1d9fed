/**
 * Job endpoints as the spec allows them: a dotted `job_id_field`, tool path placeholders in the
 * status and result endpoints (also after a resume from a checkpoint), and a malformed `Location`
 * as a typed error rather than a crash.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMemorySessionStore, type Client } from '../../src/client/index.js';
import type { Tool } from '../../src/manifest/manifest-v0.js';
import { json, startClientTestServer, type ClientTestServer } from '../helpers/client-test-server.js';
import { callManifest, discoverCallService } from '../helpers/call-service.js';

const tools: Tool[] = [
  {
    id: 'export_rows',
    path: '/accounts/{account_id}/exports',
    method: 'POST',
    description: 'Exports the rows of an account',
    parameters: { account_id: { type: 'string', required: true } },
    temporal_behavior: {
      pattern: 'async_job',
      status_endpoint: '/accounts/{account_id}/jobs/{id}',
      result_endpoint: '/accounts/{account_id}/jobs/{id}/result',
      status_response_type: 'json',
      terminal_states: ['completed', 'failed'],
      job_id_field: 'job.id',
      reconnection: { fallback_poll_interval_seconds: 0.01 },
    },
  },
  {
    id: 'rebuild',
    path: '/rebuild',
    method: 'POST',
    description: 'Rebuilds the index',
    temporal_behavior: { pattern: 'async_job', status_endpoint: '/jobs/{job_id}', status_response_type: 'json', terminal_states: ['completed'] },
  },
];

describe('job paths', () => {
  let server: ClientTestServer;
  let client: Client;
  const store = createMemorySessionStore();
  beforeAll(async () => {
    server = await startClientTestServer();
    server.routes.set('/api/accounts/acc%201/exports', json({ job: { id: 'j7' }, status: 'running' }, {}, 202));
    server.routes.set('/api/accounts/acc%201/jobs/j7', json({ status: 'completed' }));
    server.routes.set('/api/accounts/acc%201/jobs/j7/result', json({ rows: 3 }));
    server.routes.set('/api/rebuild', json({ accepted: true }, { location: '/api/jobs/%E0%A4%A' }, 202));
    client = await discoverCallService(server, callManifest(server.origin, tools), { session: { store }, jobs: { follow: { minPollIntervalInMs: 5 } } });
  });
  afterAll(async () => {
    await client.close();
    await server.close();
  });

  it('reads a dotted job_id_field and fills the tool path placeholders of the job endpoints', async () => {
    const job = await client.startJob('export_rows', { account_id: 'acc 1' });
    expect(job.id).toBe('j7');
    await expect(job.finished()).resolves.toMatchObject({ status: 'completed', terminal: true });
    const result = await job.result();
    expect(result).toMatchObject({ ok: true, data: { rows: 3 } });
    expect(server.requests.map((request) => request.path)).toEqual(expect.arrayContaining(['/api/accounts/acc%201/jobs/j7', '/api/accounts/acc%201/jobs/j7/result']));
    expect(job.checkpoint().pathArguments).toEqual({ account_id: 'acc 1' });
  });

  it('keeps the path arguments across a resume from the checkpoint', async () => {
    const job = await client.startJob('export_rows', { account_id: 'acc 1' });
    const resumed = await client.resumeJob(job.checkpoint());
    await expect(resumed.finished()).resolves.toMatchObject({ status: 'completed' });
    expect((await resumed.result()).data).toEqual({ rows: 3 });
  });

  it('turns a Location with broken percent-encoding into JobError protocol', async () => {
    await expect(client.startJob('rebuild', {})).rejects.toMatchObject({ code: 'JOB_FAILED', reason: 'protocol', message: expect.stringContaining('not valid percent-encoding') });
  });
});
