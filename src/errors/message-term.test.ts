/**
 * Every library error that advises changing an option carries that option (and the terms its message
 * names) as data, so a front end can word the advice its own way. Each kind is raised the way a
 * program meets it: a real client against real loopback servers.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServerResponse } from 'node:http';
import { json, startClientTestServer, type ClientTestServer } from '../../test/helpers/client-test-server.js';
import { createClient } from '../client/index.js';
import { assertEntryEnabled } from '../client/resolve-tool.js';
import type { DiscoveredService } from '../client/shapes/client-types.js';
import { createCatalog } from '../tools/create-catalog.js';
import { parseManifest } from '../manifest/parse-manifest.js';
import { AicapError } from './aicap-error.js';

let server: ClientTestServer;
const held: ServerResponse[] = [];
const tools = [{ id: 'list_things', path: '/things', method: 'GET', description: 'Lists things' }];
const manifest = (baseUrl: string) => ({ schema_version: '0.2.0', service: { name: 'Things', base_url: baseUrl }, tools });

async function rejection(promise: Promise<unknown>): Promise<AicapError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  if (!AicapError.isInstance(error)) throw new Error(`expected an aicap error, got ${String(error)}`);
  return error;
}

beforeAll(async () => {
  server = await startClientTestServer();
  server.routes.set('/.well-known/ai-capabilities', json(manifest(`${server.origin}/v1`)));
  server.routes.set('/v1/things', json({ error: 'unauthorized' }, {}, 401));
  server.routes.set('/hanging/.well-known/ai-capabilities', (_request, response) => void held.push(response));
  server.routes.set('/elsewhere/.well-known/ai-capabilities', json(manifest('https://api.example.com/v1')));
});

afterAll(async () => {
  for (const response of held) response.destroy();
  await server.close();
});

describe('errors carry the option (or term) their advice names', () => {
  it('a deadline: the timeout option', async () => {
    const client = createClient({ network: { timeouts: { headersInMs: 200 } } });
    const error = await rejection(client.discover(`${server.origin}/hanging/.well-known/ai-capabilities`));
    expect(error.code).toBe('TIMEOUT');
    expect(error.option).toBe('network.timeouts.headersInMs');
    expect(error.message).toContain('Raise `network.timeouts.headersInMs`');
  });

  it('a size cap: the manifest cap of the client and of parseManifest', async () => {
    const client = createClient({ discovery: { maxManifestSizeInBytes: 50 } });
    const error = await rejection(client.discover(server.origin));
    expect(error.option).toBe('discovery.maxManifestSizeInBytes');
    expect(error.terms).toEqual([{ kind: 'option', option: 'discovery.maxManifestSizeInBytes' }]);
    const parsed = parseManifest(JSON.stringify(manifest('https://things.example.com')), { maxSizeInBytes: 20 });
    expect(parsed.issues[0]).toMatchObject({ code: 'json.too_large', terms: [{ kind: 'option', option: 'maxSizeInBytes' }] });
  });

  it('an origin: trust.allowedOrigins', async () => {
    const error = await rejection(createClient().discover(`${server.origin}/elsewhere/.well-known/ai-capabilities`));
    expect(error.code).toBe('ORIGIN_MISMATCH');
    expect(error.option).toBe('trust.allowedOrigins');
  });

  it('credentials none were given for: the credentials option of discover, in the envelope', async () => {
    const client = createClient();
    await client.discover(server.origin);
    const envelope = await client.call('list_things', {});
    expect(envelope.error).toMatchObject({ code: 'AUTH_FAILED', terms: [{ kind: 'option', option: 'credentials', of: 'discover' }] });
    expect(envelope.error?.userMessage).toContain('pass them as the `credentials` option of `discover`');
  });

  it('an origin argument that is not a URL: the argument, and the scheme to add', async () => {
    const error = await rejection(createClient().discover('127.0.0.1:3917'));
    expect(error.terms).toEqual([{ kind: 'argument', argument: 'originOrUrl', of: 'discover' }]);
    expect(error.message).toBe('The `originOrUrl` given to `discover` must be an absolute URL such as https://api.example.com, got "127.0.0.1:3917": add the scheme, http://127.0.0.1:3917.');
  });

  it('a changed pinned tool: the approval, as data', () => {
    const service = { origin: 'https://a.example', disabledToolIds: ['list_things'], quarantinedToolIds: [], findings: [] } as unknown as DiscoveredService;
    let thrown: unknown;
    try {
      assertEntryEnabled(service, tools[0] as never, 'Tool');
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toMatchObject({ code: 'TOOL_DISABLED', terms: [{ kind: 'approval', toolId: 'list_things', origin: 'https://a.example' }] });
    expect((thrown as Error).message).toContain("call `client.approve('list_things')` to enable it again");
  });

  it('hidden deprecated tools: includeDeprecated, with the catalog warnings', () => {
    const deprecated = { ...manifest('https://things.example.com'), tools: [{ ...tools[0], deprecated: true }] };
    const catalog = createCatalog([
      {
        manifestUrl: 'https://things.example.com/.well-known/ai-capabilities',
        namespace: 'things',
        origin: 'https://things.example.com',
        manifest: deprecated as never,
        grantedScopes: undefined,
        findings: [],
        quarantinedToolIds: [],
        disabledToolIds: [],
      },
    ]);
    expect(catalog.warnings.join('\n')).toContain('pass `includeDeprecated: true` to show them');
    expect(catalog.terms).toEqual([{ kind: 'option', option: 'includeDeprecated', value: true }]);
  });
});
