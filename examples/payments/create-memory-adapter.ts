/**
 * A bounded in-memory storage adapter for `oidc-provider` (tokens, codes, sessions, grants, clients),
 * one per server, so two example servers in one process never share tokens and the provider's
 * start-up warning about its development adapter does not apply. A fleet would use a shared store.
 * @module
 */

/** A stored model's payload, as `oidc-provider` hands it over. */
type Payload = Record<string, unknown> & { grantId?: string; userCode?: string; uid?: string; consumed?: number };

/** The adapter contract of `oidc-provider` (one instance per model name). */
export interface OidcAdapter {
  upsert(id: string, payload: Payload, expiresInSeconds?: number): Promise<void>;
  find(id: string): Promise<Payload | undefined>;
  findByUserCode(userCode: string): Promise<Payload | undefined>;
  findByUid(uid: string): Promise<Payload | undefined>;
  consume(id: string): Promise<void>;
  destroy(id: string): Promise<void>;
  revokeByGrantId(grantId: string): Promise<void>;
}

interface Entry {
  payload: Payload;
  expiresAt: number;
}

/**
 * An adapter class for the provider's `adapter` option, over one store of at most `maxEntries`
 * entries (the oldest goes first).
 */
export function createMemoryAdapter(maxEntries = 10_000): new (name: string) => OidcAdapter {
  const entries = new Map<string, Entry>();
  const index = new Map<string, string>();
  const grants = new Map<string, Set<string>>();
  const live = (key: string): Payload | undefined => {
    const entry = entries.get(key);
    if (!entry) return undefined;
    if (entry.expiresAt > Date.now()) return entry.payload;
    entries.delete(key);
    return undefined;
  };
  return class MemoryAdapter implements OidcAdapter {
    constructor(private readonly name: string) {}

    private key(id: string): string {
      return `${this.name}:${id}`;
    }

    upsert(id: string, payload: Payload, expiresInSeconds?: number): Promise<void> {
      const key = this.key(id);
      entries.delete(key);
      entries.set(key, { payload, expiresAt: expiresInSeconds === undefined ? Number.POSITIVE_INFINITY : Date.now() + expiresInSeconds * 1000 });
      if (entries.size > maxEntries) entries.delete(entries.keys().next().value!);
      if (payload.userCode !== undefined) index.set(`${this.name}:userCode:${payload.userCode}`, id);
      if (payload.uid !== undefined) index.set(`${this.name}:uid:${payload.uid}`, id);
      if (payload.grantId !== undefined) grants.set(payload.grantId, (grants.get(payload.grantId) ?? new Set()).add(key));
      // The lookups are bounded like the entries: a stale one only finds nothing.
      if (index.size > maxEntries) index.delete(index.keys().next().value!);
      if (grants.size > maxEntries) grants.delete(grants.keys().next().value!);
      return Promise.resolve();
    }

    find(id: string): Promise<Payload | undefined> {
      return Promise.resolve(live(this.key(id)));
    }

    findByUserCode(userCode: string): Promise<Payload | undefined> {
      const id = index.get(`${this.name}:userCode:${userCode}`);
      return Promise.resolve(id === undefined ? undefined : live(this.key(id)));
    }

    findByUid(uid: string): Promise<Payload | undefined> {
      const id = index.get(`${this.name}:uid:${uid}`);
      return Promise.resolve(id === undefined ? undefined : live(this.key(id)));
    }

    consume(id: string): Promise<void> {
      const payload = live(this.key(id));
      if (payload) payload.consumed = Math.floor(Date.now() / 1000);
      return Promise.resolve();
    }

    destroy(id: string): Promise<void> {
      entries.delete(this.key(id));
      return Promise.resolve();
    }

    revokeByGrantId(grantId: string): Promise<void> {
      for (const key of grants.get(grantId) ?? []) entries.delete(key);
      grants.delete(grantId);
      return Promise.resolve();
    }
  };
}
