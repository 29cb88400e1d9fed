import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { AicapError } from '../errors/aicap-error.js';
import { ManifestValidationError } from '../errors/manifest-validation-error.js';
import { validateManifest } from '../manifest/validate-manifest.js';
import type { Manifest } from '../manifest/manifest-v0.js';
import { createManifestHandler, type CreateManifestHandlerOptions } from './create-manifest-handler.js';
import { filterManifestByScopes } from './filter-manifest-by-scopes.js';

const manifest = JSON.parse(readFileSync(new URL('../../examples/payments/payments.manifest.json', import.meta.url), 'utf8')) as Manifest;
const URL_OF_MANIFEST = 'http://localhost/.well-known/ai-capabilities';

describe('createManifestHandler', () => {
  it.each<[string, CreateManifestHandlerOptions, RegExp]>([
    ['neither manifest nor load', {}, /exactly one of the `manifest` and `load`/],
    ['both manifest and load', { manifest, load: () => manifest }, /exactly one of the `manifest` and `load`/],
    ['a relative path', { manifest, path: 'well-known' }, /`path` option must be a path starting with "\/", got "well-known"/],
    ['requireAuth without resolveScopes', { manifest, requireAuth: true }, /`requireAuth` option needs `resolveScopes`/],
    ['public caching of per-credential variants', { manifest, resolveScopes: () => [], cacheControl: 'public, max-age=60' }, /`cacheControl` option must not be `public`/],
    ['a line break in cacheControl', { manifest, cacheControl: 'max-age=60\r\nSet-Cookie: a=b' }, /`cacheControl` option must be a valid HTTP header value/],
    ['a control character in the CORS origin', { manifest, cors: { origin: 'https://a.example\u0000' } }, /`cors.origin` option must be a valid HTTP header value/],
    ['a line break in the challenge', { manifest, resolveScopes: () => [], requireAuth: { challenge: 'Bearer\n' } }, /`requireAuth.challenge` option must be a valid HTTP header value/],
  ])('throws INVALID_OPTION at creation for %s', (_name, options, message) => {
    const error = (() => {
      try {
        createManifestHandler(options);
      } catch (caught) {
        return caught;
      }
    })();
    expect(AicapError.isInstance(error) && error.code).toBe('INVALID_OPTION');
    expect((error as Error).message).toMatch(message);
  });

  it('throws a ManifestValidationError naming the pointer for an invalid manifest', () => {
    const broken = { ...manifest, tools: [{ ...manifest.tools[0], method: 'FETCH' }] } as unknown as Manifest;
    expect(() => createManifestHandler({ manifest: broken })).toThrow(ManifestValidationError);
    expect(() => createManifestHandler({ manifest: broken })).toThrow(/\/tools\/0\/method/);
  });

  it('rejects `ready` and answers 500 without details when `load` yields an invalid manifest', async () => {
    const handler = createManifestHandler({ load: async () => ({ ...manifest, schema_version: 'nine' }) });
    await expect(handler.ready).rejects.toThrow(/schema_version/);
    const response = await handler(new Request(URL_OF_MANIFEST));
    expect(response.status).toBe(500);
    expect(await response.text()).not.toContain('schema_version');
  });

  it('waits for `load` before answering the first request', async () => {
    let resolve: (value: Manifest) => void = () => undefined;
    const handler = createManifestHandler({ load: () => new Promise<Manifest>((done) => (resolve = done)) });
    const pending = handler(new Request(URL_OF_MANIFEST));
    resolve(manifest);
    expect((await pending).status).toBe(200);
  });

  it('answers without a promise once the manifest is prepared, and with one while `load` runs', async () => {
    let resolve: (value: Manifest) => void = () => undefined;
    const handler = createManifestHandler({ load: () => new Promise<Manifest>((done) => (resolve = done)) });
    const early = handler.respond(new Request(URL_OF_MANIFEST));
    expect(early).toBeInstanceOf(Promise);
    resolve(manifest);
    await handler.ready;
    const answer = handler.respond(new Request(URL_OF_MANIFEST, { headers: { 'If-None-Match': 'W/"x", "y"' } }));
    expect(answer).toBeInstanceOf(Response);
    expect((answer as Response).status).toBe(200);
    expect((await early).headers.get('etag')).toBe((answer as Response).headers.get('etag'));
  });

  it('answers 404 outside its path and serves a path-inserted variant', async () => {
    const handler = createManifestHandler({ manifest, path: '/.well-known/ai-capabilities/payments' });
    expect((await handler(new Request(URL_OF_MANIFEST))).status).toBe(404);
    expect((await handler(new Request(`${URL_OF_MANIFEST}/payments`))).status).toBe(200);
  });

  it('leaves CORS headers out when `cors` is false and does not answer OPTIONS', async () => {
    const handler = createManifestHandler({ manifest, cors: false });
    const response = await handler(new Request(URL_OF_MANIFEST));
    expect(response.headers.get('access-control-allow-origin')).toBeNull();
    const options = await handler(new Request(URL_OF_MANIFEST, { method: 'OPTIONS' }));
    expect(options.status).toBe(405);
    expect(options.headers.get('allow')).toBe('GET, HEAD');
  });

  it('answers 500 when resolveScopes throws, without the error text', async () => {
    const handler = createManifestHandler({
      manifest,
      resolveScopes: () => {
        throw new Error('database password wrong');
      },
    });
    const response = await handler(new Request(URL_OF_MANIFEST));
    expect(response.status).toBe(500);
    expect(await response.text()).not.toContain('password');
  });
});

describe('filterManifestByScopes', () => {
  it.each([[[]], [['read']], [['admin']], [['read', 'admin']], [['read', 'unknown']]])('keeps the variant for scopes %j valid', (scopes) => {
    const variant = filterManifestByScopes(manifest, scopes);
    expect(validateManifest(variant).valid).toBe(true);
    const granted = scopes.flatMap((scope) => manifest.auth?.scopes?.[scope] ?? []);
    for (const entry of [...variant.tools, ...(variant.resources ?? []), ...(variant.prompts ?? [])]) expect(granted).toContain(entry.id);
  });

  it('keeps tools that no scope mentions', () => {
    const open = { ...manifest, tools: [...manifest.tools, { id: 'ping', path: '/ping', method: 'GET' as const, description: 'Health check' }] };
    expect(filterManifestByScopes(open, []).tools.map((tool) => tool.id)).toEqual(['ping']);
  });
});

describe('createManifestHandler and ids that name nothing', () => {
  it('refuses a policy or a scope naming an unknown tool id, saying which id, where and what to do', async () => {
    const typo = { ...manifest, policy: { ...manifest.policy, human_approval_required: ['close_acount'] } } as Manifest;
    expect(() => createManifestHandler({ manifest: typo })).toThrow(ManifestValidationError);
    const error = (() => {
      try {
        createManifestHandler({ manifest: typo });
      } catch (thrown) {
        return thrown as ManifestValidationError;
      }
      return undefined;
    })();
    expect(error?.code).toBe('MANIFEST_INVALID');
    expect(error?.message).toContain('/policy/human_approval_required/0 policy.unknown_id: "close_acount" is not a tool, resource or prompt id of this manifest');
    expect(error?.message).toContain('correct the spelling, or remove it');

    const scoped = { ...manifest, auth: { ...manifest.auth, scopes: { ...manifest.auth?.scopes, read: ['list_transactionz'] } } } as Manifest;
    const loaded = createManifestHandler({ load: () => scoped });
    await expect(loaded.ready).rejects.toThrow(/\/auth\/scopes\/read\/0 auth\.unknown_id: scope "read" names "list_transactionz"/);
    // A manifest read by a client still takes it as a warning (variants omit tools).
    expect(validateManifest(scoped).valid).toBe(true);
  });
});
