import { describe, expect, it } from 'vitest';
import type { Manifest } from '../../manifest/manifest-v0.js';
import type { CheckOutcome } from './check-result.js';
import { checkOAuthMetadata } from './check-oauth-metadata.js';

type Documents = Record<string, unknown>;

/** A fetch over a table of URL → JSON document (a number is a status); it records every URL asked for. */
function fakeFetch(documents: Documents): { fetch: (input: string | URL) => Promise<Response>; asked: string[] } {
  const asked: string[] = [];
  const fetch = async (input: string | URL): Promise<Response> => {
    const url = String(input);
    asked.push(url);
    const document = documents[url];
    if (document === undefined) return new Response('{}', { status: 404 });
    if (typeof document === 'number') return new Response(null, { status: document });
    if (document instanceof Error) throw document;
    return new Response(typeof document === 'string' ? document : JSON.stringify(document), { status: 200, headers: { 'content-type': 'application/json' } });
  };
  return { fetch, asked };
}

function manifest(providerDiscovery: string | undefined): Manifest {
  return {
    schema_version: '0.3',
    service: { name: 'Payments', base_url: 'https://api.example.com/v1/' },
    tools: [],
    ...(providerDiscovery === undefined ? {} : { auth: { type: 'oauth2', provider_discovery: providerDiscovery } }),
  } as unknown as Manifest;
}

async function run(documents: Documents, discovery = 'https://api.example.com/.well-known/oauth-protected-resource'): Promise<{ lines: Array<[string, CheckOutcome, string]>; asked: string[] }> {
  const { fetch, asked } = fakeFetch(documents);
  const lines: Array<[string, CheckOutcome, string]> = [];
  await checkOAuthMetadata(manifest(discovery), fetch, (id, outcome, message) => lines.push([id, outcome, message]));
  return { lines, asked };
}

const PRM = 'https://api.example.com/.well-known/oauth-protected-resource';
const goodServer = {
  issuer: 'https://auth.example.com',
  response_types_supported: ['code'],
  authorization_endpoint: 'https://auth.example.com/authorize',
  token_endpoint: 'https://auth.example.com/token',
};

describe('checkOAuthMetadata', () => {
  it('does nothing without provider_discovery', async () => {
    const { fetch, asked } = fakeFetch({});
    const lines: unknown[] = [];
    await checkOAuthMetadata(manifest(undefined), fetch, (...line) => lines.push(line));
    expect(lines).toEqual([]);
    expect(asked).toEqual([]);
  });

  it('passes protected-resource metadata naming the API and a complete authorization server', async () => {
    const { lines, asked } = await run({
      [PRM]: { resource: 'https://api.example.com/v1', authorization_servers: ['https://auth.example.com'] },
      'https://auth.example.com/.well-known/oauth-authorization-server': goodServer,
    });
    expect(lines.map(([id, outcome]) => `${id} ${outcome}`)).toEqual(['auth.provider_discovery pass', 'auth.protected_resource pass', 'auth.authorization_server pass']);
    expect(asked).toEqual([PRM, 'https://auth.example.com/.well-known/oauth-authorization-server']);
  });

  it('accepts the API origin as the resource too, and fails another resource or none', async () => {
    const server = { 'https://auth.example.com/.well-known/oauth-authorization-server': goodServer };
    const origin = await run({ [PRM]: { resource: 'https://api.example.com/', authorization_servers: ['https://auth.example.com'] }, ...server });
    expect(origin.lines[1]?.[1]).toBe('pass');
    const other = await run({ [PRM]: { resource: 'https://evil.example', authorization_servers: ['https://auth.example.com'] }, ...server });
    expect(other.lines[1]).toEqual(['auth.protected_resource', 'fail', expect.stringContaining('https://api.example.com/v1')]);
    const none = await run({ [PRM]: { authorization_servers: ['https://auth.example.com'] }, ...server });
    expect(none.lines[1]).toEqual(['auth.protected_resource', 'fail', expect.stringContaining('RFC 9728')]);
  });

  it('tries the RFC 8414 location with the issuer path inserted, then the OpenID ones, and reports each failure', async () => {
    const issuer = 'https://auth.example.com/tenant/1';
    const { lines, asked } = await run({ [PRM]: { resource: 'https://api.example.com/v1', authorization_servers: [issuer] } });
    expect(asked.slice(1)).toEqual([
      'https://auth.example.com/.well-known/oauth-authorization-server/tenant/1',
      'https://auth.example.com/.well-known/openid-configuration/tenant/1',
      'https://auth.example.com/tenant/1/.well-known/openid-configuration',
    ]);
    expect(lines.at(-1)).toEqual(['auth.authorization_server', 'fail', expect.stringContaining('answered 404')]);
  });

  it('reads OpenID configuration at the fallback location', async () => {
    const { lines } = await run({
      [PRM]: { resource: 'https://api.example.com/v1', authorization_servers: ['https://auth.example.com/'] },
      'https://auth.example.com/.well-known/openid-configuration': goodServer,
    });
    expect(lines.at(-1)?.[1]).toBe('pass');
  });

  it('checks at most three authorization servers, whatever the document lists', async () => {
    const servers = Array.from({ length: 50 }, (_, index) => `https://auth${index}.example.com`);
    const { asked } = await run({ [PRM]: { resource: 'https://api.example.com/v1', authorization_servers: servers } });
    expect(new Set(asked.slice(1).map((url) => new URL(url).host))).toEqual(new Set(['auth0.example.com', 'auth1.example.com', 'auth2.example.com']));
  });

  it('fails an empty server list, a relative server URL, and non-string entries', async () => {
    const empty = await run({ [PRM]: { resource: 'https://api.example.com/v1', authorization_servers: [1, null] } });
    expect(empty.lines.at(-1)).toEqual(['auth.authorization_server', 'fail', expect.stringContaining('lists no authorization server')]);
    const relative = await run({ [PRM]: { resource: 'https://api.example.com/v1', authorization_servers: ['/auth'] } });
    expect(relative.lines.at(-1)).toEqual(['auth.authorization_server', 'fail', expect.stringContaining('not an absolute URL')]);
  });

  it('names each missing member and a wrong issuer', async () => {
    const { lines } = await run({
      [PRM]: { resource: 'https://api.example.com/v1', authorization_servers: ['https://auth.example.com'] },
      'https://auth.example.com/.well-known/oauth-authorization-server': { issuer: 'https://other.example.com' },
    });
    const message = lines.at(-1)?.[2] ?? '';
    expect(lines.at(-1)?.[1]).toBe('fail');
    expect(message).toContain('`issuer` is https://other.example.com, not https://auth.example.com');
    expect(message).toContain('`response_types_supported`');
    expect(message).toContain('`authorization_endpoint`');
    expect(message).toContain('`token_endpoint`');
  });

  it('needs no authorization endpoint when the grants do not use one, and no token endpoint for implicit only', async () => {
    const clientCredentials = await run(
      { [PRM]: { issuer: 'https://auth.example.com', response_types_supported: [], grant_types_supported: ['client_credentials'], token_endpoint: 'https://auth.example.com/t' } },
      PRM,
    );
    expect(clientCredentials.lines.map(([, outcome]) => outcome)).toEqual(['pass', 'pass']);
    const implicit = await run(
      { [PRM]: { issuer: 'https://auth.example.com', response_types_supported: ['token'], grant_types_supported: ['implicit'], authorization_endpoint: 'https://auth.example.com/a' } },
      PRM,
    );
    expect(implicit.lines.map(([, outcome]) => outcome)).toEqual(['pass', 'pass']);
  });

  it('fails a discovery document that answers an error, is not a JSON object, or is neither kind', async () => {
    expect((await run({ [PRM]: 500 })).lines).toEqual([['auth.provider_discovery', 'fail', `GET ${PRM} answered 500`]]);
    expect((await run({ [PRM]: [1, 2] })).lines[0]?.[2]).toContain('is not a JSON object');
    expect((await run({ [PRM]: 'not json' })).lines[0]?.[2]).toMatch(/failed: /);
    expect((await run({ [PRM]: new Error('connect ECONNREFUSED') })).lines[0]?.[2]).toContain('failed: connect ECONNREFUSED');
    expect((await run({ [PRM]: { hello: 'world' } })).lines[0]?.[2]).toContain('neither authorization_servers');
  });
});
