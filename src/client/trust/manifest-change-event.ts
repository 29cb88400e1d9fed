import type { ManifestChange, ManifestDiff } from '../../manifest/diff-manifests.js';
import type { Manifest } from '../../manifest/manifest-v0.js';

/** Emitted when a refreshed manifest differs from the one the client held. */
export interface ManifestChangeEvent {
  /** Origin of the service. */
  origin: string;
  /** URL of the manifest. */
  manifestUrl: string;
  /** Namespace of the service in the catalog. */
  namespace: string;
  /** Whole-manifest digest before. */
  previousDigest: string;
  /** Whole-manifest digest now. */
  digest: string;
  /** `versioning.current` before. */
  previousVersion: string | undefined;
  /** `versioning.current` now. */
  version: string | undefined;
  /** Ids of tools, resources and prompts that appeared. */
  added: string[];
  /** Ids that disappeared. */
  removed: string[];
  /** Ids whose definition changed. */
  changed: string[];
  /** Every difference, classified, as `diffManifests` (from `aicap`) reports it: breaking first. */
  changes: ManifestChange[];
  /** The changes that weaken a safety guarantee (approval removed, redaction dropped, larger budget, base_url moved…). Always worth a human's look. */
  weakened: ManifestChange[];
  /** True when calls that worked may now fail. */
  breaking: boolean;
  /** True when what the model reads or is allowed changed: pinned tools need re-approval. */
  trustSensitive: boolean;
}

/**
 * The change event of a refreshed manifest, from the classified differences of tools, resources and
 * prompts. @internal
 */
export function manifestChangeEvent(
  previous: { digest: string; manifest: Manifest },
  current: { origin: string; manifestUrl: string; namespace: string; digest: string; manifest: Manifest },
  diff: ManifestDiff,
): ManifestChangeEvent {
  const entryChanges = diff.changes.filter((change) => change.kind === 'tool' || change.kind === 'resource' || change.kind === 'prompt');
  // A whole entry appearing or disappearing points at `/tools/N`; deeper pointers are changes inside one.
  const ids = (type: 'added' | 'removed'): string[] =>
    entryChanges.filter((change) => change.change === type && (change.newPointer ?? change.oldPointer ?? '').split('/').length === 3).map((change) => change.id!);
  const added = ids('added');
  const removed = ids('removed');
  const changed = [...new Set(entryChanges.map((change) => change.id!).filter((id) => !added.includes(id) && !removed.includes(id)))];
  return {
    origin: current.origin,
    manifestUrl: current.manifestUrl,
    namespace: current.namespace,
    previousDigest: previous.digest,
    digest: current.digest,
    previousVersion: previous.manifest.versioning?.current,
    version: current.manifest.versioning?.current,
    added,
    removed,
    changed,
    changes: diff.changes,
    weakened: diff.changes.filter((change) => change.weakened),
    breaking: diff.breaking,
    trustSensitive: diff.trustSensitive,
  };
}
