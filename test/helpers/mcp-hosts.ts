import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createInterface } from 'node:readline';
import { Client as V2Client, StreamableHTTPClientTransport, type VersionNegotiationMode } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as V1StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport as V1StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { BUILT_CLI } from './run-built-cli.js';
import type { Client as AicapClient } from '../../src/client/index.js';
import { createMcpBridge } from '../../src/mcp/index.js';
import { toNodeListener } from '../../src/server/index.js';

/** What the fake user answers to the bridge's elicitation requests. */
export type ElicitationAnswer = 'accept' | 'decline' | 'cancel';

/** A host's record of what it was asked. */
export interface ElicitationLog {
  /** Messages of the elicitation requests, in order. */
  messages: string[];
  /** The answer the next questions get. */
  answer: ElicitationAnswer;
}

/** Where a host connects: the built CLI over stdio (its arguments), or an HTTP endpoint. */
export type HostTarget = { stdio: readonly string[] } | { url: string };

/** The answer a form elicitation gets: `approve: true` for approvals, the first option for a job's question. */
function answerFor(schema: { properties?: Record<string, { enum?: string[] }> } | undefined, answer: ElicitationAnswer): { action: ElicitationAnswer; content?: Record<string, string | boolean> } {
  if (answer !== 'accept') return { action: answer };
  const properties = schema?.properties ?? {};
  return { action: 'accept', content: 'approve' in properties ? { approve: true } : { answer: properties['answer']?.enum?.[0] ?? 'yes' } };
}

/** A v2 SDK client (`@modelcontextprotocol/client`) in the given negotiation mode, declaring elicitation unless told not to. */
export async function connectV2Host(target: HostTarget, options: { mode: VersionNegotiationMode; elicitation?: boolean }): Promise<{ client: V2Client; log: ElicitationLog }> {
  const log: ElicitationLog = { messages: [], answer: 'accept' };
  const client = new V2Client({ name: 'test-host-v2', version: '1.0.0' }, { capabilities: options.elicitation === false ? {} : { elicitation: {} }, versionNegotiation: { mode: options.mode } });
  if (options.elicitation !== false) {
    client.setRequestHandler('elicitation/create', (request) => {
      log.messages.push(request.params.message);
      return answerFor('requestedSchema' in request.params ? (request.params.requestedSchema as never) : undefined, log.answer);
    });
  }
  const transport =
    'url' in target ? new StreamableHTTPClientTransport(new URL(target.url)) : new StdioClientTransport({ command: process.execPath, args: [BUILT_CLI, ...target.stdio], stderr: 'pipe' });
  await client.connect(transport);
  return { client, log };
}

/** A v1 SDK client (`@modelcontextprotocol/sdk`, 2025-11-25), declaring elicitation. */
export async function connectV1Host(target: HostTarget): Promise<{ client: V1Client; log: ElicitationLog }> {
  const log: ElicitationLog = { messages: [], answer: 'accept' };
  const client = new V1Client({ name: 'test-host-v1', version: '1.0.0' }, { capabilities: { elicitation: {} } });
  client.setRequestHandler(ElicitRequestSchema, (request) => {
    log.messages.push(request.params.message);
    return answerFor('requestedSchema' in request.params ? (request.params.requestedSchema as never) : undefined, log.answer);
  });
  const transport =
    'url' in target ? new V1StreamableHTTPClientTransport(new URL(target.url)) : new V1StdioClientTransport({ command: process.execPath, args: [BUILT_CLI, ...target.stdio], stderr: 'pipe' });
  await client.connect(transport);
  return { client, log };
}

/** `aicap mcp … --http` running as a child process, with the endpoint it printed first on stdout. */
export interface HttpBridgeProcess {
  endpoint: string;
  child: ChildProcess;
  /** What it wrote on stderr so far. */
  stderr(): string;
  /** Stops it by its PID (SIGTERM) and waits for the exit code. */
  stop(): Promise<number | null>;
}

/** Starts the built CLI with `--http` and waits for the first stdout line (the endpoint URL), bounded in time. */
export async function startHttpBridge(args: readonly string[], timeoutInMs = 20_000): Promise<HttpBridgeProcess> {
  const child = spawn(process.execPath, [BUILT_CLI, 'mcp', ...args, '--http'], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const lines = createInterface({ input: child.stdout! });
  const timer = setTimeout(() => child.kill('SIGKILL'), timeoutInMs);
  try {
    const [first] = (await Promise.race([once(lines, 'line'), once(child, 'exit').then(() => [undefined])])) as [string | undefined];
    if (first === undefined) throw new Error(`aicap mcp --http exited before printing its endpoint: ${stderr}`);
    return {
      endpoint: first.trim(),
      child,
      stderr: () => stderr,
      async stop() {
        if (child.exitCode !== null) return child.exitCode;
        const exited = once(child, 'exit');
        child.kill('SIGTERM');
        const [code] = (await exited) as [number | null];
        return code;
      },
    };
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Serves `createMcpBridge({ client })` over HTTP on 127.0.0.1 and hands a v2 host connected to it (the
 * current protocol pinned) to `use`; everything is closed afterwards, whatever `use` does.
 */
export async function withBridgeHost<Result>(client: AicapClient, use: (host: V2Client) => Promise<Result>): Promise<Result> {
  const bridge = await createMcpBridge({ client });
  const server: Server = createServer(toNodeListener(bridge.fetch));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const { client: host } = await connectV2Host({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp` }, { mode: { pin: '2026-07-28' } });
    try {
      return await use(host);
    } finally {
      await host.close();
    }
  } finally {
    await bridge.close();
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}
