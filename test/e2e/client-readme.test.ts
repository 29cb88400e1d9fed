import { afterAll, beforeAll, expect, it } from 'vitest';
import { createClient } from '../../src/client/index.js';
import { estimateTokens, exportTools, selectTools } from '../../src/tools/index.js';
import { json, startClientTestServer, type ClientTestServer } from '../helpers/client-test-server.js';
import { paymentsManifest } from '../helpers/client-manifests.js';

// The README's "Consumer quick start" and "aicap/tools" snippets, run against a loopback Payments API.
let server: ClientTestServer;

beforeAll(async () => {
  server = await startClientTestServer();
  server.routes.set('/.well-known/ai-capabilities', json(paymentsManifest(`${server.origin}/v2`), { 'cache-control': 'max-age=60' }));
  server.routes.set('POST /v2/transactions/analyze', json({ anomalies: [{ transaction_id: 't1', anomaly_type: 'duplicate', confidence: 0.9, details: 'twice' }], next_cursor: null }));
});
afterAll(async () => {
  await server.close();
});

it('runs the consumer quick start end to end', async () => {
  const token = 'tok-readme';
  const client = createClient({ agentId: 'support-bot' });
  const payments = await client.discover(server.origin, { credentials: { token }, grantedScopes: ['read'] });
  expect(payments.findings.filter((finding) => finding.severity === 'high')).toEqual([]);

  const catalog = client.catalog();
  expect(catalog.tools.map((tool) => tool.id)).not.toContain('close_account');
  const best = selectTools(catalog.tools, 'anything unusual on my account this month?', { limit: 3 });
  const { tools } = exportTools(
    best.map((entry) => entry.tool),
    'openai',
  );
  expect(tools[0]!.function.name).toBe('analyze_transactions');

  // The stub model picks the first tool.
  const result = await client.call(tools[0]!.function.name, { account_id: '12345' });
  expect(result.ok).toBe(true);
  const analyze = server.hits('/v2/transactions/analyze')[0]!;
  expect(analyze.headers.authorization).toBe(`Bearer ${token}`);
  expect(JSON.parse(analyze.body)).toMatchObject({ account_id: '12345' });

  const gemini = exportTools(catalog.tools, 'gemini');
  expect(gemini.dropped.length).toBeGreaterThan(0);
  const { tokens } = await estimateTokens(gemini.tools);
  expect(tokens).toBeGreaterThan(50);
  await client.close();
});
