import type { CacheStore } from '../cache/cache-store.js';

/** `ClientOptions.trust`. */
export interface TrustOptions {
  /**
  Origins a manifest may point its `service.base_url` at although they differ from the manifest's own
  origin (a manifest hosted on a CDN for an API elsewhere, for example).

  @default []
  */
  allowedOrigins?: readonly string[];
  /**
  Tool ids (or `origin|toolId` keys) handed to the model despite a high-severity poisoning finding.
  The findings are still reported. An entry the manifest declares invalidly (`entry.invalid`) stays
  held back: it cannot be sent correctly, whoever trusts it.

  @default []
  */
  allowQuarantined?: readonly string[];
  /**
  Longest text (description, intent, …) before the scan reports it as oversize, in characters. An
  oversize text is a medium-severity finding (worth reading), not a quarantine; the scan's other
  rules read it whole.

  @default 2_000
  */
  maxTextLength?: number;
  /**
  When the poisoning scan and the validation of each entry run. `'on-export'`: on each tool, resource
  or prompt where its text reaches a model or a host (exports, selection, tool searches, the framework
  adapters, the MCP bridge, calls, prompts, resources), once per version; discovery itself scans
  nothing and runs only the manifest-level checks, `client.catalog()` checks each entry's schema, and
  `service.findings` holds only what was checked so far (`client.scanAll()` checks the rest). An entry
  the manifest declares invalidly is held back everywhere (finding `entry.invalid`, which
  `allowQuarantined` does not override) while the rest of the manifest stays usable; the shared
  definitions an entry reaches only through `returns.schema`, which no use of it reads, are not part
  of its checks (spec section 9.2). `'eager'`: every manifest validated and scanned in full on
  discovery, which refuses one with any invalid entry or definition (audits, the inspector, `aicap tools`).

  @default 'on-export'
  */
  scan?: 'on-export' | 'eager';
  /**
  Where approval pins (tool digests) are kept, keyed `origin|toolId`. Share it to keep approvals across processes.

  @default an in-memory store
  */
  pins?: CacheStore<string>;
  /**
  The verified-manifest cache: after a manifest passes the strict read, validation and the poisoning
  scan, its digest and findings are stored in `cache`, keyed by the sha256 of its bytes, aicap's
  version and the options that change them (`maxTextLength`, `discovery.maxManifestSizeInBytes`).
  The same bytes met again (another process sharing the store, a new client, a changed-then-restored
  manifest) then cost `JSON.parse` and one lookup. In a store that is not `private` (Redis, a
  database) records are read and written only with `signingKey`, and a record whose HMAC does not
  match is refused and the manifest checked again. `false` turns the cache off.

  @default {} (on in a private store, off in a shared one until a signingKey is given)
  */
  verifiedManifests?: false | VerifiedManifestOptions;
}

/** `TrustOptions.verifiedManifests`. */
export interface VerifiedManifestOptions {
  /**
  Secret that authenticates the records (HMAC-SHA-256) in a shared cache store. Every process sharing
  the store needs the same key; anyone holding it can make a manifest skip its checks, so keep it
  like a credential (at least 32 random bytes).
  */
  signingKey?: string | Uint8Array;
}
