import { afterEach, describe, expect, it, vi } from 'vitest';
import { thrownBy } from '../../../test/helpers/error-of.js';
import { API_ORIGIN, discoverableManifest, injectedManifestApi } from '../../../test/helpers/injected-manifest-api.js';
import { scriptedEventStream, type ScriptedStream } from '../../../test/helpers/sse-stream.js';
import type { ClientContext } from '../client-context.js';
import type { DiscoveredService } from '../shapes/client-types.js';
import { createChangeFeedFollowers, type ChangeFeedFollowers } from './create-change-feed-followers.js';
import type { ChangeFeedFollowOptions } from './follow-change-feed.js';
import { discoverService } from './discover-service.js';

// Which services' feeds are followed, over a client context whose transport plays the API and
// answers the feed with a scripted stream: no socket.

const FEED_PATH = '/.well-known/ai-capabilities/changes';
const NEW_DIGEST = `sha256-${'b'.repeat(43)}`;

const open: Array<{ context: ClientContext; followers: ChangeFeedFollowers }> = [];
afterEach(async () => {
  for (const { context, followers } of open.splice(0)) {
    await followers.close();
    await context.close();
  }
});

async function setup(given: ChangeFeedFollowOptions | false | undefined = {}, feed: { path: string } | null = { path: FEED_PATH }) {
  const manifest = { ...discoverableManifest(), ...(feed ? { change_feed: feed } : {}) };
  const { api, context } = injectedManifestApi(manifest);
  const streams: Array<{ url: string; stream: ScriptedStream }> = [];
  api.route = (request, signal) => {
    if (request.headers.get('accept') !== 'text/event-stream') return undefined;
    const stream = scriptedEventStream(signal);
    streams.push({ url: request.url, stream });
    return stream.response;
  };
  const service = await discoverService(context, API_ORIGIN);
  const revalidated: DiscoveredService[] = [];
  const followers = createChangeFeedFollowers(context, given, async (target) => void revalidated.push(target));
  open.push({ context, followers });
  return { api, context, service, followers, streams, revalidated };
}

const feedRequests = (run: { api: { requests: Array<{ url: string }> } }) => run.api.requests.filter((request) => request.url.endsWith('/changes'));

describe('createChangeFeedFollowers', () => {
  it("follows the feed on the manifest's own origin and revalidates the service when it announces another digest", async () => {
    const run = await setup();
    run.followers.follow(run.service);
    await vi.waitFor(() => expect(run.streams).toHaveLength(1));
    expect(run.streams[0]!.url).toBe(`${API_ORIGIN}${FEED_PATH}`);
    run.streams[0]!.stream.push(`event: change\ndata: {"digest":"${run.service.digest}"}\n\n`);
    run.streams[0]!.stream.push(`event: change\ndata: {"digest":"${NEW_DIGEST}"}\n\n`);
    await vi.waitFor(() => expect(run.revalidated).toHaveLength(1));
    expect(run.revalidated[0]!.manifestUrl).toBe(run.service.manifestUrl);
  });

  it('keeps one connection per service: following it again after a revalidation opens nothing new', async () => {
    const run = await setup();
    run.followers.follow(run.service);
    run.followers.follow(run.service);
    await vi.waitFor(() => expect(run.streams).toHaveLength(1));
    run.streams[0]!.stream.push(`event: change\ndata: {"digest":"${NEW_DIGEST}"}\n\n`);
    await vi.waitFor(() => expect(run.revalidated).toHaveLength(1));
    expect(feedRequests(run)).toHaveLength(1);
  });

  it.each([
    ['discovery.changeFeed: false', false, { path: FEED_PATH }],
    ['a manifest without change_feed', {}, null],
  ] as const)('follows nothing with %s', async (_case, given, feed) => {
    const run = await setup(given, feed);
    run.followers.follow(run.service);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(feedRequests(run)).toEqual([]);
  });

  it('follows nothing for a service loaded without a URL to revalidate from', async () => {
    const run = await setup();
    const { caching: _caching, ...loaded } = run.service;
    run.followers.follow(loaded);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(feedRequests(run)).toEqual([]);
  });

  it.each(['//evil.example/feed', '/\\evil.example/feed', 'https://evil.example/feed'])('never follows a feed path a URL parser reads as another host (%s)', async (path) => {
    const run = await setup();
    run.followers.follow({ ...run.service, manifest: { ...run.service.manifest, change_feed: { path } } });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(run.api.requests.filter((request) => !request.url.startsWith(`${API_ORIGIN}/`))).toEqual([]);
    expect(feedRequests(run)).toEqual([]);
  });

  it('stops following when the manifest no longer declares a feed, and moves when its path changes', async () => {
    const run = await setup();
    run.followers.follow(run.service);
    await vi.waitFor(() => expect(run.streams).toHaveLength(1));
    run.followers.follow({ ...run.service, manifest: { ...run.service.manifest, change_feed: { path: '/feed-v2/changes' } } });
    await vi.waitFor(() => expect(run.streams).toHaveLength(2));
    expect(run.streams[1]!.url).toBe(`${API_ORIGIN}/feed-v2/changes`);
    const { change_feed: _dropped, ...withoutFeed } = run.service.manifest;
    run.followers.follow({ ...run.service, manifest: withoutFeed });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(feedRequests(run)).toHaveLength(2);
  });

  it('close() ends every follower, and nothing is followed afterwards', async () => {
    const run = await setup();
    run.followers.follow(run.service);
    await vi.waitFor(() => expect(run.streams).toHaveLength(1));
    await run.followers.close();
    run.followers.follow(run.service);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(feedRequests(run)).toHaveLength(1);
  });

  it('checks the options at creation, naming them as the caller wrote them', async () => {
    const { context } = injectedManifestApi();
    const error = thrownBy(() => createChangeFeedFollowers(context, { idleTimeoutInMs: 0 }, async () => {}));
    expect(error.code).toBe('INVALID_OPTION');
    expect(error.message).toContain('discovery.changeFeed.idleTimeoutInMs');
    await context.close();
  });
});
