/**
 * This package's version, as in `package.json` (a test keeps them equal). Compiled in rather than read
 * from `package.json` at run time so that `aicap --version` and the verified-manifest cache key cost no
 * file read.
 * @internal
 */
export const AICAP_VERSION = '0.1.0';
