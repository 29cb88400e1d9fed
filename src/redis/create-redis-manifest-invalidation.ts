import type { Client } from '../client/index.js';
import { AicapError } from '../errors/aicap-error.js';
import { isRecord } from '../internal/is-record.js';
import type { AicapRedis } from './connect-redis.js';

/** Options of {@link createRedisManifestInvalidation}. */
export interface CreateRedisManifestInvalidationOptions {
  /** The connection (from `connectRedis`); every process of the fleet uses the same Redis and prefix. */
  redis: AicapRedis;
  /** This process's client: its changes are published, and it revalidates on the others'. */
  client: Pick<Client, 'on' | 'services' | 'revalidate'>;
}

/** A running fleet invalidation, made by {@link createRedisManifestInvalidation}. */
export interface RedisManifestInvalidation {
  /** Stops publishing and listening (the Redis connection stays open). */
  close(): Promise<void>;
}

/** One announcement on the channel: a manifest URL and the digest some process now holds for it. */
interface DigestMessage {
  readonly manifestUrl: string;
  readonly digest: string;
}

const DIGEST = /^sha256-[A-Za-z0-9_-]{43}$/;
// A message is two short strings; anything longer is not ours and is not parsed.
const MAX_MESSAGE_LENGTH = 4096;

/**
 * Spreads what one process learns about a manifest to every process of the fleet: when this process's
 * client sees a new digest (its change feed, a rediscovery, a revalidation after a 404), the digest is
 * published on `<prefix>manifest-changed`, and every process holding another digest for that manifest
 * URL revalidates it at once (`client.revalidate`), so a removed tool is refused fleet-wide within a
 * round trip. Only services a process discovered itself are revalidated: a message never makes a
 * process fetch a URL of the sender's choosing. A digest heard on the channel is not published again.
 * Resolves once the subscription is active.
 * @example
 * ```ts
 * const invalidation = await createRedisManifestInvalidation({ redis, client });
 * ```
 */
export async function createRedisManifestInvalidation(options: CreateRedisManifestInvalidationOptions): Promise<RedisManifestInvalidation> {
  const { redis, client } = options ?? {};
  if (!redis || typeof redis.subscribe !== 'function' || !client || typeof client.on !== 'function') {
    throw new AicapError('INVALID_OPTION', 'createRedisManifestInvalidation needs `redis` (from connectRedis) and `client` (from createClient).');
  }
  const channel = `${redis.prefix}manifest-changed`;
  // The digest each manifest URL was last announced with, heard or published: never announced twice.
  const announced = new Map<string, string>();
  const revalidateAll = (): void => {
    // After a reconnection messages may have been lost: every followed service is checked once.
    for (const service of client.services()) void client.revalidate(service.manifestUrl).catch(() => undefined);
  };
  const onMessage = (text: string): void => {
    const message = parseMessage(text);
    if (!message) return;
    announced.set(message.manifestUrl, message.digest);
    const service = client.services().find((candidate) => candidate.manifestUrl === message.manifestUrl);
    if (!service || service.digest === message.digest) return;
    void client.revalidate(service.manifestUrl).catch(() => undefined);
  };
  const unsubscribe = await redis.subscribe(channel, onMessage, revalidateAll);
  const stopListening = client.on('change', (event) => {
    if (announced.get(event.manifestUrl) === event.digest) return;
    announced.set(event.manifestUrl, event.digest);
    const message: DigestMessage = { manifestUrl: event.manifestUrl, digest: event.digest };
    void redis.command(['PUBLISH', channel, JSON.stringify(message)]).catch(() => undefined);
  });
  return {
    async close() {
      stopListening();
      await unsubscribe();
    },
  };
}

function parseMessage(text: string): DigestMessage | undefined {
  if (text.length > MAX_MESSAGE_LENGTH) return undefined;
  try {
    const parsed: unknown = JSON.parse(text);
    if (!isRecord(parsed) || typeof parsed['manifestUrl'] !== 'string' || typeof parsed['digest'] !== 'string' || !DIGEST.test(parsed['digest'])) return undefined;
    return { manifestUrl: parsed['manifestUrl'], digest: parsed['digest'] };
  } catch {
    return undefined;
  }
}
