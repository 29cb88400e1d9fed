import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Client, OriginCredentials } from '../../src/client/index.js';
import type { Auth, Tool } from '../../src/manifest/manifest-v0.js';
import { json, startClientTestServer, type ClientTestServer } from '../helpers/client-test-server.js';
import { callManifest, discoverCallService } from '../helpers/call-service.js';

// What real APIs read, checked on a real loopback server that parses what arrives (issue 37).
let server: ClientTestServer;
const clients: Client[] = [];
beforeEach(async () => {
  server = await startClientTestServer();
  server.routes.set('/api/echo', (request, response, body) => json({ ok: true, length: body.length })(request, response, body));
});
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
  await server.close();
});

async function open(tools: Tool[], auth?: Auth, credentials?: OriginCredentials): Promise<Client> {
  const client = await discoverCallService(
    server,
    { ...callManifest(server.origin, tools, auth === undefined ? {} : { auth }), schema_version: '0.3.0' },
    { approve: () => true },
    credentials === undefined ? {} : { credentials },
  );
  clients.push(client);
  return client;
}

describe('parameter serialisation on the wire', () => {
  it('sends Stripe-style form bodies and deepObject queries that a form parser reads back as nested fields', async () => {
    const client = await open([
      {
        id: 'create_sku',
        path: '/echo',
        method: 'POST',
        description: 'Creates a SKU.',
        request_content_type: 'application/x-www-form-urlencoded',
        parameters: {
          inventory: { type: 'object', style: 'deepObject', explode: true },
          items: { type: 'array', style: 'deepObject', explode: true },
          note: { type: 'string' },
          created: { type: 'object', in: 'query', style: 'deepObject', explode: true },
        },
      },
    ]);
    const envelope = await client.call('create_sku', { inventory: { type: 'infinite' }, items: [{ price: 'p 1', quantity: 2 }], note: 'two words', created: { gt: 5 } });
    expect(envelope.ok).toBe(true);
    const request = server.requests.at(-1)!;
    expect(request.path).toBe('/api/echo?created[gt]=5');
    expect(request.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(request.body).toBe('inventory[type]=infinite&items[0][price]=p%201&items[0][quantity]=2&note=two%20words');
    expect([...new URLSearchParams(request.body)]).toEqual([
      ['inventory[type]', 'infinite'],
      ['items[0][price]', 'p 1'],
      ['items[0][quantity]', '2'],
      ['note', 'two words'],
    ]);
  });

  it('builds a multipart body whose parts a multipart parser reads: text, JSON and a file decoded from base64', async () => {
    const client = await open([
      {
        id: 'upload',
        path: '/echo',
        method: 'POST',
        description: 'Uploads a file.',
        request_content_type: 'multipart/form-data',
        parameters: { purpose: { type: 'string' }, file: { type: 'string', content_type: 'application/octet-stream' }, meta: { type: 'object' } },
      },
    ]);
    const bytes = Buffer.from([0, 1, 2, 0x41, 0x7f]);
    const envelope = await client.call('upload', { purpose: 'dispute_evidence', file: bytes.toString('base64'), meta: { a: 1 } });
    expect(envelope.ok).toBe(true);
    const request = server.hits('/api/echo').at(-1)!;
    const form = await new Response(request.body, { headers: { 'content-type': String(request.headers['content-type']) } }).formData();
    expect(form.get('purpose')).toBe('dispute_evidence');
    const file = form.get('file') as File;
    expect([file.name, file.type, [...new Uint8Array(await file.arrayBuffer())]]).toEqual(['file', 'application/octet-stream', [...bytes]]);
    expect(JSON.parse(form.get('meta') as string)).toEqual({ a: 1 });
  });

  it('refuses an empty array the form would drop, naming the argument, and sends nothing', async () => {
    const client = await open([
      {
        id: 'create_link',
        path: '/echo',
        method: 'POST',
        description: 'Creates a link.',
        request_content_type: 'application/x-www-form-urlencoded',
        parameters: { line_items: { type: 'array', style: 'deepObject', explode: true } },
      },
    ]);
    const envelope = await client.call('create_link', { line_items: [] });
    expect(envelope.ok).toBe(false);
    expect(envelope.error).toMatchObject({ code: 'INVALID_ARGUMENTS', message: expect.stringContaining('/line_items') });
    expect(server.hits('/api/echo')).toHaveLength(0);
  });

  it('keeps what an optional body requires required when the body is sent (body_required)', async () => {
    const client = await open([
      {
        id: 'create_repo',
        path: '/echo',
        method: 'POST',
        description: 'Creates a repository.',
        parameters: { name: { type: 'string', in: 'body' }, description: { type: 'string', in: 'body' } },
        body_required: ['name'],
      },
    ]);
    const envelope = await client.call('create_repo', { description: 'the model left out the name' });
    expect(envelope.error).toMatchObject({ code: 'INVALID_ARGUMENTS' });
    expect((await client.call('create_repo', {})).ok).toBe(true);
    expect((await client.call('create_repo', { name: 'r', description: 'd' })).ok).toBe(true);
  });
});

describe('content types and redirects as the description declares them', () => {
  it('sends a vendor +json type as Accept', async () => {
    const client = await open([{ id: 'get_protection', path: '/echo', method: 'GET', description: 'Reads protection.', returns: { content_type: 'application/vnd.github.luke-cage-preview+json' } }]);
    await client.call('get_protection');
    expect(server.hits('/api/echo').at(-1)!.headers['accept']).toBe('application/vnd.github.luke-cage-preview+json, application/problem+json;q=0.9');
  });

  it('returns a declared 302 as a result with its Location, without following it to another origin', async () => {
    const other = await startClientTestServer();
    try {
      other.routes.set('/archive.zip', json({ leaked: true }));
      server.routes.set('/api/zipball', (_request, response) => {
        response.writeHead(302, { location: `${other.origin}/archive.zip` }).end();
      });
      const client = await open(
        [{ id: 'download_zipball', path: '/zipball', method: 'GET', description: 'Downloads an archive.', returns: { redirect_statuses: [302] } }],
        { type: 'bearer' },
        { token: 'secret-token' },
      );
      const envelope = await client.call('download_zipball');
      expect(envelope).toMatchObject({ ok: true, status: 302, meta: { location: `${other.origin}/archive.zip` } });
      expect(other.requests).toHaveLength(0);
    } finally {
      await other.close();
    }
  });
});

describe('authentication schemes', () => {
  it('presents HTTP Basic from username and password (Twilio)', async () => {
    server.routes.set('/api/accounts', (request, response) => json({ authorization: request.headers['authorization'] ?? null })(request, response, ''));
    const client = await open([{ id: 'list_accounts', path: '/accounts', method: 'GET', description: 'Lists accounts.' }], { type: 'basic' }, { username: 'AC123', password: 'p@ss:word' });
    const envelope = await client.call('list_accounts');
    expect(envelope.ok).toBe(true);
    const header = String(server.hits('/api/accounts').at(-1)!.headers['authorization']);
    expect(header).toBe(`Basic ${Buffer.from('AC123:p@ss:word').toString('base64')}`);
    // The encoded pair is a secret: the echo is redacted.
    expect(envelope.data).toEqual({ authorization: 'Basic [REDACTED]' });
  });

  it('refuses before sending when the credential cannot present the scheme, naming it', async () => {
    const client = await open([{ id: 'list_accounts', path: '/echo', method: 'GET', description: 'Lists accounts.' }], { type: 'basic' }, { token: 'a-bearer-token' });
    expect(client.services()[0]!.findings).toEqual([expect.objectContaining({ code: 'auth.credential_mismatch', pointer: '/auth/type', message: expect.stringContaining('HTTP Basic') })]);
    const envelope = await client.call('list_accounts');
    expect(envelope.error).toMatchObject({ code: 'AUTH_FAILED', message: expect.stringContaining('HTTP Basic') });
    expect(envelope.error?.message).toContain('`username` and `password`');
    expect(server.hits('/api/echo')).toHaveLength(0);
  });

  it('sends an API key with its scheme prefix, and in a cookie', async () => {
    server.routes.set('/api/whoami', (request, response) => json({ authorization: request.headers['authorization'] ?? null, cookie: request.headers['cookie'] ?? null })(request, response, ''));
    const tools: Tool[] = [{ id: 'whoami', path: '/whoami', method: 'GET', description: 'Echoes the caller.' }];
    await (await open(tools, { type: 'api_key', api_key: { in: 'header', name: 'Authorization', prefix: 'Token token=' } }, { apiKey: 'k-1' })).call('whoami');
    expect(server.hits('/api/whoami').at(-1)!.headers['authorization']).toBe('Token token=k-1');
    await (await open(tools, { type: 'api_key', api_key: { in: 'cookie', name: 'session' } }, { apiKey: 'k-2' })).call('whoami');
    expect(server.hits('/api/whoami').at(-1)!.headers['cookie']).toBe('session=k-2');
  });
});
