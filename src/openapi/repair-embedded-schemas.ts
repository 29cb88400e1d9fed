import { fromPointer } from '../internal/json-pointer.js';
import { checkDefinitionCycles } from '../manifest/check-definition-references.js';
import { checkEmbeddedSchema } from '../manifest/check-embedded-schema.js';
import type { JsonSchema, Manifest, Parameter, Resource, Tool } from '../manifest/manifest-v0.js';
import { isRecord, type GeneratorWarning } from './transform/transform-context.js';

// Embedded-schema findings that one keyword causes: dropping the keyword loosens validation a
// little and keeps the rest of the schema. Any other finding (size, depth) simplifies the schema.
const DROPPABLE: Record<string, string> = {
  'schema.unsafe_pattern': 'regular expressions that could backtrack catastrophically',
  'schema.invalid_pattern': 'regular expressions that are not valid in Unicode mode',
  'schema.unbounded_unique_items': '"uniqueItems" without a small "maxItems" on non-scalar items',
};

/**
 * Keeps embedded schemas (and the shared definitions) within what `validateManifest` accepts: risky
 * keywords go, oversized schemas shrink, definitions that loop without consuming the instance become `{}`.
 */
export function repairEmbeddedSchemas(manifest: Manifest, warnings: GeneratorWarning[]): void {
  const entries: Array<Tool | Resource> = [...manifest.tools, ...(manifest.resources ?? [])];
  const dropped = new Map<string, Set<string>>();
  for (const entry of entries) {
    const where = `${'method' in entry && entry.method ? entry.method : 'GET'} ${entry.path}`;
    for (const [name, parameter] of Object.entries(entry.parameters ?? {})) {
      if (parameter.json_schema === undefined) continue;
      if (repairSchema(parameter.json_schema, dropped) === undefined) {
        warnings.push({ code: 'schema.simplified', where, message: `the schema of parameter "${name}" is too large or too deep for a manifest; only its type (${parameter.type}) is declared` });
        simplify(parameter);
      }
    }
    const returns = entry.returns;
    if (returns) {
      for (const key of ['schema', 'item_schema'] as const) {
        const schema = returns[key];
        if (isRecord(schema) && repairSchema(schema, dropped) === undefined) delete returns[key];
      }
    }
  }
  repairDefinitions(manifest, dropped, warnings);
  for (const [code, values] of dropped) {
    const listed = [...values]
      .slice(0, 5)
      .map((value) => JSON.stringify(value).slice(0, 60))
      .join(', ');
    warnings.push({
      code: 'schema.keyword_dropped',
      where: 'schemas',
      message: `${values.size} distinct ${DROPPABLE[code]} were left out of embedded schemas (${listed}${values.size > 5 ? ', …' : ''})`,
    });
  }
}

function repairSchema(schema: JsonSchema, dropped: Map<string, Set<string>>): JsonSchema | undefined {
  // Each pass removes every offending keyword it finds; a few passes settle any schema.
  for (let pass = 0; pass < 3; pass++) {
    const issues = checkEmbeddedSchema(schema, '');
    if (issues.length === 0) return schema;
    for (const issue of issues) {
      if (DROPPABLE[issue.code] === undefined) return undefined;
      const tokens = fromPointer(issue.pointer);
      const keyword = tokens.at(-1);
      const owner = tokens.slice(0, -1).reduce<unknown>((node, token) => (typeof node === 'object' && node !== null ? (node as Record<string, unknown>)[token] : undefined), schema);
      if (keyword === undefined || !isRecord(owner) || !(keyword in owner)) return undefined;
      (dropped.get(issue.code) ?? dropped.set(issue.code, new Set()).get(issue.code)!).add(String(owner[keyword]));
      delete owner[keyword];
    }
  }
  return checkEmbeddedSchema(schema, '').length === 0 ? schema : undefined;
}

function simplify(parameter: Parameter): void {
  delete parameter.json_schema;
  // The whole-body parameter must keep a schema; its type is the most that can be said.
  if (parameter.in === 'body' && (parameter.type === 'object' || parameter.type === 'array')) parameter.json_schema = { type: parameter.type };
}

function repairDefinitions(manifest: Manifest, dropped: Map<string, Set<string>>, warnings: GeneratorWarning[]): void {
  const definitions = manifest.definitions;
  if (definitions === undefined) return;
  const loosened: string[] = [];
  for (const [name, schema] of Object.entries(definitions)) {
    if (isRecord(schema) && repairSchema(schema, dropped) === undefined) {
      definitions[name] = {};
      loosened.push(name);
    }
  }
  for (const issue of checkDefinitionCycles(definitions)) {
    const name = fromPointer(issue.pointer)[1];
    if (name !== undefined && Object.hasOwn(definitions, name)) {
      definitions[name] = {};
      loosened.push(name);
    }
  }
  if (loosened.length > 0) {
    warnings.push({
      code: 'schema.simplified',
      where: 'definitions',
      message: `${loosened.length} shared definitions were too large, too deep or referred to themselves without consuming a value, and accept anything now: ${loosened.slice(0, 10).join(', ')}${loosened.length > 10 ? ', …' : ''}`,
    });
  }
}
