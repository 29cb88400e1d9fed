import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { guardInspectorRequest, INSPECTOR_COOKIE } from './inspector-request-guard.js';
import { createInspectorSession, type InspectorSession, type InspectorSessionOptions } from './inspector-session.js';
import { routeInspectorApi } from './route-inspector-api.js';

/** Options of {@link startInspector}. */
export interface StartInspectorOptions extends InspectorSessionOptions {
  /** Port on 127.0.0.1; `0` picks a free one. @default 0 */
  port?: number;
  /** An origin (`https://…`) or a manifest file to load before the first page view. @default none (type an origin in the page) */
  source?: string;
  /** Bearer token for the first load. @default none */
  token?: string;
}

/** A running inspector. */
export interface Inspector {
  /** The URL to open: `http://127.0.0.1:PORT/?token=…`. Anyone with it can use the inspector. */
  url: string;
  /** `http://127.0.0.1:PORT`. */
  origin: string;
  /** The state behind the page. */
  session: InspectorSession;
  /** Stops the server and the client. */
  close(): Promise<void>;
}

const ASSETS: Record<string, { file: string; type: string }> = {
  '/': { file: 'index.html', type: 'text/html; charset=utf-8' },
  '/app.js': { file: 'app.js', type: 'text/javascript; charset=utf-8' },
  '/app.css': { file: 'app.css', type: 'text/css; charset=utf-8' },
};
const ASSET_DIRECTORY = new URL('../../assets/inspector/', import.meta.url);

// Nothing from a manifest or a response is ever HTML (the page builds text nodes only); the policy
// makes sure that even a mistake there could not load or run anything from elsewhere.
const SECURITY_HEADERS = {
  'content-security-policy': "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'cache-control': 'no-store',
  'cross-origin-resource-policy': 'same-origin',
  'x-frame-options': 'DENY',
};

/**
 * Starts the inspector's web app on 127.0.0.1 with a fresh random token. The page (static assets
 * shipped in the package, no CDN) talks to the JSON API under `/api/`, which runs everything
 * through one aicap client.
 */
export async function startInspector(options: StartInspectorOptions = {}): Promise<Inspector> {
  const token = randomBytes(24).toString('base64url');
  const session = createInspectorSession(options);
  const assets = new Map<string, Buffer>();
  for (const [path, asset] of Object.entries(ASSETS)) assets.set(path, await readFile(new URL(asset.file, ASSET_DIRECTORY)));
  let port = 0;
  const server = createServer((request, response) => {
    void handle(request, response).catch((error: unknown) => answerJson(response, 500, { error: { code: 'INTERNAL', message: (error as Error).message } }));
  });

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? '/', `http://127.0.0.1:${port}`);
    const refusal = guardInspectorRequest(request, url, { token, port });
    if (refusal) return void response.writeHead(refusal.status, { ...SECURITY_HEADERS, 'content-type': 'text/plain; charset=utf-8' }).end(`${refusal.message}\n`);
    if (url.pathname.startsWith('/api/')) return routeInspectorApi({ request, response, url, session, answerJson });
    if (url.pathname === '/favicon.ico') return void response.writeHead(204, SECURITY_HEADERS).end();
    const asset = ASSETS[url.pathname];
    if (!asset || request.method !== 'GET') return answerJson(response, 404, { error: { code: 'NOT_FOUND', message: `No page at ${url.pathname}.` } });
    const headers: Record<string, string> = { ...SECURITY_HEADERS, 'content-type': asset.type };
    // The first load carries the token in the URL: move it into a cookie and drop it from the address bar.
    if (url.searchParams.has('token')) {
      response.writeHead(303, { ...headers, location: url.pathname, 'set-cookie': `${INSPECTOR_COOKIE}=${token}; HttpOnly; SameSite=Strict; Path=/` });
      return void response.end();
    }
    response.writeHead(200, headers).end(assets.get(url.pathname));
  }

  function answerJson(response: ServerResponse, status: number, body: unknown): void {
    if (response.headersSent) return void response.destroy();
    response.writeHead(status, { ...SECURITY_HEADERS, 'content-type': 'application/json; charset=utf-8' }).end(JSON.stringify(body));
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  port = (server.address() as AddressInfo).port;
  const origin = `http://127.0.0.1:${port}`;
  if (options.source) await session.load(options.source, options.token ? { token: options.token } : {});
  return {
    url: `${origin}/?token=${token}`,
    origin,
    session,
    async close() {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      await session.close();
    },
  };
}
