import { forbiddenHeaderReason } from '../../manifest/forbidden-header-parameter.js';
import type { Parameter, ParameterLocation, ParameterStyle } from '../../manifest/manifest-v0.js';
import { followSchema, simpleTypeOf, transformSchemaObject, useDefinitions } from './schema-object.js';
import { isRecord, nonEmptyString, type TransformContext } from './transform-context.js';
import { OpenApiInvalidError } from '../openapi-invalid-error.js';

/** A named manifest parameter. */
export interface NamedParameter {
  /** Parameter name (the wire name). */
  name: string;
  /** The manifest parameter. */
  parameter: Parameter;
}

// OpenAPI: "If in is "header" and the name field is "Accept", "Content-Type" or "Authorization",
// the parameter definition SHALL be ignored." Credentials are the client's business, not the agent's.
const IGNORED_HEADERS = new Set(['accept', 'content-type', 'authorization']);
const LOCATIONS = new Set<ParameterLocation>(['path', 'query', 'header', 'cookie']);
// Keywords that the simple form carries by itself; anything else needs the full json_schema.
const SIMPLE_KEYWORDS = new Set(['type', 'description', 'enum', 'default', 'examples', 'title']);
// OpenAPI 3.1 §4.8.12.4: the styles each location allows, the first being its default.
const STYLES: Record<string, ParameterStyle[]> = {
  path: ['simple', 'label', 'matrix'],
  query: ['form', 'spaceDelimited', 'pipeDelimited', 'deepObject'],
  header: ['simple'],
  cookie: ['form'],
  body: ['form', 'spaceDelimited', 'pipeDelimited', 'deepObject'],
};

/** The serialisation fields of a parameter (spec v0.3). */
export type ParameterSerialisation = Pick<Parameter, 'style' | 'explode' | 'allow_reserved' | 'allow_empty_value' | 'content_type'>;

/**
 * The `style`/`explode`/`allowReserved`/`allowEmptyValue` of a Parameter or Encoding Object as
 * manifest fields, each written only when it differs from OpenAPI's default (the client applies the
 * same defaults), so a plain description adds nothing to the manifest. A style the location does not
 * allow is reported and left out.
 */
export function serialisationOf(declared: Record<string, unknown>, location: ParameterLocation, context: TransformContext, where: string): ParameterSerialisation {
  const result: ParameterSerialisation = {};
  const allowed = STYLES[location] ?? [];
  let style = allowed[0];
  if (typeof declared['style'] === 'string') {
    if (allowed.includes(declared['style'] as ParameterStyle)) style = declared['style'] as ParameterStyle;
    else
      context.warn({
        code: 'parameter.style',
        where,
        message: `style "${declared['style']}" is not defined for ${location === 'body' ? 'form body fields' : `${location} parameters`}; OpenAPI's default (${allowed[0] ?? 'none'}) is used`,
      });
  }
  if (style !== undefined && style !== allowed[0]) result.style = style;
  if (typeof declared['explode'] === 'boolean' && declared['explode'] !== (style === 'form')) result.explode = declared['explode'];
  if (declared['allowReserved'] === true && (location === 'query' || location === 'body')) result.allow_reserved = true;
  if (declared['allowEmptyValue'] === true && location === 'query') result.allow_empty_value = true;
  return result;
}

/**
 * Maps an OpenAPI Parameter Object (path, query, header or cookie) to a manifest parameter: the
 * simple form when the schema is a plain primitive, plus `json_schema` when it carries constraints,
 * structure or references. Returns undefined (after a warning) for parameters it cannot express.
 */
export function transformParameterObject(value: unknown, documentUrl: string, context: TransformContext, where: string): NamedParameter | undefined {
  const located = context.resolver.follow(value, documentUrl);
  const parameter = located.value;
  if (!isRecord(parameter)) {
    context.warn({ code: 'parameter.invalid', where, message: 'a parameter is not an object; it was skipped' });
    return undefined;
  }
  const name = nonEmptyString(parameter['name']);
  const location = parameter['in'];
  if (!name || typeof location !== 'string') {
    context.warn({ code: 'parameter.invalid', where, message: 'a parameter has no `name` or `in`; it was skipped' });
    return undefined;
  }
  if (!LOCATIONS.has(location as ParameterLocation)) {
    context.warn({ code: 'parameter.location', where, message: `parameter "${name}" is "in": "${location}", which the manifest cannot express; it was skipped` });
    return undefined;
  }
  if (location === 'header' && IGNORED_HEADERS.has(name.toLowerCase())) return undefined;
  const forbidden = location === 'header' ? forbiddenHeaderReason(name) : undefined;
  if (forbidden !== undefined) {
    context.warn({ code: 'parameter.forbidden_header', where, message: `header parameter "${name}" cannot be in a manifest (${forbidden}); it was skipped` });
    return undefined;
  }
  const schema = parameterSchema(parameter);
  const built = parameterFromSchema(schema, located.documentUrl, context, {
    required: location === 'path' || parameter['required'] === true,
    in: location as ParameterLocation,
    description: nonEmptyString(parameter['description']),
    example: exampleOf(parameter, located.documentUrl, context, `${where}/${name}`),
    deprecated: parameter['deprecated'] === true,
  });
  Object.assign(built, serialisationOf(parameter, location as ParameterLocation, context, `${where}/${name}`));
  // A parameter described by `content` travels as that media type's text (JSON, in practice).
  const contentType = isRecord(parameter['content']) ? Object.keys(parameter['content'])[0] : undefined;
  if (contentType !== undefined && parameter['schema'] === undefined) built.content_type = contentType.slice(0, 255);
  return { name, parameter: built };
}

/**
 * The example of a Media Type or Parameter Object: its `example`, else the `value` of the first of its
 * `examples` (Example Objects, possibly references). `externalValue` is not fetched. An example only
 * illustrates: one whose reference does not resolve is left out with a warning (`example.unresolved`)
 * instead of failing the whole description.
 */
export function exampleOf(declared: Record<string, unknown>, documentUrl: string, context: TransformContext, where: string): unknown {
  if (declared['example'] !== undefined) return declared['example'];
  const examples = declared['examples'];
  if (!isRecord(examples)) return undefined;
  const first = Object.values(examples)[0];
  if (first === undefined) return undefined;
  let example: unknown;
  try {
    example = context.resolver.follow(first, documentUrl).value;
  } catch (error) {
    if (!(error instanceof OpenApiInvalidError)) throw error;
    context.warn({ code: 'example.unresolved', where, message: `the first of \`examples\` was left out: ${error.message}` });
    return undefined;
  }
  return isRecord(example) ? example['value'] : undefined;
}

/** What {@link parameterFromSchema} adds around the schema. */
export interface ParameterDetails {
  /** Whether the caller must supply it. */
  required: boolean;
  /** Where it travels. */
  in: ParameterLocation;
  /** Description from the Parameter Object (wins over the schema's). */
  description?: string | undefined;
  /** Example from the Parameter Object. */
  example?: unknown;
  /** Deprecated parameters say so in their description. */
  deprecated?: boolean;
}

/** Builds a manifest parameter from a schema (used for parameters and flattened body properties). */
export function parameterFromSchema(schema: unknown, documentUrl: string, context: TransformContext, details: ParameterDetails): Parameter {
  const shape = followSchema(schema, documentUrl, context).schema;
  const converted = transformSchemaObject(schema, documentUrl, context);
  // `required: false` is the default; spelled out on every optional parameter it cost Kubernetes 50 kB.
  const result: Parameter = details.required ? { type: simpleTypeOf(shape), required: true, in: details.in } : { type: simpleTypeOf(shape), in: details.in };
  let description = details.description ?? nonEmptyString(shape['description']);
  if (details.deprecated) description = `Deprecated. ${description ?? ''}`.trim();
  if (description !== undefined) result.description = description;
  if (Array.isArray(shape['enum'])) result.enum = shape['enum'];
  if (shape['default'] !== undefined) result.default = shape['default'];
  const example = details.example ?? shape['example'] ?? (Array.isArray(shape['examples']) ? shape['examples'][0] : undefined);
  if (example !== undefined) result.example = example;
  if (!isSimple(converted.schema, converted.references.size)) result.json_schema = useDefinitions(converted, context);
  return result;
}

function isSimple(schema: unknown, referenceCount: number): boolean {
  if (referenceCount > 0 || !isRecord(schema)) return false;
  if (typeof schema['type'] !== 'string' || schema['type'] === 'object' || schema['type'] === 'array') return false;
  return Object.keys(schema).every((keyword) => SIMPLE_KEYWORDS.has(keyword));
}

function parameterSchema(parameter: Record<string, unknown>): unknown {
  if (parameter['schema'] !== undefined) return parameter['schema'];
  const content = parameter['content'];
  if (isRecord(content)) {
    const first = Object.values(content)[0];
    if (isRecord(first) && first['schema'] !== undefined) return first['schema'];
  }
  // Swagger 2.0 style (a parameter file reached by $ref is not converted): the schema keywords sit on the parameter.
  if (typeof parameter['type'] === 'string') {
    const schema: Record<string, unknown> = {};
    for (const keyword of ['type', 'format', 'items', 'enum', 'default', 'minimum', 'maximum', 'minLength', 'maxLength', 'pattern', 'minItems', 'maxItems', 'uniqueItems', 'multipleOf']) {
      if (parameter[keyword] !== undefined) schema[keyword] = parameter[keyword];
    }
    return schema;
  }
  return {};
}
