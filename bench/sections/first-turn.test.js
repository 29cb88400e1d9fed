// The first turn's token spread over a request set: each request selects its own five tools, and the
// set's figures must be those of the exports a model would get for them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from 'aicap/client';
import { estimateTokens, exportTools } from 'aicap/tools';
import { startPaymentsServer } from '../../examples/payments/dist/start-payments-server.js';
import { tokensOverRequests } from './first-turn.js';

let payments;
let exportTokens;

beforeAll(async () => {
  payments = await startPaymentsServer({ rateLimit: { requests: 1_000, windowInMs: 60_000 } });
  const client = createClient();
  try {
    await client.discover(payments.origin);
    // Payments has five tools, so every request's five are all of them.
    exportTokens = (await estimateTokens(JSON.stringify(exportTools(client.catalog().tools, 'openai').tools))).tokens;
  } finally {
    await client.close();
  }
});

afterAll(async () => {
  await payments?.close();
});

describe('tokensOverRequests', () => {
  it('divides the MCP tokens by the tokens of each request’s five tools', async () => {
    const requests = ['Show my last transactions', 'Close the account of this customer', 'Raise the card limit'];
    const spread = await tokensOverRequests(payments.origin, { label: 'three requests', requests }, exportTokens * 60);
    expect(spread).toEqual({ set: 'three requests', requests: 3, median: 60, p25: 60, p75: 60, least: 60, belowFifty: 0 });
    const lower = await tokensOverRequests(payments.origin, { label: 'three requests', requests }, exportTokens * 40);
    expect(lower.belowFifty).toBe(3);
  });

  it('refuses an empty set instead of reporting no spread', async () => {
    await expect(tokensOverRequests(payments.origin, { label: 'nothing', requests: [] }, 1000)).rejects.toThrow('The request set nothing is empty.');
  });
});
