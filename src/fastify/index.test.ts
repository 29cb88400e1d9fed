import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import type { Manifest } from '../manifest/manifest-v0.js';
import { aicapPlugin } from './index.js';

const base = { schema_version: '0.1.0', service: { name: 'Orders', base_url: 'https://orders.example.com/api' } };

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
});
