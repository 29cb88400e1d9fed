import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { chmod, mkdir, open, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { AicapError } from '../../errors/aicap-error.js';
import { withRegistration, type ClientRegistration, type ClientRegistrationStore } from '../shapes/client-registration-store.js';
import { sameScopes, type TokenSet, type TokenStore, type TokenStoreKey } from '../shapes/token-store.js';

/** Options of {@link createEncryptedFileTokenStore}. */
export interface CreateEncryptedFileTokenStoreOptions {
  /**
  The token file.

  @default `AICAP_TOKEN_FILE`, else `$XDG_CONFIG_HOME/aicap/tokens`, else `~/.config/aicap/tokens`
  */
  filePath?: string;
  /**
  The 256-bit key, as 64 hex digits or 44 base64 characters (`openssl rand -base64 32`).

  @default `AICAP_TOKEN_KEY`, else the key file `<filePath>.key` (created with 32 random bytes, mode 0600, on first write)
  */
  key?: string;
  /**
  The environment the defaults are read from.

  @default process.env
  */
  environment?: Readonly<Record<string, string | undefined>>;
  /**
  How long a write waits for another process holding the lock before failing, in milliseconds.

  @default 5000
  */
  lockTimeoutInMs?: number;
  /**
  A lock file older than this is taken to be left by a crashed process and removed, in milliseconds.

  @default 30000
  */
  staleLockAfterInMs?: number;
}

/** Every token set stored under one key. */
export interface StoredTokenEntry {
  /** The key. */
  key: TokenStoreKey;
  /** Its token sets, one per scope set. */
  tokens: readonly TokenSet[];
}

/** A {@link TokenStore} in one encrypted file, with the client registrations kept beside the tokens. */
export interface EncryptedFileTokenStore extends TokenStore {
  /** The file the tokens are kept in. */
  readonly filePath: string;
  /** Every key with its token sets (for `aicap logout` and for finding the login of an origin). */
  entries(): Promise<StoredTokenEntry[]>;
  /** Runs `refresh` while no other process (or store on this file) refreshes: `<file>.refresh.lock`. */
  withRefreshLock<Result>(key: TokenStoreKey, refresh: () => Promise<Result>): Promise<Result>;
  /** Dynamic client registrations, by issuer and grant set, in the same file (they may hold a client secret). */
  readonly registrations: ClientRegistrationStore;
}

/**
 * The token file cannot be used: it was changed by something other than aicap, it was written with
 * another key, or it is not a token file. The message names the file and what to do.
 */
export class TokenFileError extends AicapError {
  override name = 'TokenFileError' as const;
  /** The file concerned. */
  readonly filePath: string;

  constructor(filePath: string, message: string, options: { cause?: unknown } = {}) {
    super('STORE_UNAVAILABLE', message, options);
    this.filePath = filePath;
  }
}

// Authenticated data of every file: a file of another format or version never decrypts as this one.
const FORMAT = 'aicap-token-file-v1';
const KEY_BYTES = 32;
const IV_BYTES = 12;
const LOCK_RETRY_IN_MS = 25;
// A refresh is one token request: the client's whole-exchange deadline is 60 s.
const REFRESH_LOCK_TIMEOUT_IN_MS = 60_000;

interface Contents {
  tokens: Record<string, TokenSet[]>;
  // One registration per grant set; files written before grant sets were kept hold a single one.
  registrations: Record<string, ClientRegistration[] | ClientRegistration>;
}

/**
 * The CLI's token store: every token set and client registration in one file, encrypted with
 * AES-256-GCM (`node:crypto`), written with mode 0600 through a temporary file and a rename (a
 * reader never sees half a file), under a lock file (`<file>.lock`, created exclusively) so two
 * `aicap` processes writing at once do not lose each other's tokens: each write reads the file
 * again inside the lock. Refreshes take a second lock (`<file>.refresh.lock`, `withRefreshLock`), so
 * that two processes never spend the same rotating refresh token.
 *
 * What the encryption protects against: the token file alone leaking (a backup, a synced dotfiles
 * folder, a file attached to a bug report, another user when permissions were loosened) while the key
 * is kept elsewhere (`AICAP_TOKEN_KEY` from a secret manager or keychain), and any change to the file
 * (GCM authenticates it, so an edited file is refused with a {@link TokenFileError}, never read as
 * other tokens). What it does not protect against: anyone who can read the key as well, which with
 * the default key file `<file>.key` beside it means the same OS user, root, malware running as the
 * user, or a copy of the whole folder; then the file is as safe as its permissions (0600), like any
 * CLI's credential file.
 *
 * Errors name the file and never a token; a file that cannot be decrypted says to delete it and run
 * `aicap login` again.
 */
export function createEncryptedFileTokenStore(options: CreateEncryptedFileTokenStoreOptions = {}): EncryptedFileTokenStore {
  const environment = options.environment ?? process.env;
  const filePath = options.filePath ?? defaultTokenFilePath(environment);
  const keyFilePath = `${filePath}.key`;
  const lockFilePath = `${filePath}.lock`;
  const refreshLockFilePath = `${filePath}.refresh.lock`;
  const lockTimeoutInMs = options.lockTimeoutInMs ?? 5000;
  const staleLockAfterInMs = options.staleLockAfterInMs ?? 30_000;
  const configuredKey = options.key ?? nonEmpty(environment['AICAP_TOKEN_KEY']);
  // A bad key is a set-up mistake: said when the store is created, not at the first login.
  const fixedKey = configuredKey === undefined ? undefined : parseKey(configuredKey, options.key === undefined ? '`AICAP_TOKEN_KEY`' : 'The `key` option');
  // Writes of this process queue behind each other; the lock file orders them against other processes.
  let queue: Promise<unknown> = Promise.resolve();

  const readKey = async (create: boolean): Promise<Buffer | undefined> => {
    if (fixedKey !== undefined) return fixedKey;
    try {
      return parseKey((await readFile(keyFilePath, 'utf8')).trim(), `The key file ${keyFilePath}`);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
    if (!create) return undefined;
    const key = randomBytes(KEY_BYTES);
    try {
      // `wx`: of two processes creating it at once, one wins and the other reads the winner's key.
      await writeFile(keyFilePath, `${key.toString('base64')}\n`, { mode: 0o600, flag: 'wx' });
      return key;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      return readKey(false);
    }
  };

  const load = async (): Promise<Contents> => {
    let text: string;
    try {
      text = await readFile(filePath, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { tokens: {}, registrations: {} };
      throw new TokenFileError(filePath, `Cannot read the token file ${filePath} (${(error as Error).message}); check its permissions, or set \`AICAP_TOKEN_FILE\` to another path.`, { cause: error });
    }
    const envelope = parseEnvelope(filePath, text);
    const key = await readKey(false);
    if (key === undefined) throw unreadable(filePath, `its key file ${keyFilePath} is missing and \`AICAP_TOKEN_KEY\` is not set`);
    return decrypt(filePath, envelope, key);
  };

  const update = (change: (contents: Contents) => void): Promise<void> => {
    const next = queue.then(async () => {
      const release = await acquireLock(lockFilePath, lockTimeoutInMs, staleLockAfterInMs);
      try {
        const contents = await load();
        change(contents);
        const key = await readKey(true);
        await writeAtomically(filePath, encrypt(contents, key!));
      } finally {
        await release();
      }
    });
    queue = next.catch(() => undefined);
    return next;
  };

  return {
    filePath,
    async get(key) {
      return (await load()).tokens[storeKey(key)] ?? [];
    },
    put(key, tokens) {
      return update((contents) => {
        const name = storeKey(key);
        const others = (contents.tokens[name] ?? []).filter((set) => !sameScopes(set.scopes, tokens.scopes));
        contents.tokens[name] = [...others, tokens];
      });
    },
    delete(key, scopes) {
      return update((contents) => {
        const name = storeKey(key);
        const kept = scopes === undefined ? [] : (contents.tokens[name] ?? []).filter((set) => !sameScopes(set.scopes, scopes));
        if (kept.length === 0) delete contents.tokens[name];
        else contents.tokens[name] = kept;
      });
    },
    async withRefreshLock(_key, refresh) {
      // One lock for every key: refreshes are rare, and a separate file from the write lock, which the refresh's own `put` takes.
      const release = await acquireLock(refreshLockFilePath, REFRESH_LOCK_TIMEOUT_IN_MS, Math.max(staleLockAfterInMs, REFRESH_LOCK_TIMEOUT_IN_MS * 2));
      try {
        return await refresh();
      } finally {
        await release();
      }
    },
    async entries() {
      const { tokens } = await load();
      return Object.entries(tokens).map(([name, sets]) => {
        const [user, resource] = JSON.parse(name) as [string, string];
        return { key: { user, resource }, tokens: sets };
      });
    },
    registrations: {
      async list(issuer) {
        return [(await load()).registrations[issuer] ?? []].flat();
      },
      put(issuer, registration) {
        return update((contents) => {
          contents.registrations[issuer] = withRegistration([contents.registrations[issuer] ?? []].flat(), registration);
        });
      },
    },
  };
}

/** Where the token file is when neither the option nor `AICAP_TOKEN_FILE` says: `$XDG_CONFIG_HOME/aicap/tokens`, else `~/.config/aicap/tokens`. */
export function defaultTokenFilePath(environment: Readonly<Record<string, string | undefined>> = process.env): string {
  const explicit = nonEmpty(environment['AICAP_TOKEN_FILE']);
  if (explicit !== undefined) return explicit;
  return join(nonEmpty(environment['XDG_CONFIG_HOME']) ?? join(homedir(), '.config'), 'aicap', 'tokens');
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === '' ? undefined : value;
}

function storeKey(key: TokenStoreKey): string {
  return JSON.stringify([key.user, key.resource]);
}

function parseKey(text: string, where: string): Buffer {
  const trimmed = text.trim();
  const key = /^[0-9a-f]{64}$/i.test(trimmed) ? Buffer.from(trimmed, 'hex') : /^[A-Za-z0-9+/]{43}=$/.test(trimmed) ? Buffer.from(trimmed, 'base64') : undefined;
  if (key?.length !== KEY_BYTES) {
    throw new AicapError('INVALID_OPTION', `${where} must hold a 256-bit key as 64 hex digits or 44 base64 characters (make one with \`openssl rand -base64 32\`).`);
  }
  return key;
}

function encrypt(contents: Contents, key: Buffer): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(Buffer.from(FORMAT));
  const ciphertext = Buffer.concat([cipher.update(JSON.stringify(contents), 'utf8'), cipher.final()]);
  return `${JSON.stringify({ format: FORMAT, iv: iv.toString('base64'), tag: cipher.getAuthTag().toString('base64'), ciphertext: ciphertext.toString('base64') })}\n`;
}

interface Envelope {
  format: typeof FORMAT;
  iv: string;
  tag: string;
  ciphertext: string;
}

function parseEnvelope(filePath: string, text: string): Envelope {
  let envelope: Partial<Record<keyof Envelope, unknown>> | null;
  try {
    envelope = JSON.parse(text) as typeof envelope;
  } catch {
    throw unreadable(filePath, 'it is not an aicap token file (not JSON)');
  }
  if (
    envelope === null ||
    typeof envelope !== 'object' ||
    envelope.format !== FORMAT ||
    typeof envelope.iv !== 'string' ||
    typeof envelope.tag !== 'string' ||
    typeof envelope.ciphertext !== 'string'
  ) {
    throw unreadable(filePath, `it is not an aicap token file (no \`format: "${FORMAT}"\` with iv, tag and ciphertext)`);
  }
  return envelope as Envelope;
}

function decrypt(filePath: string, envelope: Envelope, key: Buffer): Contents {
  let plaintext: string;
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(envelope.iv, 'base64'));
    decipher.setAAD(Buffer.from(FORMAT));
    decipher.setAuthTag(Buffer.from(envelope.tag, 'base64'));
    plaintext = Buffer.concat([decipher.update(Buffer.from(envelope.ciphertext, 'base64')), decipher.final()]).toString('utf8');
  } catch (error) {
    throw unreadable(filePath, 'it was changed since aicap wrote it, or it was written with another key (`AICAP_TOKEN_KEY` or its key file)', error);
  }
  const contents = JSON.parse(plaintext) as Partial<Contents>;
  return { tokens: contents.tokens ?? {}, registrations: contents.registrations ?? {} };
}

function unreadable(filePath: string, reason: string, cause?: unknown): TokenFileError {
  return new TokenFileError(
    filePath,
    `The token file ${filePath} cannot be decrypted: ${reason}. Delete it (rm ${filePath}) and run \`aicap login <origin>\` again.`,
    cause === undefined ? {} : { cause },
  );
}

async function writeAtomically(filePath: string, text: string): Promise<void> {
  const temporary = `${filePath}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  try {
    await writeFile(temporary, text, { mode: 0o600, flag: 'wx' });
    await rename(temporary, filePath);
    // The rename keeps the temporary file's mode, but a file created before by a looser umask is fixed too.
    await chmod(filePath, 0o600);
  } catch (error) {
    await rm(temporary, { force: true });
    throw new TokenFileError(filePath, `Cannot write the token file ${filePath} (${(error as Error).message}); check that its folder is writable, or set \`AICAP_TOKEN_FILE\` to another path.`, {
      cause: error,
    });
  }
}

async function acquireLock(lockFilePath: string, timeoutInMs: number, staleAfterInMs: number): Promise<() => Promise<void>> {
  const deadline = Date.now() + timeoutInMs;
  await mkdir(dirname(lockFilePath), { recursive: true, mode: 0o700 });
  for (;;) {
    try {
      const handle = await open(lockFilePath, 'wx', 0o600);
      await handle.writeFile(String(process.pid));
      await handle.close();
      return () => rm(lockFilePath, { force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const age = await stat(lockFilePath).then(
      (info) => Date.now() - info.mtimeMs,
      () => 0,
    );
    // A crashed process never removes its lock; one this old is not held by a live write.
    if (age > staleAfterInMs) {
      await rm(lockFilePath, { force: true });
      continue;
    }
    if (Date.now() >= deadline) {
      throw new TokenFileError(
        lockFilePath,
        `Another aicap process has held the token file lock ${lockFilePath} for over ${timeoutInMs} ms; wait for it to finish, or delete the lock file if no aicap process is running.`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, LOCK_RETRY_IN_MS));
  }
}
