import { afterEach, describe, expect, it } from 'vitest';
import { inspectedManifest, INSPECTED_ORIGIN, writeManifestFile } from '../../test/helpers/inspector-manifest.js';
import { createInspectorSession, type InspectorSession } from './inspector-session.js';

// The session stage with files as its input: loading, the tool panel, selection, scopes, diffs and
// the approval question of a call all run without a socket (a refused approval sends nothing).

const sessions: InspectorSession[] = [];
const removals: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const session of sessions.splice(0)) await session.close();
  for (const remove of removals.splice(0)) await remove();
});

function session(): InspectorSession {
  const created = createInspectorSession({ timeoutInMs: 1_000 });
  sessions.push(created);
  return created;
}

async function file(content: unknown): Promise<string> {
  const written = await writeManifestFile(content);
  removals.push(written.remove);
  return written.path;
}

/** What a session method threw, with the HTTP status the page's API answers with. */
async function failure(action: () => unknown): Promise<{ status: number | undefined; message: string }> {
  try {
    await action();
  } catch (error) {
    return { status: (error as { status?: number }).status, message: (error as Error).message };
  }
  throw new Error('expected the session to refuse');
}

describe('createInspectorSession: before a service is loaded', () => {
  it.each<[string, (loaded: InspectorSession) => unknown]>([
    ['the tool panel', (loaded) => loaded.tool('listPayments')],
    ['a call', (loaded) => loaded.call('listPayments', {}, false)],
    ['a job', (loaded) => loaded.startJob('exportReport', {}, false)],
    ['the selection panel', (loaded) => loaded.select('payments', 3)],
    ['the scopes panel', (loaded) => loaded.scopes(['payments:read'])],
    ['a diff', (loaded) => loaded.diff({ pinned: true })],
  ])('answers %s with 409 and says to load a service first', async (_, action) => {
    const refused = await failure(() => action(session()));
    expect(refused.status).toBe(409);
    expect(refused.message).toMatch(/Load a service the client accepts first/);
  });

  it('has no view yet', () => {
    expect(session().view()).toBeUndefined();
  });

  it('answers 409 after a load the client refused, and keeps the refused view', async () => {
    const loaded = session();
    const view = await loaded.load(await file('{"schema_version":"0.1.0"}'));
    expect(view.refused?.code).toBe('MANIFEST_INVALID');
    expect(loaded.view()).toBe(view);
    expect((await failure(() => loaded.tool('listPayments'))).status).toBe(409);
    expect((await failure(() => loaded.call('listPayments', {}, false))).status).toBe(409);
  });
});

describe('createInspectorSession: a loaded service', () => {
  async function loaded(token?: string): Promise<InspectorSession> {
    const created = session();
    await created.load(await file(inspectedManifest()), token ? { token } : {});
    return created;
  }

  it('describes a tool by id or exposed name, and answers 404 naming a tool it does not have', async () => {
    const inspected = await loaded();
    expect(inspected.tool('listPayments')).toMatchObject({ summary: { id: 'listPayments', readOnly: true }, scopes: ['payments:read'] });
    const missing = await failure(() => inspected.tool('drop "tables"'));
    expect(missing).toEqual({ status: 404, message: 'No tool "drop \\"tables\\"" in the catalog.' });
  });

  it('does not describe a tool the scan withheld from the catalog', async () => {
    expect((await failure(async () => (await loaded()).tool('hijack'))).status).toBe(404);
  });

  it('says which tools the granted scopes unlock', async () => {
    expect((await loaded()).scopes(['payments:read'])).toEqual({ unlocked: ['listPayments', 'hijack'], locked: ['createPayment', 'exportReport'] });
  });

  it('ranks the catalog for a request, with tokens', async () => {
    const ranked = (await (await loaded()).select('create a payment', 2)) as { ranked: Array<{ id: string; tokens: number }>; tokens: { selected: number; all: number } };
    expect(ranked.ranked[0]?.id).toBe('createPayment');
    expect(ranked.ranked.length).toBeLessThanOrEqual(2);
    expect(ranked.tokens.selected).toBeLessThanOrEqual(ranked.tokens.all);
  });

  it('asks before a call that needs approval, showing the URL that would be called, and sends nothing', async () => {
    const answer = await (await loaded()).call('createPayment', { account: 'acc/1', amount: 5 }, false);
    expect(answer).toEqual({
      approvalRequired: {
        toolId: 'createPayment',
        method: 'POST',
        origin: INSPECTED_ORIGIN,
        path: '/payments/{account}',
        url: `${INSPECTED_ORIGIN}/v1/payments/acc%2F1`,
        reason: expect.stringContaining('human_approval_required'),
        arguments: { account: 'acc/1', amount: 5 },
      },
    });
  });

  it('removes the typed credential from the approval question', async () => {
    const secret = 'tok-INSPECTOR-SECRET-4242';
    const answer = (await (await loaded(secret)).call('createPayment', { account: secret, amount: 5 }, false)) as { approvalRequired: { url: string; arguments: unknown } };
    expect(JSON.stringify(answer)).not.toContain(secret);
    expect(answer.approvalRequired.url.startsWith(`${INSPECTED_ORIGIN}/v1/payments/`)).toBe(true);
  });

  it('answers a call to an unknown tool with 404', async () => {
    expect((await failure(async () => (await loaded()).call('nope', {}, false))).status).toBe(404);
  });

  it('diffs against the manifest pinned at the first load, even after the file changed', async () => {
    const inspected = session();
    const path = await file(inspectedManifest());
    await inspected.load(path);
    expect(inspected.diff({ pinned: true }).changes).toEqual([]);
    const changed = inspectedManifest();
    (changed['tools'] as unknown[]).splice(0, 1);
    await inspected.load(await file(changed));
    const diff = inspected.diff({ pinned: true });
    expect(diff.changes.map((change) => [change.kind, change.id, change.change, change.oldPointer, change.classification])).toEqual([['tool', 'listPayments', 'removed', '/tools/0', 'breaking']]);
  });

  it('diffs against a pasted manifest', async () => {
    const other = inspectedManifest();
    (other['tools'] as Array<Record<string, unknown>>)[0]!['description'] = 'Lists payments, oldest first.';
    const diff = (await loaded()).diff({ manifestText: JSON.stringify(other) });
    expect(diff.changes.length).toBeGreaterThan(0);
  });

  it.each([
    ['text that is not JSON', '<html>', /The other manifest is invalid: /],
    ['a manifest without tools', '{"schema_version":"0.1.0","service":{"name":"x","base_url":"https://x.example"}}', /The other manifest is invalid: .+\./],
    ['a __proto__ document', '{"__proto__":{}}', /__proto__/],
  ])('answers a diff against %s with 400 and the first error', async (_, text, message) => {
    const refused = await failure(async () => (await loaded()).diff({ manifestText: text }));
    expect(refused.status).toBe(400);
    expect(refused.message).toMatch(message);
  });
});
