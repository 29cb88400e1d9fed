import { createServer } from 'node:http';
import type { Manifest } from 'aicap';
import { createChangeFeedHandler, createManifestHandler, toNodeListener } from 'aicap/server';

const manifest: Manifest = {
  schema_version: '0.3.0',
  service: { name: 'Payments', base_url: 'https://api.example.com' },
  change_feed: { path: '/.well-known/ai-capabilities/changes', heartbeat_interval_seconds: 15 },
  tools: [{ id: 'refund_payment', method: 'POST', path: '/refunds', description: 'Refunds a payment.' }],
};
const manifestHandler = createManifestHandler({ manifest });
const changes = createChangeFeedHandler({ manifestHandler });
createServer(toNodeListener((request) => (new URL(request.url).pathname === changes.path ? changes(request) : manifestHandler(request)))).listen(3000);
// Later, to revoke the tool: every following client refuses it within a round trip.
await manifestHandler.update({ ...manifest, tools: [] });
