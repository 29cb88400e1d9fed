// The MCP equivalent of the Payments API, for the side-by-side benchmarks: the SDK's low-level
// `Server` behind `StreamableHTTPServerTransport` on the SDK's own Express app factory, wired the
// way the SDK documents it (stateless: a new server and transport per request; stateful: one per
// session, kept in a map by `Mcp-Session-Id`).
//
// Tools: exactly what `aicap/tools` exports for MCP from the Payments manifest (the catalog of a client
// that loaded it, through `exportTools(…, 'mcp')`): same names, descriptions and JSON Schemas, so both
// sides describe the same thing. `list_transactions` does the REST endpoint's work in process on the
// same data (`createPaymentsData(42, 240)`): token and scope check, agent id check, account lookup,
// page and limit checks, slicing, JSON serialisation. It skips the REST side's per-agent rate-limit
// bookkeeping and `Link` header (slightly less work for MCP). The other tools answer `isError`: the
// benchmarks never call them.
import { randomUUID } from 'node:crypto';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { createMcpExpressApp } from '@modelcontextprotocol/sdk/server/express.js';
import { CallToolRequestSchema, ListToolsRequestSchema, isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { createClient } from 'aicap/client';
import { exportTools } from 'aicap/tools';
import { createPaymentsData } from '../../examples/payments/dist/payments-data.js';
import { PAYMENTS_TOKENS } from '../../examples/payments/dist/start-payments-server.js';

/**
 * The MCP `Tool` list aicap exports for a manifest.
 * @param {import('aicap').Manifest} manifest
 */
export async function mcpToolsOf(manifest) {
  const client = createClient();
  try {
    await client.load(manifest);
    return exportTools(client.catalog().tools, 'mcp').tools;
  } finally {
    await client.close();
  }
}

/**
 * An MCP server app (Streamable HTTP on the SDK's own Express app, or on bare `node:http` with
 * `framework: 'node'`) that lists `tools`, in either mode the SDK documents: stateless (a new server
 * and transport per request) or stateful (one per session, kept in a map by `Mcp-Session-Id`); with
 * `enableJsonResponse`, answers are plain JSON instead of a one-event SSE stream (the SDK's fastest
 * mode for request/response). On `node:http` the body is read and parsed as `express.json()` would,
 * and there is no Host check (slightly less work than on the SDK's Express app).
 * @param {{ mode: 'stateless' | 'stateful', tools: unknown[], enableJsonResponse?: boolean, callTool?: (request: any, extra: any) => Promise<unknown>, framework?: 'express' | 'node' }} options
 * @returns {{ app: import('express').Express | import('node:http').RequestListener, sessions: Map<string, StreamableHTTPServerTransport> }}
 */
export function createMcpToolsApp(options) {
  const { tools } = options;
  const callTool = options.callTool ?? (async (request) => failure(`The benchmark's MCP server implements no tool (${request.params.name}).`));
  const createServer = () => {
    const server = new Server({ name: 'aicap-bench', version: '1.0.0' }, { capabilities: { tools: {} } });
    server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools }));
    server.setRequestHandler(CallToolRequestSchema, callTool);
    return server;
  };
  const transportOptions = options.enableJsonResponse ? { enableJsonResponse: true } : {};
  const sessions = new Map();
  const handlers = options.mode === 'stateless' ? statelessHandlers(createServer, transportOptions) : statefulHandlers(createServer, transportOptions, sessions);
  if (options.framework === 'node') return { app: nodeListener(handlers), sessions };
  const app = createMcpExpressApp({ host: '127.0.0.1' });
  app.post('/mcp', (request, response) => handlers.post(request, response, request.body));
  app.get('/mcp', handlers.other);
  app.delete('/mcp', handlers.other);
  return { app, sessions };
}

/** Stateless: a new server and transport per POST; GET and DELETE are refused. */
function statelessHandlers(createServer, transportOptions) {
  return {
    async post(request, response, body) {
      const server = createServer();
      const transport = new StreamableHTTPServerTransport({ ...transportOptions, sessionIdGenerator: undefined });
      response.on('close', () => {
        void transport.close();
        void server.close();
      });
      await server.connect(transport);
      await transport.handleRequest(request, response, body);
    },
    other: (_request, response) => sendJson(response, 405, jsonRpcError('Method not allowed.'), { Allow: 'POST' }),
  };
}

/** Stateful: `initialize` opens a session (server + transport kept by id); later requests name it. */
function statefulHandlers(createServer, transportOptions, sessions) {
  return {
    async post(request, response, body) {
      const sessionId = request.headers['mcp-session-id'];
      let transport = sessionId === undefined ? undefined : sessions.get(sessionId);
      if (!transport) {
        if (sessionId !== undefined || !isInitializeRequest(body)) return sendJson(response, 400, jsonRpcError('No valid session id.'));
        const created = new StreamableHTTPServerTransport({
          ...transportOptions,
          sessionIdGenerator: () => randomUUID(),
          onsessioninitialized: (id) => void sessions.set(id, created),
        });
        created.onclose = () => {
          if (created.sessionId !== undefined) sessions.delete(created.sessionId);
        };
        await createServer().connect(created);
        transport = created;
      }
      await transport.handleRequest(request, response, body);
    },
    async other(request, response) {
      const transport = sessions.get(request.headers['mcp-session-id'] ?? '');
      if (!transport) return sendJson(response, 400, jsonRpcError('No valid session id.'));
      await transport.handleRequest(request, response);
    },
  };
}

/** The handlers on bare `node:http`: `/mcp` only, a POST body read and parsed as JSON first. */
function nodeListener(handlers) {
  return (request, response) => {
    if (new URL(request.url ?? '/', 'http://localhost').pathname !== '/mcp') return void sendJson(response, 404, jsonRpcError('Not found.'));
    if (request.method !== 'POST') return void handlers.other(request, response);
    const chunks = [];
    request.on('data', (chunk) => chunks.push(chunk));
    request.on('end', () => {
      let body;
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch {
        return void sendJson(response, 400, { jsonrpc: '2.0', error: { code: -32700, message: 'Parse error.' }, id: null });
      }
      void handlers.post(request, response, body);
    });
  };
}

function sendJson(response, status, value, headers = {}) {
  response.writeHead(status, { ...headers, 'content-type': 'application/json' }).end(JSON.stringify(value));
}

/**
 * The Payments tools as an MCP server; `callTool('list_transactions')` does the REST endpoint's work.
 * @param {{ mode: 'stateless' | 'stateful', manifest: import('aicap').Manifest, enableJsonResponse?: boolean, framework?: 'express' | 'node' }} options
 */
export async function createMcpPaymentsApp(options) {
  const tools = await mcpToolsOf(options.manifest);
  const accounts = createPaymentsData(42, 240);
  const callTool = async (request, extra) => {
    if (request.params.name !== 'list_transactions') return failure(`The benchmark's MCP server implements only list_transactions, not ${request.params.name}.`);
    return listTransactions(accounts, request.params.arguments ?? {}, extra.requestInfo?.headers ?? {});
  };
  return createMcpToolsApp({ mode: options.mode, tools, enableJsonResponse: options.enableJsonResponse, callTool, ...(options.framework ? { framework: options.framework } : {}) });
}

/** The four MCP server modes the benchmarks run; every MCP figure is taken against the fastest of them. */
export const MCP_MODES = [
  { key: 'Stateless', mode: 'stateless', enableJsonResponse: false, label: 'stateless, SSE answers' },
  { key: 'StatelessJson', mode: 'stateless', enableJsonResponse: true, label: 'stateless, JSON answers' },
  { key: 'Stateful', mode: 'stateful', enableJsonResponse: false, label: 'stateful, SSE answers' },
  { key: 'StatefulJson', mode: 'stateful', enableJsonResponse: true, label: 'stateful, JSON answers' },
];

/** The REST handler's checks and answer for `GET /v2/accounts/{account_id}/transactions`. */
function listTransactions(accounts, args, headers) {
  const token = /^Bearer\s+(\S+)$/i.exec(String(headers['authorization'] ?? '').trim())?.[1];
  const scopes = token !== undefined && Object.hasOwn(PAYMENTS_TOKENS, token) ? PAYMENTS_TOKENS[token] : undefined;
  if (!scopes) return failure('Unauthorized: send `Authorization: Bearer demo-read`.');
  const agentId = headers['x-agent-id'];
  if (typeof agentId !== 'string' || !/^[\x21-\x7e]{1,128}$/.test(agentId)) return failure('Every call must carry an `X-Agent-ID` header.');
  if (!scopes.includes('read')) return failure('This operation needs the `read` scope.');
  const account = typeof args['account_id'] === 'string' ? accounts.get(args['account_id']) : undefined;
  if (!account) return failure(`There is no account ${JSON.stringify(String(args['account_id']).slice(0, 64))}.`);
  const page = args['page'] ?? 1;
  const limit = args['limit'] ?? 20;
  if (!Number.isInteger(page) || page < 1 || !Number.isInteger(limit) || limit < 1 || limit > 50) return failure('`page` must be an integer ≥ 1 and `limit` an integer from 1 to 50.');
  const total = account.transactions.length;
  const body = {
    account_id: account.account_id,
    transactions: account.transactions.slice((page - 1) * limit, page * limit),
    page,
    limit,
    total,
    total_pages: Math.max(1, Math.ceil(total / limit)),
  };
  return { content: [{ type: 'text', text: JSON.stringify(body) }] };
}

function failure(message) {
  return { isError: true, content: [{ type: 'text', text: message }] };
}

function jsonRpcError(message) {
  return { jsonrpc: '2.0', error: { code: -32000, message }, id: null };
}
