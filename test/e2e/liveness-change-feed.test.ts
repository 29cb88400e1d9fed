import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { digestManifest } from '../../src/manifest/digest-manifest.js';
import { createChangeFeedHandler } from '../../src/server/index.js';
import { feedManifest, FEED_FRAMEWORKS, startLivenessServer, type LivenessServer } from '../helpers/start-liveness-server.js';

/** An SSE subscription over a raw socket: events as they arrive, comments counted, and a way to cut it. */
interface Subscription {
  readonly response: IncomingMessage;
  readonly events: EventSourceMessage[];
  readonly comments: string[];
  next(count: number, timeoutInMs?: number): Promise<EventSourceMessage[]>;
  cut(): void;
}

function subscribe(url: string, headers: Record<string, string> = {}): Promise<Subscription> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(url, { headers: { accept: 'text/event-stream', ...headers } }, (response) => {
      const events: EventSourceMessage[] = [];
      const comments: string[] = [];
      let waiter: (() => void) | undefined;
      const parser = createParser({ onEvent: (event) => (events.push(event), waiter?.()), onComment: (comment) => (comments.push(comment), waiter?.()) });
      response.setEncoding('utf8');
      response.on('data', (text: string) => parser.feed(text));
      response.on('error', () => undefined);
      resolve({
        response,
        events,
        comments,
        next: (count, timeoutInMs = 5000) =>
          new Promise((done, fail) => {
            const timer = setTimeout(() => fail(new Error(`only ${events.length} of ${count} events within ${timeoutInMs} ms`)), timeoutInMs);
            const check = (): void => {
              if (events.length < count) return;
              clearTimeout(timer);
              waiter = undefined;
              done(events.slice(0, count));
            };
            waiter = check;
            check();
          }),
        cut: () => request.destroy(),
      });
    });
    request.on('error', reject);
    request.end();
  });
}

async function until(condition: () => boolean, what: string, timeoutInMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutInMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

let server: LivenessServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe.each(FEED_FRAMEWORKS)('change feed on %s', (framework) => {
  it('sends the current digest, then each published one to every subscriber; resumes quietly on the current id', async () => {
    server = await startLivenessServer(framework, (origin) => feedManifest(origin, ['read_a', 'refund']));
    const feedUrl = `${server.origin}${server.feed.path}`;
    const first = await subscribe(feedUrl);
    const second = await subscribe(feedUrl);
    expect(first.response.statusCode).toBe(200);
    expect(first.response.headers['content-type']).toMatch(/^text\/event-stream/);
    expect(first.response.headers['cache-control']).toBe('no-store');
    const [initial] = await first.next(1);
    const digest = server.manifestHandler.digest() as string;
    expect(initial).toMatchObject({ id: digest, event: 'change' });
    expect(JSON.parse(initial!.data)).toEqual({ digest });
    await second.next(1);
    await until(() => server!.feed.subscriberCount === 2, 'two subscribers');

    const next = feedManifest(server.origin, ['read_a']);
    const published = await server.manifestHandler.update(next);
    expect(published).toBe(digestManifest(next));
    for (const subscription of [first, second]) {
      const events = await subscription.next(2);
      expect(events[1]).toMatchObject({ id: published, event: 'change' });
    }
    // The manifest route serves the new manifest with the published digest as its ETag.
    const manifest = await fetch(`${server.origin}/.well-known/ai-capabilities`);
    expect(manifest.headers.get('etag')).toMatch(new RegExp(`^"${published}(?:-br|-gzip)?"$`));

    // Resume: the current id hears no event, an older one hears the current digest at once.
    const current = await subscribe(feedUrl, { 'last-event-id': published });
    const behind = await subscribe(feedUrl, { 'last-event-id': digest });
    expect((await behind.next(1))[0]).toMatchObject({ id: published });
    await until(() => current.comments.length > 0, 'the resume comment');
    expect(current.events).toEqual([]);
    for (const subscription of [first, second, current, behind]) subscription.cut();
    await until(() => server!.feed.subscriberCount === 0, 'every cut subscriber released');
  });

  it('answers 503 with Retry-After beyond maxSubscribers and frees the slot when a socket is cut mid-stream', async () => {
    server = await startLivenessServer(framework, (origin) => feedManifest(origin, ['read_a']), { maxSubscribers: 2, retryAfterInSeconds: 7 });
    const feedUrl = `${server.origin}${server.feed.path}`;
    const held = [await subscribe(feedUrl), await subscribe(feedUrl)];
    await Promise.all(held.map((subscription) => subscription.next(1)));
    const refused = await fetch(feedUrl, { headers: { accept: 'text/event-stream' } });
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toBe('7');
    expect(await refused.json()).toMatchObject({ status: 503, detail: expect.stringContaining('limit of 2 connections') });
    held[0]!.cut();
    await until(() => server!.feed.subscriberCount === 1, 'the cut subscriber released');
    const admitted = await subscribe(feedUrl);
    expect(admitted.response.statusCode).toBe(200);
    await admitted.next(1);
    admitted.cut();
    held[1]!.cut();
  });
});

describe('change feed handler', () => {
  it('sends heartbeat comments while idle and ends every stream on close', async () => {
    server = await startLivenessServer('node:http', (origin) => feedManifest(origin, ['read_a']), { heartbeatIntervalInMs: 20 });
    const subscription = await subscribe(`${server.origin}${server.feed.path}`);
    await subscription.next(1);
    await until(() => subscription.comments.filter((comment) => comment.trim() === 'heartbeat').length >= 2, 'two heartbeats');
    const ended = new Promise<void>((resolve) => subscription.response.on('end', resolve));
    server.feed.close();
    await ended;
    expect(server.feed.subscriberCount).toBe(0);
    const refused = await fetch(`${server.origin}${server.feed.path}`);
    expect(refused.status).toBe(503);
  });

  it('refuses other methods, an invalid digest and a manifest update that is invalid (keeping the served one)', async () => {
    server = await startLivenessServer('node:http', (origin) => feedManifest(origin, ['read_a']));
    const posted = await fetch(`${server.origin}${server.feed.path}`, { method: 'POST' });
    expect(posted.status).toBe(405);
    expect(posted.headers.get('allow')).toBe('GET');
    expect(() => server!.feed.publish('md5-abc')).toThrow(expect.objectContaining({ code: 'INVALID_ARGUMENT', message: expect.stringContaining('`publish`') }));
    const before = server.manifestHandler.digest();
    await expect(server.manifestHandler.update({ schema_version: '0.3.0' } as never)).rejects.toMatchObject({ code: 'MANIFEST_INVALID' });
    expect(server.manifestHandler.digest()).toBe(before);
  });

  it('refuses missing or wrong options with INVALID_OPTION naming them, never a TypeError', () => {
    expect(() => createChangeFeedHandler(undefined as never)).toThrow(expect.objectContaining({ code: 'INVALID_OPTION', message: expect.stringContaining('manifestHandler') }));
    expect(() => createChangeFeedHandler({ manifestHandler: 5 as never })).toThrow(expect.objectContaining({ code: 'INVALID_OPTION', option: 'manifestHandler' }));
    expect(() => createChangeFeedHandler({})).toThrow(expect.objectContaining({ code: 'INVALID_OPTION', message: expect.stringContaining('exactly one of') }));
  });
});
