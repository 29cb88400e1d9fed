import { afterEach, describe, expect, it, vi } from 'vitest';
import { thrownBy as errorOf } from '../../test/helpers/error-of.js';
import { CHANGE_FEED_PATH, createChangeFeedHandler, type ChangeFeedHandler } from './create-change-feed-handler.js';

const feedUrl = `https://api.example.com${CHANGE_FEED_PATH}`;
const digestA = `sha256-${'A'.repeat(43)}`;
const digestB = `sha256-${'B'.repeat(43)}`;
const digestC = `sha256-${'C'.repeat(43)}`;

const handlers: ChangeFeedHandler[] = [];
function feed(options: Parameters<typeof createChangeFeedHandler>[0]): ChangeFeedHandler {
  const handler = createChangeFeedHandler(options);
  handlers.push(handler);
  return handler;
}
afterEach(() => {
  for (const handler of handlers.splice(0)) handler.close();
  vi.useRealTimers();
});

const decoder = new TextDecoder();
async function nextText(reader: ReadableStreamDefaultReader<Uint8Array>): Promise<string> {
  const { value, done } = await reader.read();
  return done ? '<end>' : decoder.decode(value);
}

describe('createChangeFeedHandler options', () => {
  it('needs exactly one of digest and manifestHandler', () => {
    expect(errorOf(() => createChangeFeedHandler(undefined as never)).code).toBe('INVALID_OPTION');
    expect(errorOf(() => createChangeFeedHandler({})).code).toBe('INVALID_OPTION');
    const manifestHandler = { ready: Promise.resolve(), digest: () => digestA, onUpdate: () => () => undefined };
    expect(errorOf(() => createChangeFeedHandler({ digest: digestA, manifestHandler })).code).toBe('INVALID_OPTION');
    expect(errorOf(() => createChangeFeedHandler({ manifestHandler: {} as never }))).toMatchObject({ code: 'INVALID_OPTION', option: 'manifestHandler' });
  });

  it('refuses a digest that is not sha256- and 43 base64url characters', () => {
    for (const digest of ['sha256-short', `sha256-${'A'.repeat(42)}=`, `sha512-${'A'.repeat(43)}`, `sha256-${'A'.repeat(42)}\n`]) {
      expect(errorOf(() => createChangeFeedHandler({ digest }))).toMatchObject({ code: 'INVALID_OPTION', option: 'digest' });
    }
  });

  it('checks the numeric options and the path', () => {
    expect(errorOf(() => createChangeFeedHandler({ digest: digestA, path: 'changes' }))).toMatchObject({ option: 'path' });
    expect(errorOf(() => createChangeFeedHandler({ digest: digestA, maxSubscribers: 0 }))).toMatchObject({ option: 'maxSubscribers' });
    expect(errorOf(() => createChangeFeedHandler({ digest: digestA, heartbeatIntervalInMs: 0 }))).toMatchObject({ option: 'heartbeatIntervalInMs' });
    expect(errorOf(() => createChangeFeedHandler({ digest: digestA, maxQueuedEvents: 1.5 }))).toMatchObject({ option: 'maxQueuedEvents' });
    expect(errorOf(() => createChangeFeedHandler({ digest: digestA, retryInMs: -1 }))).toMatchObject({ option: 'retryInMs' });
  });
});

describe('createChangeFeedHandler streams', () => {
  it('sends the retry hint and the current digest first, then each new digest once', async () => {
    const handler = feed({ digest: digestA, retryInMs: 250 });
    const response = await handler(new Request(feedUrl));
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const reader = response.body!.getReader();
    expect(await nextText(reader)).toBe(`retry: 250\n\nid: ${digestA}\nevent: change\ndata: {"digest":"${digestA}"}\n\n`);
    handler.publish(digestA);
    handler.publish(digestB);
    handler.publish(digestB);
    expect(await nextText(reader)).toBe(`id: ${digestB}\nevent: change\ndata: {"digest":"${digestB}"}\n\n`);
    handler.publish(digestC);
    expect(await nextText(reader)).toContain(`id: ${digestC}`);
  });

  it('answers a subscriber whose Last-Event-ID names the current digest with a comment, not an event', async () => {
    const handler = feed({ digest: digestA });
    const response = await handler(new Request(feedUrl, { headers: { 'Last-Event-ID': ` ${digestA} ` } }));
    expect(await nextText(response.body!.getReader())).toBe('retry: 1000\n\n: current\n\n');
    const stale = await handler(new Request(feedUrl, { headers: { 'Last-Event-ID': digestB } }));
    expect(await nextText(stale.body!.getReader())).toContain(`id: ${digestA}`);
  });

  it('refuses a publish that is not a digest, so nothing unescaped reaches an id: line', () => {
    const handler = feed({ digest: digestA });
    expect(errorOf(() => handler.publish(`${digestB}\nevent: x`)).code).toBe('INVALID_ARGUMENT');
    expect(errorOf(() => handler.publish(undefined as never)).code).toBe('INVALID_ARGUMENT');
  });

  it('answers 503 with Retry-After beyond maxSubscribers, and takes a new one after one leaves', async () => {
    const handler = feed({ digest: digestA, maxSubscribers: 2, retryAfterInSeconds: 7 });
    const first = await handler(new Request(feedUrl));
    await handler(new Request(feedUrl));
    expect(handler.subscriberCount).toBe(2);
    const refused = await handler(new Request(feedUrl));
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toBe('7');
    await first.body!.cancel();
    expect(handler.subscriberCount).toBe(1);
    expect((await handler(new Request(feedUrl))).status).toBe(200);
  });

  it('drops a subscriber when its request is aborted', async () => {
    const handler = feed({ digest: digestA });
    const controller = new AbortController();
    await handler(new Request(feedUrl, { signal: controller.signal }));
    expect(handler.subscriberCount).toBe(1);
    controller.abort();
    expect(handler.subscriberCount).toBe(0);
  });

  it('sends heartbeats on the interval while someone listens', async () => {
    vi.useFakeTimers();
    const handler = feed({ digest: digestA, heartbeatIntervalInMs: 1000 });
    const reader = (await handler(new Request(feedUrl))).body!.getReader();
    await nextText(reader);
    const pending = nextText(reader);
    await vi.advanceTimersByTimeAsync(1000);
    expect(await pending).toBe(': heartbeat\n\n');
  });

  it('drops a reader that stops reading after maxQueuedEvents, instead of buffering for it', async () => {
    vi.useFakeTimers();
    const handler = feed({ digest: digestA, heartbeatIntervalInMs: 10, maxQueuedEvents: 3 });
    await handler(new Request(feedUrl));
    expect(handler.subscriberCount).toBe(1);
    await vi.advanceTimersByTimeAsync(10 * 10);
    expect(handler.subscriberCount).toBe(0);
  });

  it('answers 404 off its path and 405 to other methods', async () => {
    const handler = feed({ digest: digestA, path: '/changes' });
    expect((await handler(new Request(feedUrl))).status).toBe(404);
    const post = await handler(new Request('https://api.example.com/changes', { method: 'POST' }));
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET');
  });

  it('ends every stream on close and refuses later subscribers', async () => {
    const handler = feed({ digest: digestA });
    const reader = (await handler(new Request(feedUrl))).body!.getReader();
    await nextText(reader);
    handler.close();
    handler.close();
    expect(await nextText(reader)).toBe('<end>');
    expect((await handler(new Request(feedUrl))).status).toBe(503);
    handler.publish(digestB);
  });
});

describe('createChangeFeedHandler following a manifest handler', () => {
  it('waits for ready, starts from its digest and follows its updates until closed', async () => {
    let listener: ((digest: string) => void) | undefined;
    let unsubscribed = false;
    const manifestHandler = {
      ready: Promise.resolve(),
      digest: () => digestA,
      onUpdate(callback: (digest: string) => void) {
        listener = callback;
        return () => {
          unsubscribed = true;
        };
      },
    };
    const handler = feed({ manifestHandler });
    const reader = (await handler(new Request(feedUrl))).body!.getReader();
    expect(await nextText(reader)).toContain(`id: ${digestA}`);
    listener?.(digestB);
    expect(await nextText(reader)).toContain(`id: ${digestB}`);
    handler.close();
    expect(unsubscribed).toBe(true);
  });

  it('answers 500 without details when the manifest failed to load', async () => {
    const ready = Promise.reject(new Error('ENOENT /secret/path/manifest.json'));
    ready.catch(() => undefined);
    const handler = feed({ manifestHandler: { ready, digest: () => undefined, onUpdate: () => () => undefined } });
    const response = await handler(new Request(feedUrl));
    expect(response.status).toBe(500);
    expect(await response.text()).not.toContain('/secret/path');
  });
});
