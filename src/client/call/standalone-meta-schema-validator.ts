import type { ValidateFunction } from 'ajv/dist/2020.js';

/**
 * Placeholder for the JSON Schema 2020-12 meta-schema's validator as code generated at build time.
 * `npm run build` replaces this module's JavaScript in dist/ with the code ajv generates
 * (`scripts/write-manifest-validators.mjs`, from `createMetaSchemaAjv`): a process then checks an
 * argument schema without compiling the meta-schema first (the larger part of a first call's
 * validation). Run from source (tests), it is undefined and the meta-schema is compiled at run time.
 * @internal
 */
export const standaloneMetaSchemaValidator: ValidateFunction | undefined = undefined;
