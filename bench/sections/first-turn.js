// What one turn of a fresh client costs to hand a model its tools, in time and in tokens:
// MCP `connect` + `listTools` + every tool converted to OpenAI Chat Completions tools (what a host
// puts in the prompt), against aicap `client.discover` + `selectTools` (5 for the request) +
// `exportTools(…, 'openai')`. Each iteration starts from a new client and a new connection pool.
// The poisoning scan is in the aicap side: discovery no longer scans (`trust.scan: 'on-export'`), and
// `selectTools` and `exportTools` scan the picked tools (with the definitions their inputs reach) there.
// aicap runs twice: a first contact (an empty cache store), and a new process of a deployed agent, whose
// store holds what an earlier process recorded (the manifest's verdicts and the selection index) but
// no HTTP entry, so it still downloads the whole manifest as the first contact does.
// Tokens: gpt-tokenizer (`o200k_base`, through `estimateTokens` of `aicap/tools`) of the JSON tools array,
// for the section's one request and, untimed, for each request of a labelled set (`requests`): which
// five tools a request selects decides what they cost, so one request alone says little about a turn.
import { Agent, fetch as undiciFetch } from 'undici';
import { createClient } from 'aicap/client';
import { estimateTokens, exportTools, selectTools } from 'aicap/tools';
import { compareVariants, cpuRatios, fastestOf, pairedRatio, round, spreadOf, withoutSamples } from '../lib/measure.js';
import { createMcpClient } from '../lib/mcp-client.js';
import { createRecordsOnlyStore } from '../lib/records-only-store.js';
import { MCP_MODES } from '../lib/mcp-payments-app.js';

const SELECTED = 5;

/** An MCP tool as an OpenAI Chat Completions tool: what a host that forwards MCP tools sends. */
function toOpenAiTool(tool) {
  return { type: 'function', function: { name: tool.name, ...(tool.description ? { description: tool.description } : {}), parameters: tool.inputSchema } };
}

/**
 * @param {{ origin: string, mcpOrigins: Record<string, string>, query: string, requests?: { label: string, requests: string[] }, serverCpuInMs?: () => number,
 *   iterations: { warmupIterations: number, iterations: number, minIterations?: number, maxTimeInMs: number } }} context
 */
export async function benchmarkFirstTurn(context) {
  let mcpTools;
  let aicapTools;
  const mcpVariants = MCP_MODES.map((mode) => ({
    name: `MCP connect + listTools + convert all, ${mode.label}`,
    async setup() {
      const dispatcher = new Agent();
      return { dispatcher, mcp: createMcpClient(`${context.mcpOrigins[mode.key]}/mcp`, { fetch: (url, init) => undiciFetch(url, { ...init, dispatcher }) }) };
    },
    async run({ mcp }) {
      await mcp.connect();
      const { tools } = await mcp.client.listTools();
      return tools.map(toOpenAiTool);
    },
    check(tools) {
      if (tools.length === 0) throw new Error('MCP listed no tools.');
      mcpTools = tools;
    },
    async teardown({ dispatcher, mcp }) {
      await mcp.close();
      await dispatcher.close();
    },
  }));
  const firstTurn = async (client) => {
    await client.discover(context.origin);
    const selected = selectTools(client.catalog().tools, context.query, { limit: SELECTED });
    return exportTools(
      selected.map((entry) => entry.tool),
      'openai',
    ).tools;
  };
  const check = (tools) => {
    if (tools.length !== SELECTED) throw new Error(`Expected ${SELECTED} selected tools, got ${tools.length}.`);
    aicapTools = tools;
  };
  const aicap = {
    name: `aicap discover + select ${SELECTED} + export (new client)`,
    setup: async () => createClient(),
    run: firstTurn,
    check,
    teardown: (client) => client.close(),
  };
  const records = createRecordsOnlyStore(['verified', 'selection-index']);
  const known = {
    name: `aicap discover + select ${SELECTED} + export (new client, store holding the verdicts and the index)`,
    setup: async () => createClient({ cache: records }),
    run: firstTurn,
    check,
    teardown: (client) => client.close(),
  };
  // The earlier process: its records are written by the time its client is closed.
  const earlier = await known.setup();
  await firstTurn(earlier);
  await known.teardown(earlier);
  const rows = await compareVariants([aicap, known, ...mcpVariants], { ...context.iterations, ...(context.serverCpuInMs ? { serverCpuInMs: context.serverCpuInMs } : {}) });
  const [aicapRow, knownRow, ...mcpRows] = rows;
  const fastestMcp = fastestOf(mcpRows);
  const mcpText = JSON.stringify(mcpTools);
  const aicapText = JSON.stringify(aicapTools);
  const mcpTokens = (await estimateTokens(mcpText)).tokens;
  const aicapTokens = (await estimateTokens(aicapText)).tokens;
  return {
    query: context.query,
    rows: withoutSamples(rows),
    versusMcp: pairedRatio(fastestMcp.samples, aicapRow.samples, fastestMcp.name),
    ...cpuRatios(aicapRow, undefined, fastestMcp),
    known: { versusMcp: pairedRatio(fastestMcp.samples, knownRow.samples, fastestMcp.name), ...cpuRatios(knownRow, undefined, fastestMcp) },
    tokens: {
      selected: aicapTools.map((tool) => tool.function.name),
      mcp: mcpTokens,
      aicap: aicapTokens,
      mcpBytes: Buffer.byteLength(mcpText),
      aicapBytes: Buffer.byteLength(aicapText),
      fewer: Math.round((mcpTokens / aicapTokens) * 10) / 10,
      ...(context.requests ? { overRequests: await tokensOverRequests(context.origin, context.requests, mcpTokens) } : {}),
    },
  };
}

/** MCP's tokens ÷ the tokens of the five tools each request selects: their spread over the set, untimed. */
export async function tokensOverRequests(origin, { label, requests }, mcpTokens) {
  if (requests.length === 0) throw new Error(`The request set ${label} is empty.`);
  const client = createClient();
  try {
    await client.discover(origin);
    const { tools } = client.catalog();
    const ratios = [];
    for (const request of requests) {
      const selected = selectTools(tools, request, { limit: SELECTED }).map((entry) => entry.tool);
      ratios.push(mcpTokens / (await estimateTokens(JSON.stringify(exportTools(selected, 'openai').tools))).tokens);
    }
    const spread = spreadOf(ratios);
    return {
      set: label,
      requests: requests.length,
      median: round(spread.median, 1),
      p25: round(spread.p25, 1),
      p75: round(spread.p75, 1),
      least: round(Math.min(...ratios), 1),
      belowFifty: ratios.filter((ratio) => ratio < 50).length,
    };
  } finally {
    await client.close();
  }
}
