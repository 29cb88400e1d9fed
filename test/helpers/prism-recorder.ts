/**
 * A loopback server between the client and Prism: it serves a manifest whose `base_url` is its own
 * origin plus the description's base path, forwards every other request (base path removed) to
 * Prism, and records Prism's verdict on each.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Manifest } from '../../src/manifest/manifest-v0.js';

/** One violation Prism reports (its `sl-violations` header or the problem body's `validation`). */
export interface PrismViolation {
  location?: string[];
  severity?: string | number;
  code?: string | number;
  message?: string;
}

/** What Prism said about one forwarded request. */
export interface PrismVerdict {
  method: string;
  /** Path and query as sent to Prism. */
  target: string;
  requestHeaders: Record<string, string | string[] | undefined>;
  requestBody: string;
  status: number;
  /** The request's errors (warnings left out). */
  violations: PrismViolation[];
}

/** A running recorder. */
export interface PrismRecorder {
  origin: string;
  /** Every verdict since the last `verdicts.length = 0`. */
  verdicts: PrismVerdict[];
  close(): Promise<void>;
}

const HOP_BY_HOP = new Set(['host', 'connection', 'content-length', 'transfer-encoding', 'keep-alive']);

async function readBody(request: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

function errorsOf(list: unknown): PrismViolation[] {
  if (!Array.isArray(list)) return [];
  // Violations of Prism's own example response say nothing about the request.
  return (list as PrismViolation[]).filter((violation) => (violation.severity === undefined || violation.severity === 'Error' || violation.severity === 0) && violation.location?.[0] !== 'response');
}

/** Starts a recorder in front of `prismOrigin` serving `manifest` rebased on itself. */
export async function startPrismRecorder(manifest: Manifest, prismOrigin: string, requestTimeoutInMs: number): Promise<PrismRecorder> {
  const basePath = new URL(manifest.service.base_url).pathname.replace(/\/$/, '');
  const verdicts: PrismVerdict[] = [];
  let served = '';
  const server: Server = createServer((request, response) => {
    void (async () => {
      const url = request.url ?? '/';
      if (url === '/.well-known/ai-capabilities') {
        response.writeHead(200, { 'content-type': 'application/ai-capabilities+json', 'cache-control': 'no-store' }).end(served);
        return;
      }
      const body = await readBody(request);
      const target = basePath !== '' && url.startsWith(basePath) ? url.slice(basePath.length) || '/' : url;
      const headers = new Headers();
      for (const [name, value] of Object.entries(request.headers)) if (!HOP_BY_HOP.has(name) && value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : value);
      const verdict: PrismVerdict = { method: request.method ?? 'GET', target, requestHeaders: request.headers, requestBody: body.toString('utf8').slice(0, 4_000), status: 0, violations: [] };
      verdicts.push(verdict);
      try {
        const answer = await fetch(prismOrigin + target, {
          method: verdict.method,
          headers,
          body: body.length > 0 ? new Uint8Array(body) : null,
          redirect: 'manual',
          signal: AbortSignal.timeout(requestTimeoutInMs),
        });
        const text = await answer.text();
        verdict.status = answer.status;
        const header = answer.headers.get('sl-violations');
        verdict.violations = header === null ? [] : errorsOf(JSON.parse(header));
        if (answer.status >= 400 && /json/.test(answer.headers.get('content-type') ?? '')) {
          const problem = JSON.parse(text) as { validation?: unknown; detail?: unknown; title?: unknown };
          verdict.violations.push(...errorsOf(problem.validation));
          if (verdict.violations.length === 0 && answer.status !== 404) verdict.violations.push({ message: `${String(problem.title ?? '')} ${String(problem.detail ?? '')}`.trim().slice(0, 300) });
        }
        const forwarded: Record<string, string> = {};
        answer.headers.forEach((value, name) => {
          if (!HOP_BY_HOP.has(name) && name !== 'content-encoding') forwarded[name] = value;
        });
        response.writeHead(answer.status, forwarded).end(text);
      } catch (error) {
        verdict.violations.push({ message: `Prism did not answer: ${(error as Error).message}` });
        response.writeHead(504).end();
      }
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  served = JSON.stringify({ ...manifest, service: { ...manifest.service, base_url: origin + basePath } });
  return {
    origin,
    verdicts,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
