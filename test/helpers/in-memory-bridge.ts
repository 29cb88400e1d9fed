import { Client as McpClient, InMemoryTransport } from '@modelcontextprotocol/client';
import { createClient, type Client, type ClientOptions } from '../../src/client/index.js';
import { createMcpBridge, type CreateMcpBridgeOptions, type McpBridge } from '../../src/mcp/index.js';

/** The origin of the API behind the in-memory bridge. */
export const BRIDGE_API_ORIGIN = 'https://api.example.test';

/** One request the client sent to the API. */
export interface ApiRequest {
  method: string;
  url: string;
  body: string | undefined;
}

/** Answers the API's requests other than the manifest's; the default answers `{}`. */
export type ApiAnswer = (request: ApiRequest) => Response | Promise<Response>;

/** What an in-memory bridge test drives: the host, and what reached the API and the user. */
export interface InMemoryBridge {
  /** A real MCP SDK client connected to the bridge over a linked in-memory transport. */
  mcp: McpClient;
  client: Client;
  bridge: McpBridge;
  /** Requests the client sent to the API, manifest excluded. */
  sent: ApiRequest[];
  /** Messages of the elicitation requests the host was asked. */
  asked: string[];
  close(): Promise<void>;
}

/** Options of {@link startInMemoryBridge}. */
export interface InMemoryBridgeOptions {
  /** Answers the API's calls. */
  answer?: ApiAnswer;
  /** The bridge's own options. */
  bridge?: Omit<CreateMcpBridgeOptions, 'client'>;
  /** The client's options (its `network.fetch` is the injected API). */
  client?: Omit<ClientOptions, 'network'>;
  /** How the host's user answers an approval; undefined: the host declares no elicitation. */
  user?: 'accept' | 'decline';
}

/** A JSON response. */
export function apiJson(data: unknown, status = 200): Response {
  return new Response(JSON.stringify(data), { status, headers: { 'content-type': 'application/json' } });
}

/**
 * A bridge over a client that discovered `manifest` through an injected `fetch` (no socket), served to
 * a real MCP SDK host over `InMemoryTransport.createLinkedPair()`: a failure points at the bridge.
 */
export async function startInMemoryBridge(manifest: Record<string, unknown>, options: InMemoryBridgeOptions = {}): Promise<InMemoryBridge> {
  const sent: ApiRequest[] = [];
  const answer = options.answer ?? (() => apiJson({}));
  const fetch = async (input: string | URL | Request, init: RequestInit = {}): Promise<Response> => {
    const url = String(input instanceof Request ? input.url : input);
    if (new URL(url).pathname === '/.well-known/ai-capabilities') return new Response(JSON.stringify(manifest), { headers: { 'content-type': 'application/ai-capabilities+json' } });
    const request: ApiRequest = {
      method: (init.method ?? 'GET').toUpperCase(),
      url,
      body: typeof init.body === 'string' ? init.body : init.body ? new TextDecoder().decode(init.body as Uint8Array) : undefined,
    };
    sent.push(request);
    return answer(request);
  };
  const client = createClient({ agentId: 'bridge-test', ...options.client, network: { fetch: fetch as never } });
  await client.discover(BRIDGE_API_ORIGIN);
  const bridge = await createMcpBridge({ client, ...options.bridge });
  const [hostSide, bridgeSide] = InMemoryTransport.createLinkedPair();
  const served = bridge.serveStdio({ transport: bridgeSide });
  const asked: string[] = [];
  const mcp = new McpClient({ name: 'test-host', version: '1.0.0' }, { capabilities: options.user ? { elicitation: {} } : {} });
  if (options.user) {
    const action = options.user;
    mcp.setRequestHandler('elicitation/create', (request) => {
      asked.push(request.params.message);
      return action === 'accept' ? { action, content: { approve: true } } : { action };
    });
  }
  await mcp.connect(hostSide);
  return {
    mcp,
    client,
    bridge,
    sent,
    asked,
    async close() {
      await mcp.close();
      await served;
      await bridge.close();
      await client.close();
    },
  };
}

/** The MCP error a host request was answered with; fails the test when it succeeded. */
export function protocolErrorOf(promise: Promise<unknown>): Promise<{ code: number; message: string }> {
  return promise.then(
    () => {
      throw new Error('expected an MCP error answer');
    },
    (error: { code: number; message: string }) => error,
  );
}
