/**
 * `aicap/redis`: shared state for fleets, on Redis through node-redis (the `redis` package, an
 * optional peer dependency). For producers, a job event store that lets any replica follow, replay
 * and answer any job; for orchestrators, the manifest cache, atomic session budgets and approval pins.
 *
 * This file is the complete public surface of the entry. Every export is chosen by hand.
 * @module
 */

export { connectRedis, StoreUnavailableError } from './connect-redis.js';
export type { AicapRedis, ConnectRedisOptions } from './connect-redis.js';
export { createRedisJobEventStore } from './create-redis-job-event-store.js';
export type { CreateRedisJobEventStoreOptions } from './create-redis-job-event-store.js';
export { createRedisCacheStore, createRedisPinStore } from './create-redis-cache-store.js';
export type { CreateRedisCacheStoreOptions } from './create-redis-cache-store.js';
export { createRedisSessionStore } from './create-redis-session-store.js';
export type { CreateRedisSessionStoreOptions } from './create-redis-session-store.js';
export { createRedisTokenStore } from './create-redis-token-store.js';
export type { CreateRedisTokenStoreOptions } from './create-redis-token-store.js';
export { createRedisManifestInvalidation } from './create-redis-manifest-invalidation.js';
export type { CreateRedisManifestInvalidationOptions, RedisManifestInvalidation } from './create-redis-manifest-invalidation.js';
