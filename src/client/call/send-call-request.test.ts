import { describe, expect, it } from 'vitest';
import type { Manifest, Tool } from '../../manifest/manifest-v0.js';
import { jsonResponse, stageCallRuntime, type InjectedHandler } from '../../../test/helpers/injected-guarded-fetch.js';
import { stageManifest } from '../../../test/helpers/stage-manifest.js';
import type { AuditEvent } from '../shapes/client-types.js';
import { createRedactor } from '../policy/create-redactor.js';
import { prepareCall } from './prepare-call.js';
import { sendCallRequest } from './send-call-request.js';

// The seam between a prepared call and the retry loop: what the tool declares (its errors, its
// redirect statuses) and what the call decided (retry safety, deadline) must reach the loop.

function withList(overrides: Record<string, unknown>): Manifest {
  const manifest = stageManifest();
  return { ...manifest, tools: [{ ...manifest.tools[0]!, ...overrides } as Tool, ...manifest.tools.slice(1)] };
}

async function send(manifest: Manifest, handler: InjectedHandler, toolId = 'listPayments', args: Record<string, unknown> = {}) {
  const audits: Omit<AuditEvent, 'timeInMs'>[] = [];
  const { runtime, fetch } = stageCallRuntime(manifest, handler, { retry: { baseDelayInMs: 1, maxDelayInMs: 1 } }, { emitAudit: (event) => audits.push(event), isAuditing: () => true });
  const prepared = await prepareCall(runtime, { toolId, args, callOptions: {}, redactor: createRedactor(), startedInMs: Date.now(), kind: 'any' });
  const outcome = await sendCallRequest(runtime, prepared, prepared.firstRequest!, undefined);
  return { outcome, fetch, audits };
}

describe('sendCallRequest', () => {
  it("maps a status to the tool's declared error, with its context as the user message", async () => {
    const { outcome } = await send(withList({ errors: { rate_limited: { status: 429, retry_strategy: 'none', context: 'Slow down.' } } }), () => jsonResponse(429, {}));
    expect(outcome.error).toMatchObject({ code: 'rate_limited', declared: true, userMessage: 'Slow down.' });
  });

  it('answers with a redirect status the tool declares instead of failing on it', async () => {
    const { outcome } = await send(withList({ returns: { type: 'object', redirect_statuses: [303] } }), () => new Response(null, { status: 303, headers: { location: '/v1/exports/1' } }));
    expect(outcome).toMatchObject({ ok: true, status: 303 });
    expect(outcome.headers?.get('location')).toBe('/v1/exports/1');
  });

  it('fails on the same redirect status when the tool does not declare it', async () => {
    const { outcome } = await send(stageManifest(), () => new Response(null, { status: 303, headers: { location: '/elsewhere' } }));
    expect(outcome.ok).toBe(false);
  });

  it('retries a read, never a call prepared as unsafe to repeat (DELETE declared not idempotent)', async () => {
    const read = await send(stageManifest(), () => jsonResponse(503, {}));
    expect(read.fetch.sent).toHaveLength(3);
    const unsafe = await send(stageManifest(), () => jsonResponse(503, {}), 'deletePayment', { id: 'p1' });
    expect(unsafe.fetch.sent).toHaveLength(1);
    expect(unsafe.outcome.error?.message).toMatch(/Not retried: .*DELETE/);
  });

  it('audits each attempt with the prepared (redacted) arguments when someone listens', async () => {
    const { audits } = await send(stageManifest(), () => jsonResponse(200, { data: [], next: null }), 'listPayments', { limit: 2 });
    expect(audits).toMatchObject([{ type: 'call.attempt', toolId: 'listPayments', attempt: 1, status: 200, arguments: { limit: 2 } }]);
  });
});
