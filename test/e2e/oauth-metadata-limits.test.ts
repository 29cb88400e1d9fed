// The OAuth entry points read metadata through the capped, guarded fetch (security review round 3,
// R3-9): an API whose protected-resource metadata is a 24 MiB document must not be read whole by
// `startUserAuthorization`, `authorizeWithDeviceCode` or `aicap login`. One real server on 127.0.0.1
// streams the document with backpressure and counts what it managed to send before the client hung up.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ServerResponse } from 'node:http';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startUserAuthorization } from '../../src/client/index.js';
import { BUILT_CLI, runBuiltCli } from '../helpers/run-built-cli.js';
import { startClientTestServer, type ClientTestServer } from '../helpers/client-test-server.js';

const DOCUMENT_SIZE_IN_BYTES = 24 * 1024 * 1024;
const CHUNK = Buffer.alloc(64 * 1024, 0x20);

let api: ClientTestServer;
let directory: string;
let sentInBytes = 0;

/** Writes `head`, then spaces up to DOCUMENT_SIZE_IN_BYTES, then `tail`, one chunk at a time as the socket drains. */
function streamPadded(response: ServerResponse, head: string, tail: string): void {
  response.writeHead(200, { 'content-type': 'application/json' });
  response.write(head);
  sentInBytes = head.length;
  const next = (): void => {
    while (sentInBytes < DOCUMENT_SIZE_IN_BYTES) {
      if (response.destroyed) return;
      sentInBytes += CHUNK.length;
      if (!response.write(CHUNK)) return void response.once('drain', next);
    }
    response.end(tail);
  };
  response.on('error', () => undefined);
  next();
}

beforeAll(async () => {
  directory = mkdtempSync(join(tmpdir(), 'aicap-oauth-limits-'));
  api = await startClientTestServer();
  const { origin } = api;
  api.routes.set('/.well-known/ai-capabilities', (_request, response) => {
    const manifest = {
      schema_version: '0.1.0',
      service: { name: 'Huge metadata', description: 'An API whose OAuth metadata is huge', base_url: origin },
      auth: { type: 'oauth2', provider_discovery: `${origin}/.well-known/oauth-protected-resource` },
      tools: [{ id: 'read', path: '/r', method: 'GET', description: 'Reads a record' }],
    };
    response.writeHead(200, { 'content-type': 'application/ai-capabilities+json' }).end(JSON.stringify(manifest));
  });
  api.routes.set('/.well-known/oauth-protected-resource', (_request, response) => streamPadded(response, `{"resource":"${origin}","authorization_servers":["${origin}"]`, '}'));
  api.routes.set('/.well-known/oauth-authorization-server', (_request, response) => {
    const metadata = {
      issuer: origin,
      authorization_endpoint: `${origin}/authorize`,
      token_endpoint: `${origin}/token`,
      device_authorization_endpoint: `${origin}/device`,
      response_types_supported: ['code'],
      code_challenge_methods_supported: ['S256'],
    };
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(metadata));
  });
});

afterAll(async () => {
  await api.close();
  rmSync(directory, { recursive: true, force: true });
});

beforeEach(() => {
  sentInBytes = 0;
});

describe('OAuth metadata is read under a size cap', () => {
  it('startUserAuthorization stops reading a 24 MiB protected-resource metadata document at 1 MiB', async () => {
    const started = startUserAuthorization({
      origin: api.origin,
      discoveryUrl: `${api.origin}/.well-known/oauth-protected-resource`,
      redirectUri: 'http://127.0.0.1:1/callback',
      clientId: 'aicap-test',
    });
    const error = await started.then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(error).toMatchObject({ code: 'AUTH_FAILED' });
    expect(String((error as Error).message)).toMatch(/larger than 1048576 bytes/);
    // What the server got out before the client hung up: the cap plus what sat in socket buffers, far from all of it.
    expect(sentInBytes).toBeLessThan(DOCUMENT_SIZE_IN_BYTES / 2);
  });

  it.skipIf(!existsSync(BUILT_CLI))('aicap login --device stops the same way and says why (built CLI)', async () => {
    const result = await runBuiltCli(['login', api.origin, '--device', '--client-id', 'aicap-test'], {
      timeoutInMs: 90_000,
      env: { AICAP_TOKEN_FILE: join(directory, 'tokens'), AICAP_TOKEN_KEY: 'a1'.repeat(32) },
    });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/larger than 1048576 bytes/);
    expect(sentInBytes).toBeLessThan(DOCUMENT_SIZE_IN_BYTES / 2);
  });
});
