import express from 'express';
import type { Manifest } from 'aicap';
import { createClient } from 'aicap/client';
import { aiCapabilities } from 'aicap/express';
import { exportTools, selectTools } from 'aicap/tools';

declare const manifest: Manifest, token: string, userRequest: string;
declare function askTheHuman(request: { toolId: string; arguments: Record<string, unknown> }): Promise<boolean>;

// Producer: one line in an existing Express API (Fastify, Hono and node:http alike).
const app = express();
app.use(aiCapabilities({ manifest })); // validated at start-up; canonical bytes, ETag, 304, CORS

// Orchestrator: discover, hand the model the few tools that fit, call the one it picks.
const client = createClient({ agentId: 'support-bot', approve: askTheHuman });
await client.discover('https://api.example.com', { credentials: { token } });
const picked = selectTools(client.catalog().tools, userRequest, { limit: 5 });
export const forTheModel = exportTools(picked.map((entry) => entry.tool), 'openai').tools;
export const result = await client.call('list_transactions', { account_id: '12345' }); // ok, data, items, error.userMessage
