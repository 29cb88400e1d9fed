import { AicapError } from '../errors/aicap-error.js';
import type { Client, ClientOptions } from '../client/index.js';
// The seam, not the index: the index loads every export of `aicap/client` (OAuth flows, jobs, tool runs).
import { createClient as createLibraryClient, redactUrl } from '../client/call-seam.js';
import type { AicapRedis, StoreUnavailableError as StoreUnavailableErrorClass } from '../redis/index.js';
import type { CacheStore } from '../client/index.js';
import type { CliIo } from './cli-io.js';
import { cliErrorMessage } from './cli-error-message.js';
import type { CommandOptions } from './parse-command-line.js';

/** The environment variable that makes the CLI share its state through Redis. */
export const REDIS_URL_VARIABLE = 'AICAP_REDIS_URL';
/** The key that signs verified-manifest records in Redis (`trust.verifiedManifests.signingKey`). */
export const MANIFEST_SIGNING_KEY_VARIABLE = 'AICAP_MANIFEST_SIGNING_KEY';
// Shorter keys are guessable: the key lets whoever holds it make a manifest skip its checks.
const MIN_SIGNING_KEY_LENGTH = 32;

/** `--session`, for the commands that call tools (their budget counts per session). */
export const SESSION_FLAGS: { readonly session: { readonly type: 'string' } } = {
  session: { type: 'string' },
} as const satisfies CommandOptions;

/** The `Environment:` paragraph of a usage text: what `AICAP_REDIS_URL` shares. */
export const SHARED_STATE_ENVIRONMENT: string = `
Environment:
  ${REDIS_URL_VARIABLE}=redis://[user:password@]host:port[/db]
      share the manifest cache, the session budgets and the approval pins with every process that
      uses the same Redis (keys under "aicap:"; needs the optional \`redis\` package: npm install
      redis). Budgets and pins fail closed: when Redis cannot be reached nothing is sent.
  ${MANIFEST_SIGNING_KEY_VARIABLE}=<at least 32 random characters>
      with ${REDIS_URL_VARIABLE}: signs the verified-manifest records kept in Redis (HMAC-SHA-256), so
      a manifest already checked by any process sharing the key is not checked again; without it
      nothing is cached there as verified. Keep it like a credential: it can whitelist a manifest.
`;

/** The `--session` line of a usage text, aligned at `column`. */
export function sessionUsage(column: number): string {
  const indent = ' '.repeat(column + 2);
  return `  ${'--session <id>'.padEnd(column)}the session whose budget (max_actions_per_session) the calls count
${indent}against. With ${REDIS_URL_VARIABLE} it is required, and every process naming the same id
${indent}shares one budget; without it, default a fresh session per process
`;
}

/** What the command asks of the shared state. */
export interface OpenSharedStateOptions {
  /** `--session`, when the command takes it. */
  session?: string | undefined;
  /**
  Whether the command calls tools, so that with Redis a session must be named (a fresh session per
  process would silently give every process a budget of its own).

  @default false
  */
  requireSession?: boolean;
  /**
  `--pin`: the command records approvals for other processes, which needs `AICAP_REDIS_URL`.

  @default false
  */
  pin?: boolean;
  /**
  The manifest cache without Redis (the CLI's file store), or `false` for none (`--no-cache`); with
  Redis, `false` still turns caching off.

  @default an in-memory store
  */
  cache?: CacheStore | false;
  /**
  The environment read for `AICAP_REDIS_URL` and `AICAP_MANIFEST_SIGNING_KEY`.

  @default process.env
  */
  environment?: Readonly<Record<string, string | undefined>>;
}

/** The cache, budgets and pins of one CLI process: in memory, or in Redis when `AICAP_REDIS_URL` is set. */
export interface SharedState {
  /** True when the state lives in Redis (shared with other processes). */
  readonly shared: boolean;
  /**
   * `createClient` with the shared cache, session store and pin store (and `--session`) merged into
   * `options`; the client's `close()` also closes the Redis connection.
   */
  createClient(options: ClientOptions): Client;
  /** Closes the Redis connection (the client's `close()` does it too). */
  close(): Promise<void>;
}

/**
 * Opens the state the commands that discover or call share across processes. Without
 * `AICAP_REDIS_URL` everything stays in this process. With it, the client's cache, session budgets
 * and pins go to Redis through `aicap/redis`. Prints one line naming the fix and resolves to exit code
 * 2 when the URL is malformed, the `redis` package is missing, Redis cannot be reached, or a calling
 * command names no `--session`: nothing has been sent then.
 */
export async function openSharedState(io: CliIo, options: OpenSharedStateOptions = {}): Promise<SharedState | number> {
  const url = (options.environment ?? process.env)[REDIS_URL_VARIABLE] || undefined;
  const session = options.session === undefined ? {} : { id: options.session };
  if (url === undefined && options.pin === true) {
    io.error(`The \`--pin\` option records the approval for other processes, in Redis: set \`${REDIS_URL_VARIABLE}\` (pins kept in memory end with this process).`);
    return 2;
  }
  if (url === undefined) {
    const cache = options.cache === undefined ? {} : { cache: options.cache };
    return { shared: false, createClient: (clientOptions) => createLibraryClient({ ...clientOptions, ...cache, session: { ...clientOptions.session, ...session } }), close: async () => undefined };
  }
  const where = redactUrl(url);
  if (!/^rediss?:$/.test(protocolOf(url))) {
    io.error(`\`${REDIS_URL_VARIABLE}\` must be a redis:// or rediss:// URL such as redis://127.0.0.1:6379, got ${where}.`);
    return 2;
  }
  if (options.requireSession === true && options.session === undefined) {
    io.error(`With \`${REDIS_URL_VARIABLE}\` set, processes share budgets by session: name it with \`--session <id>\` (the same id in every process that shares the budget).`);
    return 2;
  }
  // Loaded only here: a process without Redis (the common case) pays nothing for the Redis stores.
  const { connectRedis, createRedisCacheStore, createRedisPinStore, createRedisSessionStore, StoreUnavailableError } = await import('../redis/index.js');
  let redis: AicapRedis;
  try {
    redis = await connectRedis({ url });
  } catch (error) {
    io.error(cliErrorMessage(explainConnectFailure(error, url, where, StoreUnavailableError)));
    return 2;
  }
  const signingKey = (options.environment ?? process.env)[MANIFEST_SIGNING_KEY_VARIABLE] || undefined;
  if (signingKey !== undefined && signingKey.length < MIN_SIGNING_KEY_LENGTH) {
    await redis.close();
    io.error(
      `\`${MANIFEST_SIGNING_KEY_VARIABLE}\` must be at least ${MIN_SIGNING_KEY_LENGTH} characters (random, e.g. \`openssl rand -hex 32\`), got ${signingKey.length}; unset it to keep no verified manifests in Redis.`,
    );
    return 2;
  }
  const verified = signingKey === undefined ? {} : { verifiedManifests: { signingKey } };
  const cache = options.cache === false ? false : createRedisCacheStore({ redis });
  const pins = createRedisPinStore({ redis });
  const store = createRedisSessionStore({ redis });
  let closed: Promise<void> | undefined;
  const close = (): Promise<void> => (closed ??= redis.close());
  return {
    shared: true,
    createClient(clientOptions) {
      let client: Client;
      try {
        client = createLibraryClient({ ...clientOptions, cache, session: { ...clientOptions.session, ...session, store }, trust: { ...clientOptions.trust, ...verified, pins } });
      } catch (error) {
        // An open connection would keep the process alive after the command has failed.
        void close();
        throw error;
      }
      return {
        ...client,
        async close() {
          try {
            await client.close();
          } finally {
            await close();
          }
        },
      };
    },
    close,
  };
}

/** A connection failure, said in the CLI's words: which variable, where (without the password), what to do. */
function explainConnectFailure(error: unknown, url: string, where: string, StoreUnavailableError: typeof StoreUnavailableErrorClass): AicapError {
  const cause = AicapError.isInstance(error) && error.cause instanceof Error ? error.cause : error;
  if (AicapError.isInstance(error) && (cause as { code?: unknown }).code === 'ERR_MODULE_NOT_FOUND') {
    return new AicapError(error.code, `\`${REDIS_URL_VARIABLE}\` is set, and sharing state through Redis needs the optional \`redis\` package: npm install redis (or unset ${REDIS_URL_VARIABLE}).`, {
      cause: error,
    });
  }
  const password = safePassword(url);
  const reason = cause instanceof Error ? cause.message : String(cause);
  const shown = password === '' ? reason : reason.replaceAll(password, '[REDACTED]');
  return new StoreUnavailableError(
    'STORE_UNAVAILABLE',
    `Redis at \`${REDIS_URL_VARIABLE}\` (${where}) is unreachable (${shown}); nothing was sent. Start redis-server there or correct ${REDIS_URL_VARIABLE}; unset it to keep the cache, budgets and pins in this process only.`,
    { cause: error },
  );
}

function protocolOf(url: string): string {
  try {
    return new URL(url).protocol;
  } catch {
    return '';
  }
}

function safePassword(url: string): string {
  try {
    return decodeURIComponent(new URL(url).password);
  } catch {
    return '';
  }
}
