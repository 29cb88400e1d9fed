import Fastify, { type FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import type { Manifest } from '../manifest/manifest-v0.js';
import { aicapPlugin } from './index.js';

const base = { schema_version: '0.1.0', service: { name: 'Orders', base_url: 'https://orders.example.com/api' }, auth: { type: 'bearer' as const } };
const noAuth = { schema_version: '0.1.0', service: { name: 'Orders', base_url: 'https://orders.example.com/api' } };

async function derivedManifest(app: FastifyInstance): Promise<Manifest> {
  const response = await app.inject({ method: 'GET', url: '/.well-known/ai-capabilities' });
  expect(response.statusCode).toBe(200);
  return response.json<Manifest>();
}

describe('aicapPlugin', () => {
  it('carries the three fastify-plugin symbols so its hooks see sibling routes', () => {
    const plugin = aicapPlugin as unknown as Record<symbol, unknown>;
    expect(plugin[Symbol.for('skip-override')]).toBe(true);
    expect(plugin[Symbol.for('fastify.display-name')]).toBe('aicap');
    expect(plugin[Symbol.for('plugin-meta')]).toMatchObject({ name: 'aicap' });
  });

  it('derives tools from route schemas and config.ai, without a hand-written tool list', async () => {
    const app = Fastify();
    await app.register(aicapPlugin, { manifest: base, deriveTools: true, basePath: '/api' });
    app.post(
      '/api/orders/:order_id/refund',
      {
        schema: {
          params: { type: 'object', properties: { order_id: { type: 'string' } } },
          body: { type: 'object', required: ['amount'], properties: { amount: { type: 'number', minimum: 0 } } },
          response: { 200: { type: 'object', properties: { refund_id: { type: 'string' } } } },
        },
        config: { ai: { id: 'refund_order', description: 'Refunds an order', scopes: ['admin'], humanApproval: true, errors: { already_refunded: { status: 409 } } } },
      },
      async () => ({ refund_id: 'r1' }),
    );
    app.get('/api/health', async () => 'ok');
    const response = await app.inject({ method: 'GET', url: '/.well-known/ai-capabilities' });
    expect(response.statusCode).toBe(200);
    const manifest = response.json<Manifest>();
    expect(manifest.tools).toHaveLength(1);
    expect(manifest.tools[0]).toMatchObject({
      id: 'refund_order',
      method: 'POST',
      path: '/orders/{order_id}/refund',
      parameters: { order_id: { in: 'path', required: true }, amount: { in: 'body', required: true, type: 'number' } },
      errors: { already_refunded: { status: 409 } },
    });
    expect(manifest.auth?.scopes).toEqual({ admin: ['refund_order'] });
    expect(manifest.policy?.human_approval_required).toEqual(['refund_order']);
    await app.close();
  });

  it('makes ready() reject when the derived manifest is invalid', async () => {
    const app = Fastify();
    await app.register(aicapPlugin, { manifest: base, deriveTools: true });
    app.get('/a', { config: { ai: { id: 'same', description: 'A' } } }, async () => 'a');
    app.get('/b', { config: { ai: { id: 'same', description: 'B' } } }, async () => 'b');
    await expect(app.ready()).rejects.toThrow(/same/);
    await app.close();
  });

  it('makes register reject for a manifest with a secret', async () => {
    const app = Fastify();
    const leaky = { ...base, tools: [], 'x-note': 'token ghp_abcdefghijklmnopqrstuvwxyz0123456789' } as Manifest;
    await expect(app.register(aicapPlugin, { manifest: leaky })).rejects.toMatchObject({ code: 'MANIFEST_SECRET_DETECTED' });
    await app.close();
  });
  it('turns a regex parameter into {name} with the regex as its pattern, and the tool still reaches the route', async () => {
    const app = Fastify();
    await app.register(aicapPlugin, { manifest: base, deriveTools: true });
    app.get('/n/:num(^\\d+$)', { config: { ai: { id: 'get_number', description: 'Reads a number' } } }, async (request) => request.params);
    const manifest = await derivedManifest(app);
    expect(manifest.tools[0]?.path).toBe('/n/{num}');
    expect(manifest.tools[0]?.parameters?.['num']).toEqual({ type: 'string', required: true, in: 'path', json_schema: { type: 'string', pattern: '^\\d+$' } });
    expect((await app.inject({ method: 'GET', url: '/n/42' })).json()).toEqual({ num: '42' });
    await app.close();
  });

  it('turns a trailing wildcard into a {wildcard} path parameter whose value may hold slashes', async () => {
    const app = Fastify();
    await app.register(aicapPlugin, { manifest: base, deriveTools: true });
    app.get(
      '/files/*',
      { schema: { params: { type: 'object', properties: { '*': { type: 'string', description: 'File path' } } } }, config: { ai: { id: 'read_file', description: 'Reads a file' } } },
      async (request) => ({ path: (request.params as Record<string, string>)['*'] }),
    );
    const manifest = await derivedManifest(app);
    expect(manifest.tools[0]?.path).toBe('/files/{wildcard}');
    expect(manifest.tools[0]?.parameters).toEqual({ wildcard: { type: 'string', required: true, in: 'path', description: 'File path', json_schema: { type: 'string', description: 'File path' } } });
    // A client percent-encodes the value as one segment; Fastify decodes it back.
    expect((await app.inject({ method: 'GET', url: `/files/${encodeURIComponent('a/b.txt')}` })).json()).toEqual({ path: 'a/b.txt' });
    await app.close();
  });

  it('refuses a wildcard in the middle of a path with a message naming the route', async () => {
    const app = Fastify();
    await app.register(aicapPlugin, { manifest: base, deriveTools: true });
    expect(() => app.get('/files/*/raw', { config: { ai: { id: 'raw', description: 'Raw' } } }, async () => 'x')).toThrow(/GET \/files\/\*\/raw: a wildcard can only end the path/);
    await app.close();
  });

  it('warns (AICAP_ROUTES_BEFORE_PLUGIN) when routes were registered before the plugin, which cannot see them', async () => {
    const warnings: Array<{ code: string | undefined; message: string }> = [];
    const onWarning = (warning: Error & { code?: string }): void => void warnings.push({ code: warning.code, message: warning.message });
    process.on('warning', onWarning);
    try {
      const app = Fastify();
      app.get('/early', { config: { ai: { id: 'early', description: 'Too early' } } }, async () => 'x');
      await app.register(aicapPlugin, { manifest: base, deriveTools: true });
      app.get('/late', { config: { ai: { id: 'late', description: 'In time' } } }, async () => 'y');
      expect((await derivedManifest(app)).tools.map((tool) => tool.id)).toEqual(['late']);
      await app.close();
      // Node delivers warnings on the next tick.
      await new Promise((resolve) => setImmediate(resolve));
      const warning = warnings.find((entry) => entry.code === 'AICAP_ROUTES_BEFORE_PLUGIN');
      expect(warning?.message).toMatch(/1 route\(s\) came before it.*Register the plugin first/);
    } finally {
      process.off('warning', onWarning);
    }
  });

  it('never invents auth: scopes without a declared auth make ready() reject with what to add', async () => {
    const app = Fastify();
    await app.register(aicapPlugin, { manifest: noAuth, deriveTools: true });
    app.get('/orders', { config: { ai: { id: 'list_orders', description: 'Lists orders', scopes: ['read'] } } }, async () => []);
    await expect(app.ready()).rejects.toThrow(/list_orders carry `scopes` but the base manifest declares no `auth`: add `auth: \{ type: 'bearer' \}`/);
    await app.close();
  });
});
