import { readFileSync } from 'node:fs';
import { Hono } from 'hono';
import { serve } from '@hono/node-server';
import type { Manifest } from 'aicap';
import { aiCapabilities } from 'aicap/hono';

const manifest = JSON.parse(readFileSync('ai-capabilities.json', 'utf8')) as Manifest;
const scopesByToken: Record<string, string[]> = { 'Bearer reader-token': ['read'] };
const app = new Hono();
app.use(aiCapabilities({ manifest, resolveScopes: (request) => scopesByToken[request.headers.get('Authorization') ?? ''] }));
app.get('/orders/:id', (context) => context.json({ id: context.req.param('id') }));
serve({ fetch: app.fetch, port: 3000 });
