import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { AICAP_VERSION } from '../../internal/aicap-version.js';
import { isRecord } from '../../internal/is-record.js';
import type { CacheStore } from '../cache/cache-store.js';
import type { ClientContext } from '../client-context.js';
import type { TrustFinding, TrustSeverity } from '../shapes/client-types.js';

/**
 * What reading a manifest decided from its bytes alone: the digest and the poisoning scan's findings
 * (the strict read and validation passed, or there would be no record). Same bytes, same aicap version
 * and same options give the same verdicts, so a record stands for the checks themselves.
 * @internal
 */
export interface ManifestVerdicts {
  digest: string;
  scanFindings: readonly TrustFinding[];
}

/** Where one manifest's verdicts are kept, and how they are protected. @internal */
export interface VerdictSlot {
  /** The cache key: aicap version, the options that change the verdicts, sha256 of the body. */
  key: string;
  store: CacheStore;
  /** HMAC key of the records; undefined only for a store no one else writes (see `CacheStore.private`). */
  signingKey: string | Uint8Array | undefined;
}

/** The stored form: the verdicts as JSON text, with their HMAC when the store is shared. */
interface StoredVerdicts {
  verdicts: string;
  mac?: string;
}

// A record outlives most manifests' freshness: it is keyed by the bytes, so it can never be stale, only unused.
const RECORD_TIME_TO_LIVE_IN_MS = 30 * 86_400_000;
const SEVERITIES: ReadonlySet<TrustSeverity> = new Set(['low', 'medium', 'high']);

/**
 * The slot for a manifest body, or undefined when verdicts are not cached: no cache, the option
 * `trust.verifiedManifests: false`, or a store others may write (`CacheStore.private` not true)
 * without `trust.verifiedManifests.signingKey` (an unsigned record there could whitelist any manifest).
 * `optionsKey` names every option that changes the verdicts.
 * @internal
 */
export function verdictSlotOf(context: ClientContext, body: Uint8Array, optionsKey: string): VerdictSlot | undefined {
  const setting = context.options.trust?.verifiedManifests;
  const store = context.cache;
  if (setting === false || store === undefined) return undefined;
  const signingKey = setting?.signingKey;
  if (signingKey === undefined && store.private !== true) return undefined;
  const sha256 = createHash('sha256').update(body).digest('base64url');
  return { key: `verified|${AICAP_VERSION}|${optionsKey}|${sha256}`, store, signingKey };
}

/**
 * The verdicts stored for a slot, or undefined. A record that is malformed, unsigned or wrongly signed
 * where a signature is required is refused (undefined: the manifest is checked again), never trusted;
 * so is a store that fails (a cache may always miss).
 * @internal
 */
export async function lookUpVerdicts(slot: VerdictSlot): Promise<ManifestVerdicts | undefined> {
  let stored: unknown;
  try {
    stored = await slot.store.get(slot.key);
  } catch {
    return undefined;
  }
  if (!isRecord(stored) || typeof stored['verdicts'] !== 'string') return undefined;
  const { verdicts, mac } = stored as unknown as StoredVerdicts;
  if (slot.signingKey !== undefined && (typeof mac !== 'string' || !sameMac(mac, macOf(slot, verdicts)))) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(verdicts);
  } catch {
    return undefined;
  }
  return isVerdicts(parsed) ? parsed : undefined;
}

/** Stores the verdicts of a manifest that passed every check (a failing store is ignored). @internal */
export async function storeVerdicts(slot: VerdictSlot, verdicts: ManifestVerdicts): Promise<void> {
  const text = JSON.stringify({ digest: verdicts.digest, scanFindings: verdicts.scanFindings });
  const stored: StoredVerdicts = slot.signingKey === undefined ? { verdicts: text } : { verdicts: text, mac: macOf(slot, text) };
  try {
    await slot.store.set(slot.key, stored, RECORD_TIME_TO_LIVE_IN_MS);
  } catch {
    // The verdicts hold without being cached.
  }
}

// The key is part of what is signed, so a record copied under another manifest's key is refused.
function macOf(slot: VerdictSlot, verdicts: string): string {
  return createHmac('sha256', slot.signingKey!).update(slot.key).update('\n').update(verdicts).digest('base64url');
}

function sameMac(given: string, expected: string): boolean {
  const left = Buffer.from(given);
  const right = Buffer.from(expected);
  return left.length === right.length && timingSafeEqual(left, right);
}

function isVerdicts(value: unknown): value is ManifestVerdicts {
  return isRecord(value) && typeof value['digest'] === 'string' && Array.isArray(value['scanFindings']) && value['scanFindings'].every(isFinding);
}

function isFinding(value: unknown): value is TrustFinding {
  if (!isRecord(value)) return false;
  const { code, pointer, text, severity, message, toolId } = value;
  return (
    typeof code === 'string' &&
    typeof pointer === 'string' &&
    typeof text === 'string' &&
    typeof message === 'string' &&
    SEVERITIES.has(severity as TrustSeverity) &&
    (toolId === undefined || typeof toolId === 'string')
  );
}
