/**
 * Runs one scenario of `conformance/mcp/bridge.json` against the reference MCP bridge: a loopback
 * server serves the scenario's manifest and API answers, `aicap/client` discovers it, `aicap/mcp`
 * bridges it, and a real MCP SDK client sends the scenario's requests over a linked in-memory
 * transport pair (a session, as stdio is). `editBridgeMessage` rewrites what the bridge sends before
 * the host reads it: a bridge broken on purpose, to show that a scenario can fail.
 */
import { Client as McpClient, InMemoryTransport, ProtocolError, type JSONRPCMessage } from '@modelcontextprotocol/client';
import { createClient } from '../../src/client/index.js';
import { createMcpBridge } from '../../src/mcp/index.js';
import { json, startClientTestServer, type ClientTestServer } from '../helpers/client-test-server.js';
import { fillValue, pointerValue, type ScenarioOutcome } from './run-producer-scenario.js';

/** Items of the array at `in` whose members at each `where` pointer equal the given values. */
interface Selection {
  in: string;
  where: Record<string, unknown>;
}

/** One MCP request a host sends the bridge, and what its answer must hold. */
export interface McpExchange {
  method: 'tools/list' | 'tools/call' | 'resources/list' | 'resources/templates/list' | 'resources/read' | 'prompts/list' | 'prompts/get';
  params?: Record<string, unknown>;
  /** The scenario is not applicable (skip) when the answer has no such item (a bridge that offers no MCP Apps page). */
  when?: { found: Selection };
  /** `${name}` for later requests and expectations: the value at `pointer` of the first item selected. */
  capture?: Record<string, Selection & { pointer: string }>;
  expect: {
    /** `false`: a result; `{ code }`: a JSON-RPC error with that code. */
    error: false | { code: number };
    /** Every origin declared in a `_meta.ui.csp` anywhere in the answer is one the manifest lists for that use (Appendix A.1). */
    ui_origins_listed?: true;
    /** How many items each selection holds. */
    found?: Array<Selection & { count: number }>;
  };
}

/** One scenario of `conformance/mcp/bridge.json`. */
export interface McpScenario {
  id: string;
  description: string;
  spec_section: string;
  level: 'MUST' | 'SHOULD';
  /** The manifest served at the well-known path of the scenario's origin (`${origin}`). */
  manifest: Record<string, unknown>;
  /** API answers by path, one per request in turn, the last repeated (the shape of the client scenarios' `routes`). */
  routes?: Record<string, Array<{ status: number; headers: Record<string, string>; body_json?: unknown; body_text?: string }>>;
  requests: McpExchange[];
}

/** A rewrite of each JSON-RPC message the bridge sends (a broken bridge), told the API's origin; identity by default. */
export type BridgeMessageEdit = (message: JSONRPCMessage, scenario: { origin: string }) => JSONRPCMessage;

class Expectation extends Error {}
class NotApplicable extends Error {}

/** Runs `scenario` against the reference bridge, whose messages pass through `editBridgeMessage`. */
export async function runMcpScenario(scenario: McpScenario, editBridgeMessage: BridgeMessageEdit = (message) => message): Promise<ScenarioOutcome> {
  const api = await startClientTestServer();
  const variables: Record<string, string> = { origin: api.origin };
  const manifest = fillValue(scenario.manifest, variables) as Record<string, unknown>;
  serveScenario(api, manifest, scenario.routes, variables);
  const client = createClient({ agentId: 'conformance-mcp' });
  let mcp: McpClient | undefined;
  let served: Promise<void> | undefined;
  try {
    await client.discover(api.origin);
    const bridge = await createMcpBridge({ client });
    const [hostSide, bridgeSide] = InMemoryTransport.createLinkedPair();
    const send = bridgeSide.send.bind(bridgeSide);
    bridgeSide.send = (message, options) => send(editBridgeMessage(structuredClone(message), { origin: api.origin }), options);
    served = bridge.serveStdio({ transport: bridgeSide });
    mcp = new McpClient({ name: 'conformance-host', version: '1.0.0' }, { capabilities: {} });
    await mcp.connect(hostSide);
    for (const [index, exchange] of scenario.requests.entries()) await runExchange(mcp, exchange, manifest, variables, `request ${index + 1} (${exchange.method})`);
    return { outcome: 'pass', message: scenario.description };
  } catch (error) {
    if (error instanceof NotApplicable) return { outcome: 'skip', message: error.message };
    if (error instanceof Expectation) return { outcome: 'fail', message: error.message };
    throw error;
  } finally {
    await mcp?.close();
    await served;
    await client.close();
    await api.close();
  }
}

function serveScenario(api: ClientTestServer, manifest: unknown, routes: McpScenario['routes'], variables: Record<string, string>): void {
  api.routes.set('/.well-known/ai-capabilities', json(manifest, { 'content-type': 'application/ai-capabilities+json', 'cache-control': 'no-cache' }));
  for (const [path, answers] of Object.entries(routes ?? {})) {
    let served = 0;
    api.routes.set(path, (_request, response) => {
      const answer = fillValue(answers[Math.min(served++, answers.length - 1)], variables) as NonNullable<McpScenario['routes']>[string][number];
      response.writeHead(answer.status, answer.headers).end(answer.body_text ?? JSON.stringify(answer.body_json));
    });
  }
}

async function runExchange(mcp: McpClient, exchange: McpExchange, manifest: Record<string, unknown>, variables: Record<string, string>, where: string): Promise<void> {
  const params = fillValue(exchange.params ?? {}, variables) as Record<string, unknown>;
  let answer: unknown;
  let errorCode: number | undefined;
  try {
    answer = await send(mcp, exchange.method, params);
  } catch (error) {
    if (!(error instanceof ProtocolError)) throw error;
    errorCode = error.code;
  }
  const expected = exchange.expect;
  if (expected.error === false && errorCode !== undefined) throw new Expectation(`${where}: expected a result, got JSON-RPC error ${errorCode}`);
  if (expected.error !== false && errorCode !== expected.error.code) throw new Expectation(`${where}: expected JSON-RPC error ${expected.error.code}, got ${errorCode ?? 'a result'}`);
  if (exchange.when && selected(answer, exchange.when.found, variables).length === 0)
    throw new NotApplicable(`${where}: no item of ${exchange.when.found.in} has ${JSON.stringify(exchange.when.found.where)}`);
  for (const [name, selection] of Object.entries(exchange.capture ?? {})) {
    const value = pointerValue(selected(answer, selection, variables)[0], selection.pointer);
    if (typeof value !== 'string') throw new Expectation(`${where}: nothing to capture as ${name} at ${selection.in} ${selection.pointer}`);
    variables[name] = value;
  }
  for (const selection of expected.found ?? []) {
    const count = selected(answer, selection, variables).length;
    if (count !== selection.count) throw new Expectation(`${where}: expected ${selection.count} item(s) of ${selection.in} with ${JSON.stringify(selection.where)}, found ${count}`);
  }
  if (expected.ui_origins_listed) {
    const unlisted = unlistedUiOrigins(answer, manifest);
    if (unlisted.length > 0) throw new Expectation(`${where}: the bridge declares origins the manifest does not list in ui: ${unlisted.join('; ')}`);
  }
}

/** Sends one request through the SDK client's method for it. */
function send(mcp: McpClient, method: McpExchange['method'], params: Record<string, unknown>): Promise<unknown> {
  switch (method) {
    case 'tools/list':
      return mcp.listTools(params);
    case 'tools/call':
      return mcp.callTool(params as { name: string; arguments?: Record<string, unknown> });
    case 'resources/list':
      return mcp.listResources(params);
    case 'resources/templates/list':
      return mcp.listResourceTemplates(params);
    case 'resources/read':
      return mcp.readResource(params as { uri: string });
    case 'prompts/list':
      return mcp.listPrompts(params);
    case 'prompts/get':
      return mcp.getPrompt(params as { name: string; arguments?: Record<string, string> });
  }
}

function selected(answer: unknown, selection: Selection, variables: Record<string, string>): unknown[] {
  const items = pointerValue(answer, selection.in);
  if (!Array.isArray(items)) return [];
  const where = fillValue(selection.where, variables) as Record<string, unknown>;
  return items.filter((item) => Object.entries(where).every(([pointer, value]) => JSON.stringify(pointerValue(item, pointer)) === JSON.stringify(value)));
}

/**
 * Each origin under a `_meta.ui.csp` of the answer that the manifest's `ui` members do not list for
 * that use: `connectDomains` against `connect_domains`, `resourceDomains` against `resource_domains`
 * (of any of its resources), and any other list (`frameDomains`, `baseUriDomains`) against nothing,
 * since a manifest has no member for it. Entries are compared as origins; one that is not a URL is
 * never listed.
 */
function unlistedUiOrigins(answer: unknown, manifest: Record<string, unknown>): string[] {
  const resources = (manifest['resources'] ?? []) as Array<{ ui?: { connect_domains?: string[]; resource_domains?: string[] } }>;
  const listed = (member: 'connect_domains' | 'resource_domains'): Set<string> => new Set(resources.flatMap((resource) => (resource.ui?.[member] ?? []).map(originOf)));
  const allowed: Record<string, Set<string>> = { connectDomains: listed('connect_domains'), resourceDomains: listed('resource_domains') };
  const unlisted: string[] = [];
  const visit = (node: unknown, pointer: string, depth: number): void => {
    if (node === null || typeof node !== 'object' || depth > 64) return;
    const csp = pointerValue(node, '/_meta/ui/csp');
    if (csp !== null && typeof csp === 'object')
      for (const [kind, entries] of Object.entries(csp))
        for (const entry of Array.isArray(entries) ? (entries as unknown[]) : [])
          if (!(allowed[kind] ?? new Set()).has(originOf(entry))) unlisted.push(`${pointer}/_meta/ui/csp/${kind} has ${JSON.stringify(entry)}`);
    for (const [key, child] of Object.entries(node)) visit(child, `${pointer}/${key}`, depth + 1);
  };
  visit(answer, '', 0);
  return unlisted;
}

function originOf(entry: unknown): string {
  return typeof entry === 'string' && URL.canParse(entry) ? new URL(entry).origin : `not an origin: ${JSON.stringify(entry)}`;
}
