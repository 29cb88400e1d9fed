import { describe, expect, it } from 'vitest';
import type { Manifest } from '../../manifest/manifest-v0.js';
import { jsonResponse, stageCallRuntime, type InjectedHandler } from '../../../test/helpers/injected-guarded-fetch.js';
import { stageManifest } from '../../../test/helpers/stage-manifest.js';
import { errorOf } from '../../../test/helpers/error-of.js';
import type { AuditEvent } from '../shapes/client-types.js';
import type { ClientCallOptions } from './client-call-options.js';
import { followUpEnvelope, sendFollowUp, type FollowUpRequest } from './send-follow-up.js';

// A job's follow-ups (status, result, answer, cancel) over an injected fetch: the tool's origin only,
// its credentials, the agent id, one redacted audit event; the envelope variant retries GET only.

const MANIFEST_URL = 'https://api.example.test/.well-known/ai-capabilities';
const STATUS_URL = 'https://api.example.test/v1/jobs/j1';

function manifest(): Manifest {
  return {
    ...stageManifest(),
    auth: { type: 'bearer', agent_identification: { requires_agent_id: true, id_header: 'X-Agent' } },
    policy: { redact_from_logs: ['account_number'] },
  } as Manifest;
}

function stage(handler: InjectedHandler, options: ClientCallOptions = {}) {
  const audits: Omit<AuditEvent, 'timeInMs'>[] = [];
  const { runtime, fetch } = stageCallRuntime(
    manifest(),
    handler,
    { agentId: 'support-bot', retry: { baseDelayInMs: 1, maxDelayInMs: 1, limit: 2 }, ...options },
    {
      credentials: new Map([[MANIFEST_URL, { token: 'tok-secret' }]]),
      emitAudit: (event) => audits.push(event),
    },
  );
  return { runtime, fetch, audits };
}

const status = (request: Partial<FollowUpRequest> = {}): FollowUpRequest => ({ method: 'GET', url: STATUS_URL, ...request });

describe('sendFollowUp', () => {
  it('sends with the tool credential, the agent id and the caller headers, and returns the raw response', async () => {
    const { runtime, fetch } = stage(() => new Response('event: status\n\n', { headers: { 'content-type': 'text/event-stream' } }));
    const response = await sendFollowUp(runtime, 'listPayments', status({ headers: { Accept: 'text/event-stream', 'Last-Event-ID': '7' } }));
    expect(await response.text()).toBe('event: status\n\n');
    expect(fetch.sent).toHaveLength(1);
    const sent = fetch.sent[0]!;
    expect(sent).toMatchObject({ method: 'GET', url: STATUS_URL, body: undefined });
    expect(Object.fromEntries(sent.headers)).toEqual({ accept: 'text/event-stream', 'last-event-id': '7', 'x-agent': 'support-bot', authorization: 'Bearer tok-secret' });
  });

  it.each([
    ['another host', 'https://evil.example.test/v1/jobs/j1'],
    ['another scheme', 'http://api.example.test/v1/jobs/j1'],
    ['another port', 'https://api.example.test:8443/v1/jobs/j1'],
    ['a look-alike with userinfo', 'https://api.example.test@evil.example.test/v1/jobs/j1'],
  ])('refuses a follow-up to %s with ORIGIN_MISMATCH, before any credential is looked up or anything sent', async (_case, url) => {
    const { runtime, fetch, audits } = stage(() => jsonResponse(200, {}));
    let looked = 0;
    runtime.authenticator = { authenticate: async () => (looked++, { secrets: [], refreshable: false }), staticSecrets: () => ['tok-secret'] };
    const error = await errorOf(sendFollowUp(runtime, 'listPayments', status({ url: `${url}?access_token=leak` })));
    expect(error.code).toBe('ORIGIN_MISMATCH');
    expect(error.message).toContain("not the tool's origin https://api.example.test");
    expect(error.message).toContain('nothing was sent');
    expect(error.message).not.toContain('leak');
    expect(fetch.sent).toEqual([]);
    expect(looked).toBe(0);
    expect(audits).toEqual([]);
  });

  it('refuses a follow-up of a service that requires an agent id when none is set, naming the option', async () => {
    const { runtime, fetch } = stage(() => jsonResponse(200, {}), { agentId: undefined } as unknown as ClientCallOptions);
    const error = await errorOf(sendFollowUp(runtime, 'listPayments', status()));
    expect(error).toMatchObject({ code: 'INVALID_OPTION' });
    expect(error.message).toContain('agentId');
    expect(fetch.sent).toEqual([]);
  });

  it('asks the authenticator for a new token when forceRefresh is set', async () => {
    const { runtime } = stage(() => jsonResponse(200, {}));
    const contexts: unknown[] = [];
    runtime.authenticator = { authenticate: async (_request, context) => (contexts.push(context), { secrets: [], refreshable: true }), staticSecrets: () => [] };
    await sendFollowUp(runtime, 'listPayments', status({ forceRefresh: true }));
    await sendFollowUp(runtime, 'listPayments', status());
    expect(contexts).toMatchObject([{ forceRefresh: true }, { forceRefresh: false }]);
  });

  it('audits one call.attempt whose URL carries neither a credential-looking query value nor a redact_from_logs value', async () => {
    const { runtime, audits } = stage(() => jsonResponse(200, {}));
    await sendFollowUp(runtime, 'listPayments', status({ url: `${STATUS_URL}?account_number=12345678&access_token=abcdef&page=2&account_number=87654321&__proto__=x` }));
    expect(audits).toHaveLength(1);
    expect(audits[0]).toMatchObject({ type: 'call.attempt', toolId: 'listPayments', origin: 'https://api.example.test', method: 'GET', detail: 'follow-up' });
    expect(audits[0]?.url).toContain('page=2');
    expect(audits[0]?.url).not.toMatch(/12345678|87654321|abcdef/);
  });

  it('sends a POST body as given, and passes the signal on', async () => {
    let seenSignal: AbortSignal | undefined;
    const { runtime, fetch } = stage(() => jsonResponse(202, {}));
    runtime.dependencies.fetch = Object.assign(async (input: string | URL, init?: RequestInit) => ((seenSignal = init?.signal ?? undefined), fetch(input, init)), fetch);
    const controller = new AbortController();
    await sendFollowUp(runtime, 'listPayments', { method: 'POST', url: `${STATUS_URL}/cancel`, body: '{"reason":"user"}', headers: { 'content-type': 'application/json' }, signal: controller.signal });
    expect(fetch.sent[0]).toMatchObject({ method: 'POST', body: '{"reason":"user"}' });
    expect(seenSignal).toBe(controller.signal);
  });
});

describe('followUpEnvelope', () => {
  it('reads the answer into an envelope like a call’s, a credential echoed by the server redacted from data and text', async () => {
    const { runtime } = stage(() => jsonResponse(200, { state: 'done', echo: 'Bearer tok-secret' }));
    const envelope = await followUpEnvelope(runtime, 'listPayments', status());
    expect(envelope).toMatchObject({ ok: true, status: 200, data: { state: 'done', echo: 'Bearer [REDACTED]' }, meta: { toolId: 'listPayments', attempts: 1 } });
    expect(envelope.text).toContain('<untrusted-data');
    expect(envelope.text).not.toContain('tok-secret');
  });

  it('retries a GET status read on 503, and never repeats a POST', async () => {
    const get = stage((_request, index) => (index === 0 ? jsonResponse(503, {}) : jsonResponse(200, { state: 'running' })));
    expect(await followUpEnvelope(get.runtime, 'listPayments', status())).toMatchObject({ ok: true, meta: { attempts: 2 } });
    const post = stage(() => jsonResponse(503, {}));
    const envelope = await followUpEnvelope(post.runtime, 'listPayments', { method: 'POST', url: `${STATUS_URL}/answer`, body: '{}' });
    expect(post.fetch.sent).toHaveLength(1);
    expect(envelope).toMatchObject({ ok: false, status: 503, error: { code: 'HTTP_ERROR' } });
    expect(envelope.error?.message).toContain('Not retried: a POST follow-up is not idempotent.');
  });

  it('fails a malformed JSON answer as a failure or as text, never as an empty success', async () => {
    const { runtime } = stage(() => new Response('{"state": "do', { status: 200, headers: { 'content-type': 'application/json' } }));
    const envelope = await followUpEnvelope(runtime, 'listPayments', status());
    expect(envelope.data === undefined && envelope.ok).toBe(false);
    expect(envelope.text).toContain('{"state": "do');
  });

  it('keeps a redact_from_logs value of the URL out of the failure message', async () => {
    const { runtime } = stage(() => jsonResponse(404, {}), { retry: { limit: 0 } });
    const envelope = await followUpEnvelope(runtime, 'listPayments', status({ url: `${STATUS_URL}?account_number=12345678` }));
    expect(envelope.error?.message).toContain(`GET ${STATUS_URL}?account_number=[REDACTED]`);
  });

  it('refuses another origin like sendFollowUp, as a thrown ORIGIN_MISMATCH with nothing sent', async () => {
    const { runtime, fetch } = stage(() => jsonResponse(200, {}));
    expect((await errorOf(followUpEnvelope(runtime, 'listPayments', status({ url: 'https://evil.example.test/jobs/j1' })))).code).toBe('ORIGIN_MISMATCH');
    expect(fetch.sent).toEqual([]);
  });
});
