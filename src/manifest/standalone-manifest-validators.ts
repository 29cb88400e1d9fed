import type { ValidateFunction } from 'ajv/dist/2020.js';

/** The manifest schema's validators as generated code, named as in `MANIFEST_VALIDATOR_REFERENCES`. @internal */
export interface StandaloneManifestValidators {
  root: ValidateFunction;
  tools: ValidateFunction;
  resources: ValidateFunction;
  prompts: ValidateFunction;
}

/**
 * Placeholder for the validators generated at build time. `npm run build` replaces this module's
 * JavaScript in dist/ with the code ajv generates from the manifest schema
 * (`scripts/write-manifest-validators.mjs`); run from source (tests), it is undefined and the schema is
 * compiled at run time instead. The schema stays the source of truth either way.
 * @internal
 */
export const standaloneManifestValidators: StandaloneManifestValidators | undefined = undefined;
