import { AicapError } from '../errors/aicap-error.js';
import { checkIntegerOption, invalidOptionError } from '../errors/invalid-option-error.js';
import { exponentialDelay } from '../internal/compute-backoff-delay.js';

/** Options of {@link connectRedis}. */
export interface ConnectRedisOptions {
  /** `redis://[user:password@]host:port[/db]` (or `rediss://` for TLS). */
  url: string;
  /**
  Prefix of every key and channel aicap writes, so one Redis can serve several APIs or tenants.

  @default 'aicap:'
  */
  prefix?: string;
  /**
  How long one command may take before it fails with `STORE_UNAVAILABLE`, in milliseconds.

  @default 2000
  */
  commandTimeoutInMs?: number;
  /**
  How long the first connection may take before `connectRedis` rejects with `STORE_UNAVAILABLE`, in
  milliseconds. Raise it where many processes start at once on a busy machine (a fleet rolling out):
  there a process can take seconds to get its first turn on a core.

  @default commandTimeoutInMs
  */
  connectTimeoutInMs?: number;
  /**
  Longest wait between reconnection attempts while Redis is down, in milliseconds (the wait doubles
  from 50 ms up to this).

  @default 2000
  */
  maxReconnectDelayInMs?: number;
}

/** The shared Redis connection of the aicap stores, made by {@link connectRedis}. */
export interface AicapRedis {
  /** The key prefix in use. */
  readonly prefix: string;
  /** Runs one command; rejects with a `STORE_UNAVAILABLE` error while Redis is unreachable (no queueing). */
  command<T = unknown>(args: ReadonlyArray<string>): Promise<T>;
  /**
   * Subscribes to a channel on a dedicated connection (made on first use). `onMessage` gets each
   * message; `onResubscribed` runs after every reconnection, since messages sent meanwhile are lost.
   * Resolves with the unsubscribe function once the subscription is active.
   */
  subscribe(channel: string, onMessage: (message: string) => void, onResubscribed: () => void): Promise<() => Promise<void>>;
  /** Closes both connections. */
  close(): Promise<void>;
}

/** Errors of the Redis stores. `code` is always `STORE_UNAVAILABLE`. */
export class StoreUnavailableError extends AicapError {
  override name: string = 'StoreUnavailableError';
}

interface NodeRedisClient {
  connect(): Promise<unknown>;
  sendCommand<T>(args: ReadonlyArray<string>, options?: { abortSignal?: AbortSignal }): Promise<T>;
  duplicate(): NodeRedisClient;
  subscribe(channel: string, listener: (message: string) => void): Promise<void>;
  unsubscribe(channel: string, listener?: (message: string) => void): Promise<void>;
  on(event: string, listener: (...args: unknown[]) => void): unknown;
  close?(): Promise<void>;
  quit?(): Promise<unknown>;
  destroy?(): void;
}

/**
 * Connects to Redis with node-redis (the `redis` package, an optional peer dependency) for the aicap
 * stores. Commands are never queued while Redis is down: they fail at once with
 * `StoreUnavailableError` (`STORE_UNAVAILABLE`), so budgets and pins fail closed, and the client
 * reconnects in the background so service resumes when Redis is back. Rejects with
 * `STORE_UNAVAILABLE` when the first connection fails, and with `DEPENDENCY_MISSING` when `redis` is not
 * installed.
 */
export async function connectRedis(options: ConnectRedisOptions): Promise<AicapRedis> {
  const { prefix, commandTimeoutInMs, maxReconnectDelayInMs, connectTimeoutInMs } = checkConnectOptions(options);
  let createClient: (options: unknown) => NodeRedisClient;
  try {
    ({ createClient } = (await import('redis')) as unknown as { createClient: typeof createClient });
  } catch (error) {
    throw new AicapError('DEPENDENCY_MISSING', 'aicap/redis needs the `redis` package (node-redis): npm install redis', { cause: error });
  }
  const where = redactedUrl(options.url);
  // Until the first connection is up, a failure ends the attempt (node-redis would retry forever and
  // `connect` never settle); after it, reconnections go on in the background.
  let connected = false;
  const client = createClient({
    url: options.url,
    disableOfflineQueue: true,
    socket: { connectTimeout: connectTimeoutInMs, reconnectStrategy: (retries: number, cause: Error) => (connected ? Math.min(maxReconnectDelayInMs, exponentialDelay(50, retries + 1, 10)) : cause) },
  });
  // node-redis emits every connection error; unheard, Node would crash the process on the first outage.
  client.on('error', () => undefined);
  try {
    // node-redis's connectTimeout bounds the TCP connect only: a server that accepts and never answers
    // the handshake (AUTH, HELLO, SELECT) would leave `connect` pending for ever.
    await withinTime(client.connect(), connectTimeoutInMs, () => client.destroy?.());
    connected = true;
  } catch (error) {
    throw new StoreUnavailableError('STORE_UNAVAILABLE', `Redis at ${where} is unreachable (${(error as Error).message}); check REDIS_URL and that redis-server runs.`, { cause: error });
  }
  let subscriber: Promise<NodeRedisClient> | undefined;
  const resubscribed = new Set<() => void>();
  const subscriberConnection = (): Promise<NodeRedisClient> =>
    (subscriber ??= (async () => {
      const connection = client.duplicate();
      connection.on('error', () => undefined);
      let first = true;
      connection.on('ready', () => {
        if (first) first = false;
        else for (const listener of [...resubscribed]) listener();
      });
      await connection.connect();
      return connection;
    })());

  const command = async <T>(args: ReadonlyArray<string>): Promise<T> => {
    try {
      return await client.sendCommand<T>(args, { abortSignal: AbortSignal.timeout(commandTimeoutInMs) });
    } catch (error) {
      // A script's own error (a Lua `error_reply`) is not an outage: it names a bug and stays as it is.
      if (error instanceof Error && /^(?:ERR|WRONGTYPE|NOSCRIPT)\b/.test(error.message)) throw error;
      throw new StoreUnavailableError('STORE_UNAVAILABLE', `Redis at ${where} did not answer ${args[0] ?? ''} (${(error as Error).message}); the operation was not performed.`, { cause: error });
    }
  };

  return {
    prefix,
    command,
    async subscribe(channel, onMessage, onResubscribed) {
      let connection: NodeRedisClient;
      try {
        connection = await subscriberConnection();
        await connection.subscribe(channel, onMessage);
      } catch (error) {
        subscriber = undefined;
        throw new StoreUnavailableError('STORE_UNAVAILABLE', `Redis at ${where} refused SUBSCRIBE (${(error as Error).message}).`, { cause: error });
      }
      resubscribed.add(onResubscribed);
      return async () => {
        resubscribed.delete(onResubscribed);
        await connection.unsubscribe(channel, onMessage).catch(() => undefined);
      };
    },
    async close() {
      const connections = [client, ...(subscriber ? [await subscriber.catch(() => undefined)] : [])];
      await Promise.all(
        connections.map(async (connection) => {
          if (!connection) return;
          try {
            await (connection.close ? connection.close() : connection.quit?.());
          } catch {
            connection.destroy?.();
          }
        }),
      );
    },
  };
}

function redactedUrl(url: string): string {
  try {
    const parsed = new URL(url);
    parsed.username = '';
    parsed.password = '';
    return parsed.href;
  } catch {
    return '(an unparsable REDIS_URL)';
  }
}

// Checked before node-redis sees them: a wrong type there surfaces as a TypeError deep in its socket code.
function checkConnectOptions(options: ConnectRedisOptions): Required<Omit<ConnectRedisOptions, 'url'>> {
  if (typeof options !== 'object' || options === null) throw invalidOptionError('options', 'an object with `url`', options, { of: 'connectRedis' });
  if (typeof options.url !== 'string' || !/^rediss?:\/\//.test(options.url))
    throw invalidOptionError('url', 'a redis:// or rediss:// URL', typeof options.url === 'string' ? redactedUrl(options.url) : options.url, { of: 'connectRedis' });
  if (options.prefix !== undefined && typeof options.prefix !== 'string') throw invalidOptionError('prefix', 'a string', options.prefix, { of: 'connectRedis' });
  const milliseconds = (option: 'commandTimeoutInMs' | 'maxReconnectDelayInMs' | 'connectTimeoutInMs', fallback: number): number =>
    options[option] === undefined ? fallback : checkIntegerOption(option, options[option], { minimum: 1, of: 'connectRedis' });
  const commandTimeoutInMs = milliseconds('commandTimeoutInMs', 2000);
  return {
    prefix: options.prefix ?? 'aicap:',
    commandTimeoutInMs,
    maxReconnectDelayInMs: milliseconds('maxReconnectDelayInMs', 2000),
    connectTimeoutInMs: milliseconds('connectTimeoutInMs', commandTimeoutInMs),
  };
}

/** `promise`, or a rejection once `timeoutInMs` passed first (after calling `onTimeout`). */
async function withinTime<T>(promise: Promise<T>, timeoutInMs: number, onTimeout: () => void): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => {
      onTimeout();
      reject(new Error(`no answer within ${timeoutInMs} ms`));
    }, timeoutInMs);
  });
  try {
    return await Promise.race([promise, timedOut]);
  } finally {
    clearTimeout(timer);
  }
}
