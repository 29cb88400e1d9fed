// Child process that hosts the servers under test, so the measuring process (clients, autocannon)
// and the servers use separate threads and separate heaps, and the RSS reported for a server is its
// own. Started by `start-server-process.js`; talks over the IPC channel:
//   → { type: 'ready', origins: { name: origin }, rssInBytes }
//   ← { type: 'counts' }  → { type: 'counts', counts: { name: requests seen } }
//   ← { type: 'rss' }     → { type: 'rss', rssInBytes }
//   ← { type: 'stop' }    closes every server and exits.
//
// argv[2] is the set to start: `latency` (sections 1–3) or one serving target (section 4).
import { createServer } from 'node:http';
import express from 'express';
import { MANIFEST_MEDIA_TYPE, WELL_KNOWN_PATH } from 'aicap';
import { aiCapabilities } from 'aicap/express';
import { createManifestHandler } from 'aicap/server';
import { loadPaymentsManifest, startPaymentsServer } from '../../examples/payments/dist/start-payments-server.js';
import { createMcpPaymentsApp } from './mcp-payments-app.js';

const set = process.argv[2];
const manifest = loadPaymentsManifest();
/** @type {Map<string, { server: import('node:http').Server, origin: string, requests: number, close: () => Promise<void> }>} */
const running = new Map();

async function listen(name, listener) {
  const server = createServer(listener);
  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const entry = {
    server,
    origin: `http://127.0.0.1:${server.address().port}`,
    requests: 0,
    close: () => closeServer(server),
  };
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

/** The Payments manifest served by `aicap/express` alone, with `base_url` on its own origin. */
async function listenManifestOnly(name, cacheControl) {
  // The handler loads the manifest at creation; the origin is known only once the server listens.
  let originKnown = () => undefined;
  const origin = new Promise((resolve) => (originKnown = resolve));
  const app = express();
  app.disable('x-powered-by');
  const load = async () => ({ ...manifest, service: { ...manifest.service, base_url: `${await origin}/v2` } });
  const middleware = aiCapabilities({ load, ...(cacheControl ? { cacheControl } : {}) });
  app.use(middleware);
  const entry = await listen(name, app);
  originKnown(entry.origin);
  await middleware.manifestHandler.ready;
  return entry;
}

async function startLatencySet() {
  // A rate limit far above what the benchmark sends: the 429 path is not what is measured here.
  const payments = await startPaymentsServer({ rateLimit: { requests: 1_000_000_000, windowInMs: 60_000 } });
  const entry = { server: payments.server, origin: payments.origin, requests: 0, close: () => payments.close() };
  payments.server.on('request', () => entry.requests++);
  running.set('payments', entry);
  // `max-age=0`: every discovery after the first is past max-age and revalidates (the 304 path).
  await listenManifestOnly('revalidate', 'public, max-age=0');
  await listen('mcpStateless', (await createMcpPaymentsApp({ mode: 'stateless', manifest })).app);
  await listen('mcpStateful', (await createMcpPaymentsApp({ mode: 'stateful', manifest })).app);
}

async function startServingTarget(target) {
  switch (target) {
    case 'aicap-express':
      await listenManifestOnly(target);
      return;
    case 'static-express': {
      // The exact bytes and media type aicap serves, sent by a plain Express route.
      const answer = await createManifestHandler({ manifest })(new Request(`http://127.0.0.1${WELL_KNOWN_PATH}`));
      const bytes = Buffer.from(await answer.arrayBuffer());
      const app = express();
      app.disable('x-powered-by');
      app.get(WELL_KNOWN_PATH, (_request, response) => void response.type(MANIFEST_MEDIA_TYPE).send(bytes));
      await listen(target, app);
      return;
    }
    case 'mcp-stateless':
      await listen(target, (await createMcpPaymentsApp({ mode: 'stateless', manifest })).app);
      return;
    case 'mcp-stateless-json':
      await listen(target, (await createMcpPaymentsApp({ mode: 'stateless', manifest, enableJsonResponse: true })).app);
      return;
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
else await startServingTarget(set);
process.send({ type: 'ready', origins: Object.fromEntries([...running].map(([name, entry]) => [name, entry.origin])), rssInBytes: process.memoryUsage().rss });
