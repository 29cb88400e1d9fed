/**
 * What is approved is what is sent, and what is refused costs nothing: arguments are copied and
 * frozen before validation and approval, a multi-page walk of a consequential tool is approved and
 * counted per request, a call refused for its arguments spends no budget, and strict-mode `null`s
 * for optional fields are dropped only when the caller says the arguments come from a strict export.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Client, ClientOptions } from '../../src/client/index.js';
import type { Tool } from '../../src/manifest/manifest-v0.js';
import { json, startClientTestServer, type ClientTestServer } from '../helpers/client-test-server.js';
import { callManifest, discoverCallService } from '../helpers/call-service.js';

const tools: Tool[] = [
  {
    id: 'transfer',
    path: '/transfer',
    method: 'POST',
    description: 'Moves money',
    parameters: { amount: { type: 'integer', required: true, json_schema: { type: 'integer', maximum: 100 } }, to: { type: 'string', required: true } },
  },
  {
    id: 'list_payouts',
    path: '/payouts',
    method: 'POST',
    description: 'Lists payouts (a POST search)',
    parameters: { to: { type: 'string' }, cursor: { type: 'string' } },
    returns: { type: 'array', pagination: { style: 'cursor', parameter: 'cursor', next_field: 'next', items_field: 'data' } },
  },
  { id: 'file', path: '/files/{name}', method: 'GET', description: 'Reads a file', parameters: { name: { type: 'string', required: true } } },
  {
    id: 'search',
    path: '/search',
    method: 'GET',
    description: 'Searches',
    parameters: {
      q: { type: 'string', required: true },
      cursor: { type: 'string' },
      note: { type: 'string', json_schema: { type: ['string', 'null'] } },
      filter: { type: 'object', json_schema: { type: 'object', properties: { status: { type: 'string' }, since: { type: 'string' } }, required: ['status'], additionalProperties: false } },
    },
  },
];

describe('call arguments and budgets', () => {
  let server: ClientTestServer;
  const clients: Client[] = [];
  beforeAll(async () => {
    server = await startClientTestServer();
    server.routes.set('/api/transfer', json({ ok: true }));
    server.routes.set('/api/files/a.txt', json({ name: 'a.txt' }));
    server.routes.set('/api/search', json({ results: [] }));
    server.routes.set('/api/payouts', (request, response, body) => {
      const cursor = (JSON.parse(body || '{}') as { cursor?: string }).cursor;
      const page = Number(cursor ?? 0);
      json({ data: [{ id: `p${page}` }], next: page < 4 ? String(page + 1) : null })(request, response, body);
    });
  });
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((client) => client.close()));
    server.requests.length = 0;
  });
  afterAll(() => server.close());
  const open = async (options: ClientOptions, budget?: number): Promise<Client> => {
    const client = await discoverCallService(
      server,
      callManifest(server.origin, tools, { policy: { human_approval_required: ['transfer'], ...(budget === undefined ? {} : { max_actions_per_session: budget }) } }),
      options,
    );
    clients.push(client);
    return client;
  };

  it('sends exactly the approved arguments, even when the caller edits its object during approval', async () => {
    const args: Record<string, unknown> = { amount: 5, to: 'friend' };
    const client = await open({
      approve: (request) => {
        // An approval UI (or concurrent code) changing the caller's object after the human saw it.
        args['amount'] = 1_000_000;
        args['to'] = 'attacker';
        expect(Object.isFrozen(request.arguments)).toBe(true);
        expect(() => {
          (request.arguments as Record<string, unknown>)['to'] = 'attacker';
        }).toThrow(TypeError);
        return true;
      },
    });
    const result = await client.call('transfer', args);
    expect(result.ok).toBe(true);
    expect(server.hits('/api/transfer').map((request) => JSON.parse(request.body))).toEqual([{ amount: 5, to: 'friend' }]);
  });

  it('refuses arguments that are not JSON data with INVALID_ARGUMENTS, sending nothing', async () => {
    const client = await open({ approve: () => true });
    const result = await client.call('transfer', { amount: 5, to: 'friend', callback: () => 'x' } as Record<string, unknown>);
    expect(result.error).toMatchObject({ code: 'INVALID_ARGUMENTS' });
    expect(server.hits('/api/transfer')).toHaveLength(0);
  });

  it('asks approval and spends budget for every page of a consequential allPages walk', async () => {
    const asked: unknown[] = [];
    const client = await open({ approve: (request) => (asked.push(request.arguments), true), policy: { requireApprovalForConsequential: true } }, 3);
    const result = await client.call('list_payouts', { to: 'acct-1' }, { allPages: true });
    // Three actions allowed: three POSTs, each approved; the fourth page is refused before sending, resumable.
    expect(server.hits('/api/payouts')).toHaveLength(3);
    expect(asked).toEqual([{ to: 'acct-1' }, { to: 'acct-1', cursor: '1' }, { to: 'acct-1', cursor: '2' }, { to: 'acct-1', cursor: '3' }]);
    expect(result.items).toEqual([{ id: 'p0' }, { id: 'p1' }, { id: 'p2' }]);
    expect(result.ok).toBe(false);
    expect(result.error).toMatchObject({ code: 'BUDGET_EXCEEDED' });
    expect(result.page).toEqual({ next: '3', complete: false, stopReason: 'error' });
  });

  it('spends no budget on calls refused for their arguments before sending', async () => {
    const client = await open({ approve: () => true }, 2);
    expect((await client.call('file', { name: '..' })).error).toMatchObject({ code: 'INVALID_ARGUMENTS' });
    expect((await client.call('transfer', { amount: 500, to: 'friend' })).error).toMatchObject({ code: 'INVALID_ARGUMENTS' });
    expect((await client.call('file', { name: 'a.txt' })).ok).toBe(true);
    expect((await client.call('file', { name: 'a.txt' })).ok).toBe(true);
    expect((await client.call('file', { name: 'a.txt' })).error).toMatchObject({ code: 'BUDGET_EXCEEDED' });
  });

  describe('nullMeansAbsent', () => {
    const strictArgs = { q: 'shoes', cursor: null, note: null, filter: { status: 'open', since: null } };

    it('refuses strict-mode nulls by default, naming the field', async () => {
      const client = await open({});
      const result = await client.call('search', strictArgs);
      expect(result.error).toMatchObject({ code: 'INVALID_ARGUMENTS' });
      expect(result.error?.problems?.map((problem) => problem.pointer)).toEqual(expect.arrayContaining(['/cursor', '/filter/since']));
      expect(server.hits('/api/search')).toHaveLength(0);
    });

    it('drops nulls of optional fields (any depth) and keeps a null the schema allows', async () => {
      const client = await open({});
      const result = await client.call('search', strictArgs, { nullMeansAbsent: true });
      expect(result.ok).toBe(true);
      const [request] = server.requests.filter((seen) => seen.path.startsWith('/api/search'));
      const query = new URL(request?.path ?? '/', server.origin).searchParams;
      expect(query.get('q')).toBe('shoes');
      expect(query.has('cursor')).toBe(false);
      expect(query.get('note')).toBe('null');
      // An object in the query travels as OpenAPI's default (form, exploded): one pair per member.
      expect(query.get('status')).toBe('open');
      expect(query.has('since')).toBe(false);
    });

    it('keeps a null for a required field, so it is still refused', async () => {
      const client = await open({});
      const result = await client.call('search', { q: null }, { nullMeansAbsent: true });
      expect(result.error?.problems?.map((problem) => problem.pointer)).toEqual(['/q']);
    });
  });
});

describe('redaction of response data', () => {
  let server: ClientTestServer;
  let client: Client;
  beforeAll(async () => {
    server = await startClientTestServer();
    server.routes.set('/api/search', (request, response) => json({ echo: request.headers.authorization, query: request.url, filter: { note: 'x' } })(request, response, ''));
    const manifest = callManifest(server.origin, tools, { policy: { redact_from_logs: ['q'] }, auth: { type: 'bearer' } });
    client = await discoverCallService(server, manifest, {}, { credentials: { token: 'tok-SECRET-echoed' } });
  });
  afterAll(async () => {
    await client.close();
    await server.close();
  });

  it('keeps an echoed token out of envelope.data and text, and redacted arguments out of text', async () => {
    const result = await client.call('search', { q: 'private-query-77' });
    expect(result.ok).toBe(true);
    expect(JSON.stringify(result.data)).not.toContain('tok-SECRET-echoed');
    expect(result.text).not.toContain('private-query-77');
    expect(result.text).not.toContain('tok-SECRET-echoed');
    expect(result.data).toMatchObject({ echo: 'Bearer [REDACTED]', filter: { note: 'x' } });
  });
});
