/**
 * The light part of `seam.ts` (which re-exports it): what the CLI's `call` and `tools` paths need
 * (the client itself, redaction, the network defaults their usage prints, stored user tokens), apart so that they load
 * neither the tool search, nor OAuth, nor the check. `test/package/layers.test.ts` opens it as it
 * opens `seam.ts`.
 * @module
 */

/** @internal */
export { createClient } from './create-client.js';
/** @internal */
export { JobError } from './jobs/job-error.js';
export type { EncryptedFileTokenStore, StoredTokenEntry } from './oauth/create-encrypted-file-token-store.js';
/** @internal */
export { DEFAULT_TOKEN_USER } from './shapes/token-store.js';
/** @internal */
export { resourceCoversUrl } from './oauth/resource-covers-url.js';
/** @internal */
export { CREDENTIALS_WITHHELD } from './discover/discover-service.js';
/** @internal */
export { DEFAULT_MAX_RESPONSE_SIZE_IN_BYTES, DEFAULT_TIMEOUTS } from './fetch/guarded-fetch-options.js';
export type { Redactor } from './policy/create-redactor.js';
/** @internal */
export { createRedactor } from './policy/create-redactor.js';
/** @internal */
export { redactUrl } from '../internal/http/redact-url.js';
