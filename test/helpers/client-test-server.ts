import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach } from 'vitest';

/** One request as the server saw it. */
export interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  body: string;
}

/** A route handler: write the response with `response`. */
export type TestRoute = (request: IncomingMessage, response: ServerResponse, body: string) => unknown;

/** A node:http server on 127.0.0.1, port 0, that records every request. */
export interface ClientTestServer {
  /** `http://127.0.0.1:<port>` */
  origin: string;
  port: number;
  /** Every request received, in order. */
  requests: RecordedRequest[];
  /** Routes by `METHOD /path` or `/path` (any method); replace freely between tests. */
  routes: Map<string, TestRoute>;
  /** Requests whose path equals `path`. */
  hits(path: string): RecordedRequest[];
  close(): Promise<void>;
}

/** Starts a recording server. Unknown routes answer 404. Close it in `afterAll`/`afterEach`. */
export async function startClientTestServer(host = '127.0.0.1'): Promise<ClientTestServer> {
  const requests: RecordedRequest[] = [];
  const routes = new Map<string, TestRoute>();
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const path = request.url ?? '/';
      requests.push({ method: request.method ?? 'GET', path, headers: request.headers, body });
      const pathname = path.split('?')[0]!;
      const route = routes.get(`${request.method} ${pathname}`) ?? routes.get(pathname);
      if (!route) {
        response.statusCode = 404;
        response.end('not found');
        return;
      }
      Promise.resolve(route(request, response, body)).catch(() => {
        if (!response.headersSent) response.statusCode = 500;
        response.end();
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    origin: `http://${host}:${port}`,
    port,
    requests,
    routes,
    hits: (path) => requests.filter((request) => request.path === path),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A route that answers JSON with the given status and headers. */
export function json(value: unknown, headers: Record<string, string> = {}, status = 200): TestRoute {
  return (_request, response) => {
    response.writeHead(status, { 'content-type': 'application/json', ...headers });
    response.end(typeof value === 'string' ? value : JSON.stringify(value));
  };
}

/** Two recording servers (two origins) shared by a test file. */
export interface ClientTestServers {
  /** The first origin (set once `beforeAll` ran). */
  a: ClientTestServer;
  /** The second origin. */
  b: ClientTestServer;
}

/**
 * Registers the hooks that start two recording servers before the file's tests, close them after,
 * and clear their request logs and routes before each test. Read `servers.a` / `servers.b` inside
 * tests and hooks, not at module level (they are set in `beforeAll`).
 */
export function useClientTestServers(): ClientTestServers {
  const servers = {} as ClientTestServers;
  beforeAll(async () => {
    servers.a = await startClientTestServer();
    servers.b = await startClientTestServer();
  });
  afterAll(async () => {
    await Promise.all([servers.a?.close(), servers.b?.close()]);
  });
  beforeEach(() => {
    for (const server of [servers.a, servers.b]) {
      server.requests.length = 0;
      server.routes.clear();
    }
  });
  return servers;
}

/**
 * A route that streams `totalInBytes` bytes in 64 KiB chunks, honouring backpressure, so a size cap
 * can be observed server-side: `written()` tells how many bytes the server managed to write.
 */
export function createLargeBodyRoute(totalInBytes: number, headers: Record<string, string> = {}): { route: TestRoute; written: () => number } {
  let written = 0;
  const route: TestRoute = (_request, response) => {
    response.writeHead(200, headers);
    const chunk = Buffer.alloc(64 * 1024, 97);
    const write = (): void => {
      while (written < totalInBytes) {
        written += chunk.length;
        if (!response.write(chunk)) return void response.once('drain', write);
      }
      response.end();
    };
    write();
  };
  return { route, written: () => written };
}
