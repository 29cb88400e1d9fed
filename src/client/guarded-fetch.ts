// Short-lived re-export while imports move to fetch/ and ssrf/; removed before this round ends.
export { createGuardedFetch, createNamedGuardedFetch } from './fetch/create-guarded-fetch.js';
export type { GuardedFetch, GuardedFetchOptions, GuardedFetchTimeouts, BufferedRequestInit, BodySizeLimit, BufferedResponse, OptionNames } from './fetch/guarded-fetch-options.js';
export type { LookupFunction, ResolvedAddress, ConnectTarget } from './ssrf/create-pinned-connector.js';
export { readBodyBytes } from './fetch/read-body-bytes.js';
