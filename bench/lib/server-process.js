// Child process that hosts the servers under test, so the measuring process (clients, autocannon)
// and the servers use separate threads and separate heaps, and the RSS reported for a server is its
// own. Started by `start-server-process.js`; talks over the IPC channel:
//   → { type: 'ready', origins: { name: origin }, rssInBytes }
//   ← { type: 'counts' }  → { type: 'counts', counts: { name: requests seen } }
//   ← { type: 'rss' }     → { type: 'rss', rssInBytes }
//   ← { type: 'stop' }    closes every server and exits.
//
// argv[2] is the set to start: `latency` (Payments, sections 1–3), `scale` (big manifests; argv[3] is a
// JSON file listing `{ name, file }`), or one serving target (section 4).
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import express from 'express';
import Fastify from 'fastify';
import { Hono } from 'hono';
import { getRequestListener } from '@hono/node-server';
import { WELL_KNOWN_PATH } from 'aicap';
import { aiCapabilities as expressCapabilities, withAiCapabilities } from 'aicap/express';
import { aicapPlugin } from 'aicap/fastify';
import { aiCapabilities as honoCapabilities } from 'aicap/hono';
import { createManifestHandler, toNodeListener } from 'aicap/server';
import { loadPaymentsManifest, startPaymentsServer } from '../../examples/payments/dist/start-payments-server.js';
import { createMcpPaymentsApp, createMcpToolsApp, MCP_MODES, mcpToolsOf } from './mcp-payments-app.js';

const set = process.argv[2];
const manifest = loadPaymentsManifest();
/** @type {Map<string, { origin: string, requests: number, close: () => Promise<void> }>} */
const running = new Map();

async function listen(name, listener) {
  const server = createServer(listener);
  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  return register(name, server, () => closeServer(server));
}

function register(name, server, close) {
  const entry = { origin: `http://127.0.0.1:${server.address().port}`, requests: 0, close };
  running.set(name, entry);
  server.on('request', () => entry.requests++);
  return entry;
}

function closeServer(server) {
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
}

/**
 * A manifest served by `createManifestHandler` on plain `node:http`, with `base_url` rebound to the
 * server's own origin (as `aicap serve` does), so a client's origin binding accepts it.
 */
async function listenRebound(name, source, cacheControl) {
  let originKnown = () => undefined;
  const origin = new Promise((resolve) => (originKnown = resolve));
  const load = async () => {
    const path = new URL(source.service.base_url).pathname.replace(/\/$/, '');
    return { ...source, service: { ...source.service, base_url: `${await origin}${path}` } };
  };
  const handler = createManifestHandler({ load, ...(cacheControl ? { cacheControl } : {}) });
  const entry = await listen(name, toNodeListener(handler));
  originKnown(entry.origin);
  await handler.ready;
  return entry;
}

async function listenMcpModes(prefix, options) {
  for (const mode of MCP_MODES) {
    const app = options.manifest
      ? (await createMcpPaymentsApp({ mode: mode.mode, manifest: options.manifest, enableJsonResponse: mode.enableJsonResponse })).app
      : createMcpToolsApp({ mode: mode.mode, tools: options.tools, enableJsonResponse: mode.enableJsonResponse }).app;
    await listen(`${prefix}${mode.key}`, app);
  }
}

async function startLatencySet() {
  // A rate limit far above what the benchmark sends: the 429 path is not what is measured here.
  const payments = await startPaymentsServer({ rateLimit: { requests: 1_000_000_000, windowInMs: 60_000 } });
  register('payments', payments.server, () => payments.close());
  // `max-age=0`: every discovery after the first is past max-age and revalidates (the 304 path).
  await listenRebound('revalidate', manifest, 'public, max-age=0');
  await listenMcpModes('mcp', { manifest });
}

async function startScaleSet(listFile) {
  for (const { name, file } of JSON.parse(readFileSync(listFile, 'utf8'))) {
    const big = JSON.parse(readFileSync(file, 'utf8'));
    await listenRebound(name, big, 'public, max-age=300');
    await listenRebound(`${name}Revalidate`, big, 'public, max-age=0');
    await listenMcpModes(`${name}Mcp`, { tools: await mcpToolsOf(big) });
  }
}

/** The exact answer (bytes and headers) aicap gives for the Payments manifest, for the static routes. */
async function staticAnswer() {
  const answer = await createManifestHandler({ manifest })(new Request(`http://127.0.0.1${WELL_KNOWN_PATH}`));
  return { bytes: Buffer.from(await answer.arrayBuffer()), headers: Object.fromEntries(answer.headers), etag: answer.headers.get('etag') };
}

/**
 * What a hand-written static route must do to be a fair baseline: the same bytes and headers,
 * prepared once, and the same conditional-request work (If-None-Match against the strong ETag).
 */
function answersNotModified(ifNoneMatch, etag) {
  if (typeof ifNoneMatch !== 'string') return false;
  return ifNoneMatch.trim() === '*' || ifNoneMatch.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag);
}

/** Writes the prepared answer as the node:http static route does, so the static routes differ only by framework. */
function writeStatic(request, response, fixed) {
  if (answersNotModified(request.headers['if-none-match'], fixed.etag)) return void response.writeHead(304, { etag: fixed.etag }).end();
  response.writeHead(200, fixed.headers).end(fixed.bytes);
}

async function startServingTarget(target) {
  // `<kind>-<framework>`, or `<kind>-<framework>-control`: a second process of the same target (the serving
  // section's A/A control), which differs from the first by name alone.
  const [kind, framework, copy, ...rest] = target.split('-');
  if ((copy !== undefined && copy !== 'control') || rest.length > 0) throw new Error(`Unknown server set ${JSON.stringify(target)}.`);
  if (kind === 'floor' && framework === 'express') {
    // Express's own cost per request: one `app.use` that writes the prepared answer, no path, method or header checks.
    const fixed = await staticAnswer();
    const app = express();
    app.disable('x-powered-by');
    app.disable('etag');
    app.use((_request, response) => void response.writeHead(200, fixed.headers).end(fixed.bytes));
    await listen(target, app);
    return;
  }
  if (kind === 'listener' && framework === 'express') {
    // The manifest answered in front of the Express app (`withAiCapabilities`), before Express's per-request setup.
    const app = express();
    app.disable('x-powered-by');
    app.disable('etag');
    await listen(target, withAiCapabilities(app, { manifest }));
    return;
  }
  if (kind === 'mcp' || kind === 'mcpnode') {
    const mode = MCP_MODES.find((candidate) => candidate.key === framework);
    if (!mode) throw new Error(`Unknown MCP mode ${JSON.stringify(framework)}.`);
    const app = await createMcpPaymentsApp({ mode: mode.mode, manifest, enableJsonResponse: mode.enableJsonResponse, framework: kind === 'mcpnode' ? 'node' : 'express' });
    await listen(target, app.app);
    return;
  }
  const fixed = kind === 'static' ? await staticAnswer() : undefined;
  switch (framework) {
    case 'express': {
      const app = express();
      app.disable('x-powered-by');
      app.disable('etag');
      // writeHead + end as on node:http: `response.send` would add its own work (type and length handling, a charset on Content-Type, freshness).
      if (fixed) app.get(WELL_KNOWN_PATH, (request, response) => writeStatic(request, response, fixed));
      else app.use(expressCapabilities({ manifest }));
      await listen(target, app);
      return;
    }
    case 'fastify': {
      const app = Fastify();
      if (fixed)
        app.get(WELL_KNOWN_PATH, (request, reply) =>
          answersNotModified(request.headers['if-none-match'], fixed.etag) ? reply.code(304).header('etag', fixed.etag).send() : reply.headers(fixed.headers).send(fixed.bytes),
        );
      else await app.register(aicapPlugin, { manifest });
      await app.listen({ port: 0, host: '127.0.0.1' });
      register(target, app.server, () => app.close());
      return;
    }
    case 'hono': {
      const app = new Hono();
      if (fixed)
        app.get(WELL_KNOWN_PATH, (context) =>
          answersNotModified(context.req.header('if-none-match'), fixed.etag)
            ? new Response(null, { status: 304, headers: { etag: fixed.etag } })
            : new Response(fixed.bytes, { headers: fixed.headers }),
        );
      else app.use(honoCapabilities({ manifest }));
      await listen(target, getRequestListener(app.fetch));
      return;
    }
    case 'node': {
      if (fixed) {
        await listen(target, (request, response) => {
          if (request.url !== WELL_KNOWN_PATH) return void response.writeHead(404).end();
          writeStatic(request, response, fixed);
        });
      } else await listen(target, toNodeListener(createManifestHandler({ manifest })));
      return;
    }
    default:
      throw new Error(`Unknown server set ${JSON.stringify(target)}.`);
  }
}

async function stop() {
  await Promise.all([...running.values()].map((entry) => entry.close()));
  process.exit(0);
}

process.on('message', (message) => {
  if (message.type === 'counts') process.send({ type: 'counts', counts: Object.fromEntries([...running].map(([name, entry]) => [name, entry.requests])) });
  else if (message.type === 'rss') process.send({ type: 'rss', rssInBytes: process.memoryUsage().rss });
  else if (message.type === 'stop') void stop();
});
// The parent died without saying stop: do not linger.
process.on('disconnect', () => void stop());

if (set === 'latency') await startLatencySet();
else if (set === 'scale') await startScaleSet(process.argv[3]);
else await startServingTarget(set);
process.send({ type: 'ready', origins: Object.fromEntries([...running].map(([name, entry]) => [name, entry.origin])), rssInBytes: process.memoryUsage().rss });
