import { createRequire } from 'node:module';
import type { Ajv2020, Options, ValidateFunction } from 'ajv/dist/2020.js';
import { manifestSchema } from './manifest-schema.js';
import { standaloneManifestValidators } from './standalone-manifest-validators.js';

// ajv's compiler (about 90 CommonJS modules) is needed only to compile the schema: at build time, or at
// run time when the build wrote no standalone validators. The generated ones need none of it, so a
// process's first validation does not load it; `require` keeps the compile synchronous, as validation is.
const load = createRequire(import.meta.url);

/** The lists whose elements are validated one by one. @internal */
export const MANIFEST_LISTS = ['tools', 'resources', 'prompts'] as const;

/** The schema's validators: the document without its list elements, and one element of each list. @internal */
export interface ManifestValidators {
  /** The whole schema except the elements of `tools`, `resources` and `prompts` (their arrays still are). */
  root: ValidateFunction;
  /** One element of each list. */
  items: Record<(typeof MANIFEST_LISTS)[number], ValidateFunction>;
}

const DEFINITION_OF_LIST = { tools: 'tool', resources: 'resource', prompts: 'prompt' } as const;
// The root validator's schema gets an id of its own so that build-time code generation can name it;
// its references (`#/$defs/…`) resolve inside it, as they do without an id.
const ROOT_ID = 'urn:aicap:manifest-without-list-elements';

/**
 * The schema references of the validators, by the name they are exported under: `root` and one per
 * list (`tools`, `resources`, `prompts`). @internal
 */
export const MANIFEST_VALIDATOR_REFERENCES: Readonly<Record<'root' | (typeof MANIFEST_LISTS)[number], string>> = {
  root: ROOT_ID,
  tools: `${manifestSchema.$id}#/$defs/${DEFINITION_OF_LIST.tools}`,
  resources: `${manifestSchema.$id}#/$defs/${DEFINITION_OF_LIST.resources}`,
  prompts: `${manifestSchema.$id}#/$defs/${DEFINITION_OF_LIST.prompts}`,
};

/**
 * The ajv instance holding the manifest schema and the root validator's schema, with the options
 * validation has always used. `$data` stays off (CVE-2025-69873); the manifest schema is ours, so
 * strict mode can be on. `code` options are merged (the build passes `source` for code generation).
 * @internal
 */
export function createManifestAjv(code: Options['code'] = {}): Ajv2020 {
  // ajv's optimisation passes only tidy the generated code: skipping them takes about a third off a
  // compile at run time and costs nothing measurable per validation.
  const { Ajv2020: AjvClass } = load('ajv/dist/2020.js') as { Ajv2020: typeof Ajv2020 };
  const ajv = new AjvClass({ allErrors: true, strict: true, allowUnionTypes: true, validateFormats: false, code: { optimize: false, ...code } });
  // Ajv2020 always tracks which members each subschema evaluated, for `unevaluatedProperties` and
  // `unevaluatedItems`: an object of about 30 members built per tool, a fifth of what validating
  // GitHub's manifest allocates. The manifest schema uses neither keyword, so nothing reads it; the
  // code is generated without it (the generator reads the option when it compiles, after this).
  if (!usesUnevaluatedKeywords(manifestSchema)) ajv.opts.unevaluated = false;
  ajv.addSchema(manifestSchema);
  const { $id: _id, ...schema } = manifestSchema;
  const properties: Record<string, unknown> = { ...schema.properties };
  for (const list of MANIFEST_LISTS) properties[list] = { ...schema.properties[list], items: true };
  ajv.addSchema({ ...schema, $id: ROOT_ID, properties });
  return ajv;
}

/** Whether a schema holds `unevaluatedProperties` or `unevaluatedItems` anywhere, the keywords that need evaluated members tracked. @internal */
export function usesUnevaluatedKeywords(schema: unknown): boolean {
  return /"unevaluated(?:Properties|Items)"/.test(JSON.stringify(schema));
}

/** Compiles the validators at run time (about 200 ms once per process). @internal */
export function compileManifestValidators(): ManifestValidators {
  const ajv = createManifestAjv();
  const get = (reference: string): ValidateFunction => {
    const validate = ajv.getSchema(reference);
    if (!validate) throw new Error(`manifest schema has no ${reference}`);
    return validate;
  };
  return {
    root: get(MANIFEST_VALIDATOR_REFERENCES.root),
    items: { tools: get(MANIFEST_VALIDATOR_REFERENCES.tools), resources: get(MANIFEST_VALIDATOR_REFERENCES.resources), prompts: get(MANIFEST_VALIDATOR_REFERENCES.prompts) },
  };
}

let validators: ManifestValidators | undefined;

/**
 * The validators: generated at build time from the schema when the build wrote them
 * (`scripts/write-manifest-validators.mjs`), which saves the compile a process would otherwise pay on
 * its first validation; else compiled on first use, so that importing `aicap` stays cheap either way.
 * @internal
 */
export function getManifestValidators(): ManifestValidators {
  if (validators) return validators;
  const standalone = standaloneManifestValidators;
  validators = standalone ? { root: standalone.root, items: { tools: standalone.tools, resources: standalone.resources, prompts: standalone.prompts } } : compileManifestValidators();
  return validators;
}
