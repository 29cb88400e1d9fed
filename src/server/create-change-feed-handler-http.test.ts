import { createServer, request as httpRequest, type ClientRequest, type IncomingMessage } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { listen, type RunningServer } from '../../test/helpers/start-framework-server.js';
import { CHANGE_FEED_PATH, createChangeFeedHandler, type ChangeFeedHandler } from './create-change-feed-handler.js';
import { toNodeListener } from './to-node-listener.js';

// The change feed over a real socket: what an EventSource reads first and after a publish, and a
// connection cut by the client freeing its slot, so a feed at its limit does not refuse for ever.

const digestA = `sha256-${'A'.repeat(43)}`;
const digestB = `sha256-${'B'.repeat(43)}`;

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function serveFeed(options: Parameters<typeof createChangeFeedHandler>[0]): Promise<{ handler: ChangeFeedHandler; url: string }> {
  const handler = createChangeFeedHandler(options);
  const started: RunningServer = await listen(createServer(toNodeListener(handler)));
  cleanups.push(
    () => started.close(),
    () => handler.close(),
  );
  return { handler, url: `${started.origin}${CHANGE_FEED_PATH}` };
}

/** Opens the stream and collects its text; `until` resolves once the text matches. */
function openStream(url: string, headers: Record<string, string> = {}): Promise<{ response: IncomingMessage; request: ClientRequest; until(pattern: RegExp): Promise<string> }> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(url, { headers: { Accept: 'text/event-stream', ...headers } }, (response) => {
      let text = '';
      const waiters: Array<() => void> = [];
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => {
        text += chunk;
        for (const waiter of waiters.splice(0)) waiter();
      });
      const until = (pattern: RegExp): Promise<string> =>
        new Promise((done, fail) => {
          const timer = setTimeout(() => fail(new Error(`The stream did not send ${String(pattern)} within 4 s; it sent ${JSON.stringify(text)}.`)), 4_000);
          const check = (): void => {
            if (pattern.test(text)) {
              clearTimeout(timer);
              done(text);
            } else waiters.push(check);
          };
          check();
        });
      resolve({ response, request, until });
    });
    request.on('error', reject);
    request.end();
    cleanups.push(() => void request.destroy());
  });
}

describe('the change feed over HTTP', () => {
  it('sends retry and the current digest as the first event id, then each published digest', async () => {
    const { handler, url } = await serveFeed({ digest: digestA, heartbeatIntervalInMs: 60_000, retryInMs: 2_500 });
    const stream = await openStream(url);
    expect(stream.response.statusCode).toBe(200);
    expect(stream.response.headers['content-type']).toMatch(/^text\/event-stream/);
    expect(stream.response.headers['cache-control']).toMatch(/no-store|no-cache/);
    await stream.until(new RegExp(`retry: 2500\\n[\\s\\S]*id: ${digestA}`));
    handler.publish(digestB);
    await stream.until(new RegExp(`id: ${digestB}`));
  });

  it('answers a reconnect whose Last-Event-ID is the current digest with a comment, not a change', async () => {
    const { url } = await serveFeed({ digest: digestA, heartbeatIntervalInMs: 60_000 });
    const stream = await openStream(url, { 'Last-Event-ID': digestA });
    const text = await stream.until(/^: ?current/m);
    expect(text).not.toContain(`id: ${digestA}`);
  });

  it('frees the slot of a client that hangs up, so a feed at maxSubscribers takes the next one', async () => {
    const { handler, url } = await serveFeed({ digest: digestA, maxSubscribers: 1, retryAfterInSeconds: 3, heartbeatIntervalInMs: 60_000 });
    const first = await openStream(url);
    await first.until(/id: /);
    const refused = await fetch(url, { headers: { Accept: 'text/event-stream' } });
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toBe('3');
    expect(refused.headers.get('content-type')).toBe('application/problem+json');
    first.request.destroy();
    const deadline = Date.now() + 4_000;
    while (handler.subscriberCount > 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(handler.subscriberCount).toBe(0);
    const next = await openStream(url);
    expect(next.response.statusCode).toBe(200);
  });

  it('answers POST with 405 and Allow, and other paths with 404 problems', async () => {
    const { url } = await serveFeed({ digest: digestA });
    const posted = await fetch(url, { method: 'POST', body: '{"__proto__":{}}', headers: { 'Content-Type': 'application/json' } });
    expect(posted.status).toBe(405);
    expect(posted.headers.get('allow')).toBe('GET');
    const elsewhere = await fetch(url.replace(CHANGE_FEED_PATH, '/elsewhere'));
    expect(elsewhere.status).toBe(404);
    expect(elsewhere.headers.get('content-type')).toBe('application/problem+json');
  });
});
