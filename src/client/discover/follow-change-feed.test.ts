import { afterEach, describe, expect, it, vi } from 'vitest';
import { thrownBy } from '../../../test/helpers/error-of.js';
import { scriptedEventStream, type ScriptedStream } from '../../../test/helpers/sse-stream.js';
import { followChangeFeed, resolveChangeFeedOptions, type ChangeFeedFollower, type FollowChangeFeedInput } from './follow-change-feed.js';

// The follower over an injected fetch: each request gets the next scripted answer; no socket.

const FEED = 'https://api.example.test/.well-known/ai-capabilities/changes';
const digest = (letter: string): string => `sha256-${letter.repeat(43)}`;

interface Opened {
  headers: Headers;
  stream: ScriptedStream;
}

type Answer = (signal: AbortSignal | null | undefined) => Response | Opened['stream'];

/** A follower whose requests are answered in turn by `answers` (the last repeats); every open stream is kept. */
function follow(answers: Answer[], input: Partial<FollowChangeFeedInput> = {}) {
  const requests: Headers[] = [];
  const streams: ScriptedStream[] = [];
  const revalidated: string[] = [];
  let held: string | undefined = digest('a');
  const follower: ChangeFeedFollower = followChangeFeed({
    fetch: async (_url, init) => {
      requests.push(new Headers(init?.headers));
      const answer = answers[Math.min(requests.length - 1, answers.length - 1)]!(init?.signal);
      if (answer instanceof Response) return answer;
      streams.push(answer);
      return answer.response;
    },
    feedUrl: FEED,
    currentDigest: () => held,
    revalidate: async (announced) => {
      revalidated.push(announced);
      held = announced;
    },
    heartbeatIntervalInSeconds: undefined,
    options: { minReconnectDelayInMs: 1, maxReconnectDelayInMs: 5 },
    random: () => 0,
    ...input,
  });
  followers.push(follower);
  return { follower, requests, streams, revalidated, setHeld: (value: string | undefined) => void (held = value) };
}

const stream: Answer = (signal) => scriptedEventStream(signal);
const followers: ChangeFeedFollower[] = [];
afterEach(async () => {
  await Promise.all(followers.splice(0).map((follower) => follower.close()));
});

describe('followChangeFeed', () => {
  it('opens the stream as an event stream and revalidates for a change event announcing a digest other than the one held', async () => {
    const run = follow([stream]);
    await vi.waitFor(() => expect(run.streams).toHaveLength(1));
    expect(run.requests[0]!.get('accept')).toBe('text/event-stream');
    expect(run.requests[0]!.get('last-event-id')).toBeNull();
    run.streams[0]!.push(`event: change\nid: 7\ndata: {"digest":"${digest('b')}"}\n\n`);
    await vi.waitFor(() => expect(run.revalidated).toEqual([digest('b')]));
  });

  it.each([
    ['the digest already held', `event: change\ndata: {"digest":"${digest('a')}"}\n\n`],
    ['an event of another type', `event: ping\ndata: {"digest":"${digest('b')}"}\n\n`],
    ['an unnamed message', `data: {"digest":"${digest('b')}"}\n\n`],
    ['malformed JSON', 'event: change\ndata: {"digest":\n\n'],
    ['a digest of the wrong shape', 'event: change\ndata: {"digest":"sha256-short"}\n\n'],
    ['a digest that is not a string', 'event: change\ndata: {"digest":42}\n\n'],
    ['a JSON array', `event: change\ndata: ["${digest('b')}"]\n\n`],
    ['a digest with control and bidi characters', `event: change\ndata: {"digest":"sha256-\\u202e${'b'.repeat(42)}"}\n\n`],
  ])('ignores %s', async (_case, text) => {
    const run = follow([stream]);
    await vi.waitFor(() => expect(run.streams).toHaveLength(1));
    run.streams[0]!.push(text);
    // A well-formed change after it proves the stream was read past the ignored event.
    run.streams[0]!.push(`event: change\ndata: {"digest":"${digest('c')}"}\n\n`);
    await vi.waitFor(() => expect(run.revalidated).toEqual([digest('c')]));
  });

  it('reopens a stream dropped mid-event with the Last-Event-ID of the last change it read, and drops the half event', async () => {
    const run = follow([stream]);
    await vi.waitFor(() => expect(run.streams).toHaveLength(1));
    run.streams[0]!.push(`event: change\nid: 41\ndata: {"digest":"${digest('b')}"}\n\n`);
    await vi.waitFor(() => expect(run.revalidated).toHaveLength(1));
    run.streams[0]!.push(`event: change\nid: 42\ndata: {"digest":"${digest('c')}`);
    run.streams[0]!.drop();
    await vi.waitFor(() => expect(run.streams).toHaveLength(2));
    expect(run.requests[1]!.get('last-event-id')).toBe('41');
    expect(run.revalidated).toEqual([digest('b')]);
  });

  it('reopens a stream the server ends cleanly', async () => {
    const run = follow([stream]);
    await vi.waitFor(() => expect(run.streams).toHaveLength(1));
    run.streams[0]!.end();
    await vi.waitFor(() => expect(run.streams).toHaveLength(2));
  });

  it.each([404, 410])('stops following when the feed answers %i (it is gone)', async (status) => {
    const run = follow([() => new Response('gone', { status })]);
    // close() resolves only once the loop has ended; the loop ended by itself after one request.
    await vi.waitFor(() => expect(run.requests).toHaveLength(1));
    await run.follower.close();
    expect(run.requests).toHaveLength(1);
  });

  it.each([
    ['a 500', () => new Response('boom', { status: 500 })],
    ['a 200 that is not an event stream', () => new Response('{}', { status: 200, headers: { 'content-type': 'application/json' } })],
    ['a 200 without a body', () => new Response(null, { status: 200, headers: { 'content-type': 'text/event-stream' } })],
    [
      'a transport failure',
      () => {
        throw new TypeError('fetch failed');
      },
    ],
  ])('retries after %s, with backoff, until a stream opens', async (_case, refusal) => {
    const run = follow([refusal as Answer, refusal as Answer, stream]);
    await vi.waitFor(() => expect(run.streams).toHaveLength(1));
    expect(run.requests).toHaveLength(3);
  });

  it('keeps following after a revalidation that rejects', async () => {
    const announced: string[] = [];
    const run = follow([stream], {
      revalidate: async (value) => {
        announced.push(value);
        throw new Error('manifest server down');
      },
    });
    await vi.waitFor(() => expect(run.streams).toHaveLength(1));
    run.streams[0]!.push(`event: change\ndata: {"digest":"${digest('b')}"}\n\nevent: change\ndata: {"digest":"${digest('c')}"}\n\n`);
    await vi.waitFor(() => expect(announced).toEqual([digest('b'), digest('c')]));
    expect(run.streams).toHaveLength(1);
  });

  it('does not buffer an event longer than 4096 characters: the stream is reopened', async () => {
    const run = follow([stream]);
    await vi.waitFor(() => expect(run.streams).toHaveLength(1));
    run.streams[0]!.push(`event: change\ndata: ${'x'.repeat(10_000)}`);
    // The parser stops at the cap; the next bytes on that stream end it, and the follower reconnects.
    run.streams[0]!.push(`\n\nevent: change\ndata: {"digest":"${digest('b')}"}\n\n`);
    await vi.waitFor(() => expect(run.streams).toHaveLength(2));
    expect(run.revalidated).toEqual([]);
  });

  it('takes a silent stream for dead after idleTimeoutInMs and reopens it', async () => {
    const run = follow([stream], { options: { minReconnectDelayInMs: 1, maxReconnectDelayInMs: 5, idleTimeoutInMs: 30 } });
    await vi.waitFor(() => expect(run.streams).toHaveLength(2), { timeout: 2000 });
  });

  it('waits twice the declared heartbeat, not idleTimeoutInMs, before taking the stream for dead', async () => {
    const started = Date.now();
    const run = follow([stream], { heartbeatIntervalInSeconds: 0.05, options: { minReconnectDelayInMs: 1, maxReconnectDelayInMs: 5, idleTimeoutInMs: 1 } });
    await vi.waitFor(() => expect(run.streams).toHaveLength(2), { timeout: 2000 });
    expect(Date.now() - started).toBeGreaterThanOrEqual(90);
  });

  it.each([
    ['an hour', '3600'],
    // Past 2^31-1 ms a Node timer fires at once: the wait must not turn into an immediate reconnection.
    ['past the longest timer Node keeps', '99999999999'],
  ])('honours a 503 Retry-After of %s, longer than its own backoff, and close() ends the wait at once', async (_case, retryAfter) => {
    const run = follow([() => new Response('busy', { status: 503, headers: { 'retry-after': retryAfter } }), stream]);
    await vi.waitFor(() => expect(run.requests).toHaveLength(1));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(run.requests).toHaveLength(1);
    const started = Date.now();
    await run.follower.close();
    expect(Date.now() - started).toBeLessThan(500);
  });

  it('close() aborts an open stream and resolves; nothing is requested afterwards', async () => {
    const run = follow([stream]);
    await vi.waitFor(() => expect(run.streams).toHaveLength(1));
    await run.follower.close();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(run.requests).toHaveLength(1);
  });
});

describe('resolveChangeFeedOptions', () => {
  it('fills the defaults', () => {
    expect(resolveChangeFeedOptions()).toEqual({ minReconnectDelayInMs: 250, maxReconnectDelayInMs: 30_000, idleTimeoutInMs: 60_000 });
  });

  it.each([
    ['minReconnectDelayInMs', 0],
    ['maxReconnectDelayInMs', -5],
    ['idleTimeoutInMs', 1.5],
    ['idleTimeoutInMs', Number.NaN],
    ['idleTimeoutInMs', 3_000_000_000],
    ['maxReconnectDelayInMs', 2 ** 40],
  ] as const)('refuses %s = %s with INVALID_OPTION naming the option', (name, value) => {
    const error = thrownBy(() => resolveChangeFeedOptions({ [name]: value }));
    expect(error.code).toBe('INVALID_OPTION');
    expect(error.message).toContain(`discovery.changeFeed.${name}`);
  });
});
