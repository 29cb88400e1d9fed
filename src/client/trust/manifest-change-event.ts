/** What changed in one tool (or resource or prompt) between two versions of a manifest. */
export interface ToolChange {
  /** The id. */
  id: string;
  /** Digest before. */
  previousDigest: string;
  /** Digest now. */
  digest: string;
  /** Top-level fields whose value changed (`description`, `parameters`, `path`…). */
  fields: string[];
  /** True when an existing caller could break: path, method, a new required parameter, a removed parameter. */
  breaking: boolean;
}

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
  /** Ids that appeared. */
  added: string[];
  /** Ids that disappeared. */
  removed: string[];
  /** Ids whose definition changed. */
  changed: ToolChange[];
  /** Service-level changes that matter for trust: `service.base_url`, `auth`, and every weakening of `policy`. */
  trustChanges: string[];
  /** True when a tool was removed or a change breaks callers. */
  breaking: boolean;
  /** True when a tool text, schema or endpoint changed, `base_url`/`auth` changed, or policy was weakened: pins must be re-approved. */
  trustSensitive: boolean;
}
