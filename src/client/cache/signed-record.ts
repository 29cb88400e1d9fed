import { createHmac, timingSafeEqual } from 'node:crypto';
import { isRecord } from '../../internal/is-record.js';
import type { CacheStore } from './cache-store.js';

/**
 * Where one record the client derived itself (a manifest's verdicts, a selection index) is kept, and
 * how it is protected. @internal
 */
export interface RecordSlot {
  /** The cache key. It is part of what is signed, so a record copied under another key is refused. */
  key: string;
  store: CacheStore;
  /** HMAC key of the record; undefined only for a store no one else writes (see `CacheStore.private`). */
  signingKey: string | Uint8Array | undefined;
}

/** The stored form: the record as JSON text, with its HMAC when the store is shared. */
interface StoredRecord {
  text: string;
  mac?: string;
}

/**
 * The slot for `key` in `store`, or undefined when such records are not kept: no store, or a store
 * others may write (`CacheStore.private` not true) without a signing key, where an unsigned record
 * could make the client skip a check or trust data it did not derive.
 * @internal
 */
export function recordSlotOf(store: CacheStore | undefined, key: string, signingKey: string | Uint8Array | undefined): RecordSlot | undefined {
  if (store === undefined) return undefined;
  if (signingKey === undefined && store.private !== true) return undefined;
  return { key, store, signingKey };
}

/**
 * The record's JSON text, or undefined. A record that is malformed, unsigned or wrongly signed where a
 * signature is required is refused, never trusted; so is a store that fails (a cache may always miss).
 * @internal
 */
export async function readSignedRecord(slot: RecordSlot): Promise<string | undefined> {
  let stored: unknown;
  try {
    stored = await slot.store.get(slot.key);
  } catch {
    return undefined;
  }
  if (!isRecord(stored) || typeof stored['text'] !== 'string') return undefined;
  const { text, mac } = stored as unknown as StoredRecord;
  if (slot.signingKey !== undefined && (typeof mac !== 'string' || !sameMac(mac, macOf(slot, text)))) return undefined;
  return text;
}

/** Stores a record's JSON text, signed when the slot has a key (a failing store is ignored). @internal */
export async function writeSignedRecord(slot: RecordSlot, text: string, timeToLiveInMs: number): Promise<void> {
  const stored: StoredRecord = slot.signingKey === undefined ? { text } : { text, mac: macOf(slot, text) };
  try {
    await slot.store.set(slot.key, stored, timeToLiveInMs);
  } catch {
    // What the record holds can always be derived again.
  }
}

function macOf(slot: RecordSlot, text: string): string {
  return createHmac('sha256', slot.signingKey!).update(slot.key).update('\n').update(text).digest('base64url');
}

function sameMac(given: string, expected: string): boolean {
  const left = Buffer.from(given);
  const right = Buffer.from(expected);
  return left.length === right.length && timingSafeEqual(left, right);
}
