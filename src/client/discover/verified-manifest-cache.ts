import { AICAP_VERSION } from '../../internal/aicap-version.js';
import { isRecord } from '../../internal/is-record.js';
import { readSignedRecord, recordSlotOf, writeSignedRecord, type RecordSlot } from '../cache/signed-record.js';
import type { DiscoveryContext } from './discovery-context.js';
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
export type VerdictSlot = RecordSlot;

// A record outlives most manifests' freshness: it is keyed by the bytes, so it can never be stale, only unused.
const RECORD_TIME_TO_LIVE_IN_MS = 30 * 86_400_000;
const SEVERITIES: ReadonlySet<TrustSeverity> = new Set(['low', 'medium', 'high']);

/**
 * The slot for a manifest body, or undefined when verdicts are not cached: no cache, the option
 * `trust.verifiedManifests: false`, or a store others may write (`CacheStore.private` not true)
 * without `trust.verifiedManifests.signingKey` (an unsigned record there could whitelist any manifest).
 * The key holds the aicap version, `optionsKey` (every option that changes the verdicts) and the
 * body's SHA-256 (`bodySha256`, base64url: `sha256Base64url` of the body).
 * @internal
 */
export function verdictSlotOf(context: Pick<DiscoveryContext, 'options' | 'cache'>, bodySha256: string, optionsKey: string): VerdictSlot | undefined {
  const setting = context.options.trust?.verifiedManifests;
  if (setting === false) return undefined;
  return recordSlotOf(context.cache, `verified|${AICAP_VERSION}|${optionsKey}|${bodySha256}`, setting?.signingKey);
}

/**
 * The verdicts stored for a slot, or undefined. A record that is malformed, unsigned or wrongly signed
 * where a signature is required is refused (undefined: the manifest is checked again), never trusted;
 * so is a store that fails (a cache may always miss).
 * @internal
 */
export async function lookUpVerdicts(slot: VerdictSlot): Promise<ManifestVerdicts | undefined> {
  const text = await readSignedRecord(slot);
  if (text === undefined) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return undefined;
  }
  return isVerdicts(parsed) ? parsed : undefined;
}

/** Stores the verdicts of a manifest that passed every check (a failing store is ignored). @internal */
export async function storeVerdicts(slot: VerdictSlot, verdicts: ManifestVerdicts): Promise<void> {
  await writeSignedRecord(slot, JSON.stringify({ digest: verdicts.digest, scanFindings: verdicts.scanFindings }), RECORD_TIME_TO_LIVE_IN_MS);
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
