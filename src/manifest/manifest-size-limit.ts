/**
 * The default largest decoded manifest, in bytes (8 MiB), applied alike by `parseManifest`, the
 * validator CLI, the server, the client and every CLI command that reads a manifest (`--max-size`
 * raises it). Why this figure: the largest API of the test corpus, Kubernetes (1,117 tools), is
 * 2.9 MB as a compact spec v0.2 manifest and about twice that pretty-printed; 8 MiB holds it with
 * room to grow, while still bounding the memory and CPU a hostile document can cost (spec §10.4).
 */
export const defaultManifestMaxSizeInBytes: number = 8 * 1024 * 1024;
