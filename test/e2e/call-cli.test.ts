import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { promisify } from 'node:util';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { callCommand } from '../../src/cli/commands/call.js';
import { mcpCommand } from '../../src/cli/commands/mcp.js';
import type { Tool } from '../../src/manifest/manifest-v0.js';
import { json, startClientTestServer, type ClientTestServer } from '../helpers/client-test-server.js';
import { callManifest } from '../helpers/call-service.js';
import { BUILT_CLI, captureCliIo, runBuiltCli } from '../helpers/run-built-cli.js';

const tools: Tool[] = [
  { id: 'get_account', path: '/accounts/{account_id}', method: 'GET', description: 'Reads an account', parameters: { account_id: { type: 'string', required: true } } },
  { id: 'close_account', path: '/accounts/{account_id}/close', method: 'POST', description: 'Closes an account', parameters: { account_id: { type: 'string', required: true } } },
  {
    id: 'list',
    path: '/list',
    method: 'GET',
    description: 'Lists',
    parameters: { cursor: { type: 'string' } },
    returns: { type: 'array', pagination: { style: 'cursor', parameter: 'cursor', next_field: 'next', items_field: 'items' } },
  },
];

describe('aicap call', () => {
  let server: ClientTestServer;
  beforeAll(async () => {
    server = await startClientTestServer();
    server.routes.set(
      '/.well-known/ai-capabilities',
      json(callManifest(server.origin, tools, { policy: { human_approval_required: ['close_account'] }, auth: { type: 'bearer', agent_identification: { requires_agent_id: true } } })),
    );
    server.routes.set('/api/accounts/12345', (request, response) =>
      json({ id: '12345', authorization: request.headers['authorization'] ?? null, agent: request.headers['x-agent-id'] ?? null })(request, response, ''),
    );
    server.routes.set('/api/accounts/12345/close', json({ closed: true }));
    server.routes.set('/api/list', (request, response) => {
      const cursor = new URL(request.url ?? '/', server.origin).searchParams.get('cursor');
      json(cursor === null ? { items: [1, 2], next: 'c2' } : { items: [3], next: null })(request, response, '');
    });
  });
  afterAll(async () => {
    await server.close();
  });
  beforeEach(() => {
    server.requests.length = 0;
  });

  it('prints the envelope on stdout and exits 0 when the call succeeds', async () => {
    const io = captureCliIo();
    const code = await callCommand.run([server.origin, 'get_account', '{"account_id":"12345"}', '--token', 'tok-1', '--agent-id', 'cli-agent'], io);
    expect(code).toBe(0);
    // The API echoes the token; the CLI never prints a credential it was given.
    expect(JSON.parse(io.out)).toMatchObject({ ok: true, status: 200, data: { id: '12345', authorization: 'Bearer [REDACTED]', agent: 'cli-agent' } });
    expect(io.out).not.toContain('tok-1');
    expect(io.err).toContain('✔ get_account: 200');
  });

  it.skipIf(!existsSync(BUILT_CLI))("takes a strict-mode model's null for an absent optional field (the built CLI)", async () => {
    const run = await runBuiltCli(['call', server.origin, 'list', '{"cursor":null}', '--agent-id', 'a', '--json']);
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ ok: true, items: [1, 2] });
    expect(server.requests.filter((request) => request.path.startsWith('/api/list')).map((request) => request.path)).toEqual(['/api/list']);
  });

  it('exits 1 with the failed envelope when the call fails', async () => {
    const io = captureCliIo();
    const code = await callCommand.run([server.origin, 'get_account', '{"account_id":"999"}', '--agent-id', 'a', '--json'], io);
    expect(code).toBe(1);
    expect(JSON.parse(io.out)).toMatchObject({ ok: false, error: { code: 'HTTP_ERROR', status: 404, declared: false } });
    expect(io.err).toBe('');
  });

  it('refuses a tool that needs approval when there is no terminal and no --approve', async () => {
    const io = captureCliIo(false);
    const code = await callCommand.run([server.origin, 'close_account', '{"account_id":"12345"}', '--agent-id', 'a'], io);
    expect(code).toBe(1);
    expect(JSON.parse(io.out)).toMatchObject({ ok: false, error: { code: 'APPROVAL_DENIED' } });
    expect(io.err).toContain('--approve');
    expect(server.hits('/api/accounts/12345/close')).toHaveLength(0);
  });

  it('calls a tool that needs approval with --approve', async () => {
    const io = captureCliIo();
    const code = await callCommand.run([server.origin, 'close_account', '{"account_id":"12345"}', '--agent-id', 'a', '--approve'], io);
    expect(code).toBe(0);
    expect(server.hits('/api/accounts/12345/close')).toHaveLength(1);
  });

  it('follows every page with --all-pages', async () => {
    const io = captureCliIo();
    const code = await callCommand.run([server.origin, 'list', '--agent-id', 'a', '--all-pages'], io);
    expect(code).toBe(0);
    expect(JSON.parse(io.out)).toMatchObject({ ok: true, items: [1, 2, 3], page: { next: null, complete: true } });
  });

  it.each([
    ['no tool id', [] as string[], 'Missing the origin or the tool id'],
    ['arguments that are not JSON', ['get_account', '{nope'], 'not valid JSON'],
    ['arguments that are not an object', ['get_account', '[1]'], 'must be a JSON object'],
    ['both --token and --api-key', ['get_account', '--token', 't', '--api-key', 'k'], 'one of `--token`, `--api-key` or `--username`'],
    ['a bad --max-items', ['list', '--all-pages', '--max-items', '0'], '`--max-items`'],
  ])('exits 2 on a usage error: %s', async (_name, rest, message) => {
    const io = captureCliIo();
    const code = await callCommand.run([server.origin, ...rest], io);
    expect(code).toBe(2);
    expect(io.err).toContain(message);
    expect(server.requests).toHaveLength(0);
  });

  it('exits 2 when the service cannot be discovered', async () => {
    const empty = await startClientTestServer();
    try {
      const io = captureCliIo();
      const code = await callCommand.run([empty.origin, 'get_account', '--json'], io);
      expect(code).toBe(2);
      expect(JSON.parse(io.out)).toMatchObject({ ok: false, error: { code: 'DISCOVERY_FAILED' } });
    } finally {
      await empty.close();
    }
  });

  // `npm test` builds before vitest runs; this checks the real binary end to end.
  it.runIf(existsSync('dist/cli/commands/call.js'))('works through the built binary', async () => {
    const result = await promisify(execFile)(process.execPath, ['dist/cli/main.js', 'call', server.origin, 'get_account', '{"account_id":"12345"}', '--agent-id', 'bin', '--json'], {
      timeout: 20_000,
    });
    expect(JSON.parse(result.stdout)).toMatchObject({ ok: true, data: { agent: 'bin' } });
  });
});

describe('aicap call with HTTP Basic', () => {
  let server: ClientTestServer;
  beforeAll(async () => {
    server = await startClientTestServer();
    server.routes.set('/.well-known/ai-capabilities', json(callManifest(server.origin, [tools[0]!], { auth: { type: 'basic' } })));
    server.routes.set('/api/accounts/AC1', (request, response) => json({ authorization: request.headers['authorization'] ?? null })(request, response, ''));
  });
  afterAll(async () => {
    await server.close();
  });

  it('sends --username with the password read from the variable --password-env names, and prints neither', async () => {
    process.env['AICAP_TEST_BASIC_PASSWORD'] = 'pw-secret-1';
    try {
      const io = captureCliIo();
      const code = await callCommand.run([server.origin, 'get_account', '{"account_id":"AC1"}', '--username', 'AC1', '--password-env', 'AICAP_TEST_BASIC_PASSWORD', '--json'], io);
      expect(code).toBe(0);
      expect(server.requests.at(-1)?.headers['authorization']).toBe(`Basic ${Buffer.from('AC1:pw-secret-1').toString('base64')}`);
      expect(JSON.parse(io.out)).toMatchObject({ ok: true, data: { authorization: 'Basic [REDACTED]' } });
      expect(io.out + io.err).not.toContain('pw-secret-1');
    } finally {
      delete process.env['AICAP_TEST_BASIC_PASSWORD'];
    }
  });

  it('exits 2 naming the variable when --password-env names one that is not set', async () => {
    const io = captureCliIo();
    expect(await callCommand.run([server.origin, 'get_account', '{"account_id":"AC1"}', '--username', 'AC1', '--password-env', 'AICAP_TEST_UNSET_VARIABLE'], io)).toBe(2);
    expect(io.err).toContain('AICAP_TEST_UNSET_VARIABLE is not set');
  });

  it('fails the call naming HTTP Basic when only a bearer token is given', async () => {
    const io = captureCliIo();
    expect(await callCommand.run([server.origin, 'get_account', '{"account_id":"AC1"}', '--token', 'tok', '--json'], io)).toBe(1);
    expect(JSON.parse(io.out)).toMatchObject({ ok: false, error: { code: 'AUTH_FAILED', message: expect.stringContaining('HTTP Basic') } });
  });
});

describe('aicap mcp Basic credential flags', () => {
  it('refuses --password-env without --username, and a variable that is not set, before serving anything', async () => {
    const alone = captureCliIo();
    expect(await mcpCommand.run(['https://api.example.com', '--password-env', 'AICAP_TEST_BASIC_PASSWORD'], alone)).toBe(2);
    expect(alone.err).toContain('needs `--username`');
    const unset = captureCliIo();
    expect(await mcpCommand.run(['https://api.example.com', '--username', 'https://api.example.com=AC1', '--password-env', 'AICAP_TEST_UNSET_VARIABLE'], unset)).toBe(2);
    expect(unset.err).toContain('AICAP_TEST_UNSET_VARIABLE is not set');
  });
});
