import type { ManifestChange } from '../../manifest/diff-manifests.js';

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
