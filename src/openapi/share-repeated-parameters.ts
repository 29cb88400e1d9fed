import { canonicalJson } from '../manifest/digest-manifest.js';
import type { JsonSchema, Manifest, Parameter } from '../manifest/manifest-v0.js';
import { forEachReference, parseDefinitionReference } from '../manifest/reachable-definitions.js';

/** Options of {@link shareRepeatedParameters}. */
export interface ShareRepeatedParametersOptions {
  /** Fewest parameters with the same description and schema before they share one definition. @default 2 */
  minimumUses?: number;
  /** Smallest shared text (description and schema, in JSON characters) worth a definition: below it the reference costs as much as the text. @default 120 */
  minimumBytes?: number;
}

/**
 * Moves parameters that many tools repeat word for word (Kubernetes declares the same 1,500-character
 * `limit`, `continue` and `fieldSelector` texts on 430 list operations) into one shared definition
 * each, named `parameter.<name>`: the definition holds the schema and its description, each
 * parameter keeps its type, location and flags and refers to it through `json_schema`. What a
 * client validates and an LLM reads is unchanged; the bytes are written once.
 */
export function shareRepeatedParameters(manifest: Manifest, options: ShareRepeatedParametersOptions = {}): void {
  const minimumUses = options.minimumUses ?? 2;
  const minimumBytes = options.minimumBytes ?? 120;
  const groups = new Map<string, { name: string; schema: JsonSchema; parameters: Parameter[] }>();
  for (const entry of [...manifest.tools, ...(manifest.resources ?? [])]) {
    for (const [name, parameter] of Object.entries(entry.parameters ?? {})) {
      const schema = sharedSchemaOf(parameter);
      if (schema === undefined) continue;
      const key = canonicalJson(schema);
      if (key.length < minimumBytes) continue;
      const group = groups.get(key) ?? { name, schema, parameters: [] };
      group.parameters.push(parameter);
      groups.set(key, group);
    }
  }
  const definitions: Record<string, JsonSchema> = { ...manifest.definitions };
  let shared = false;
  for (const group of groups.values()) {
    if (group.parameters.length < minimumUses) continue;
    const base = `parameter.${group.name.replace(/[^A-Za-z0-9._-]+/g, '_').slice(0, 100) || 'value'}`;
    let definitionName = base;
    for (let suffix = 2; Object.hasOwn(definitions, definitionName); suffix++) definitionName = `${base}_${suffix}`;
    definitions[definitionName] = group.schema;
    for (const parameter of group.parameters) {
      delete parameter.description;
      parameter.json_schema = { $ref: `#/definitions/${definitionName}` };
    }
    shared = true;
  }
  if (shared) manifest.definitions = definitions;
}

/**
 * The schema a parameter would share: its `json_schema` with the description, or the schema of its
 * simple form. Undefined for a parameter without description, or whose schema is a resource of its
 * own (its `$id`, `$defs` or local references would mean something else as a root definition).
 */
function sharedSchemaOf(parameter: Parameter): JsonSchema | undefined {
  if (typeof parameter.description !== 'string' || parameter.description === '') return undefined;
  const declared = parameter.json_schema;
  if (typeof declared === 'boolean') return undefined;
  if (declared !== undefined) {
    if (declared['$id'] !== undefined || declared['$defs'] !== undefined || declared['definitions'] !== undefined || !onlySharedReferences(declared)) return undefined;
    return { description: parameter.description, ...declared };
  }
  const schema: Record<string, unknown> = { type: parameter.type, description: parameter.description };
  if (parameter.enum) schema['enum'] = parameter.enum;
  if (parameter.default !== undefined) schema['default'] = parameter.default;
  if (parameter.type === 'array') schema['items'] = {};
  return schema;
}

function onlySharedReferences(schema: JsonSchema): boolean {
  let only = true;
  forEachReference(schema, (reference) => {
    if (parseDefinitionReference(reference) === undefined) only = false;
  });
  return only;
}
