import { isJsonMediaType as isJsonEssence, mediaTypeOf } from '../../internal/parse-media-type.js';
import type { Parameter, Tool } from '../../manifest/manifest-v0.js';
import { exampleOf, parameterFromSchema, serialisationOf } from './parameter-object.js';
import { followSchema } from './schema-object.js';
import { isRecord, nonEmptyString, type TransformContext } from './transform-context.js';

/** What a Request Body Object contributes to a tool. */
export interface RequestBodyMapping {
  /** Body parameters by name (`in: body`). */
  parameters: Record<string, Parameter>;
  /** Set when the body is form-encoded; JSON is the manifest default and is left out. */
  requestContentType?: NonNullable<Tool['request_content_type']>;
  /** True when the body is required but cannot be expressed, so the tool would be unusable. */
  unusable: boolean;
  /** Properties the schema requires, when the body itself is optional: required whenever it is sent (`body_required`). */
  bodyRequired?: string[];
  /** Set when the whole body is one parameter: its name, for the tool's `body_parameter`. */
  bodyParameter?: string;
}

/** Name of the single parameter that carries a body which cannot be flattened. */
export const BODY_PARAMETER = 'body';

/**
 * Maps a Request Body Object to body parameters. A JSON (or form) object body is flattened into
 * one parameter per property when no property name collides with a path, query, header or cookie
 * parameter; otherwise (or when the body is not an object) the whole body becomes one parameter
 * named `body` whose `json_schema` is the body's schema.
 */
export function transformRequestBodyObject(value: unknown, documentUrl: string, context: TransformContext, where: string, takenNames: ReadonlySet<string>): RequestBodyMapping {
  const located = context.resolver.follow(value, documentUrl);
  const body = located.value;
  if (!isRecord(body) || !isRecord(body['content'])) return { parameters: {}, unusable: false };
  const required = body['required'] === true;
  const mediaTypes = Object.keys(body['content']);
  const json = mediaTypes.find((type) => isJsonMediaType(type));
  const form = mediaTypes.find((type) => mediaTypeOf(type) === 'application/x-www-form-urlencoded');
  const multipart = mediaTypes.find((type) => mediaTypeOf(type) === 'multipart/form-data');
  const chosen = json ?? form ?? multipart;
  if (chosen === undefined) {
    const listed = mediaTypes.join(', ') || 'none';
    context.warn({
      code: 'body.media_type',
      where,
      message: required
        ? `the request body is required but only ${listed} is offered; spec v0.3 bodies are JSON, form-encoded or multipart, so the operation was skipped`
        : `the optional request body (${listed}) cannot be expressed in spec v0.3 and was left out`,
    });
    return { parameters: {}, unusable: required };
  }
  const media = body['content'][chosen];
  const schema = isRecord(media) ? media['schema'] : undefined;
  const mapping: RequestBodyMapping = { parameters: {}, unusable: false };
  if (chosen === form && chosen !== json) mapping.requestContentType = 'application/x-www-form-urlencoded';
  if (chosen === multipart && chosen !== json && chosen !== form) mapping.requestContentType = 'multipart/form-data';
  const encoding = isRecord(media) && isRecord(media['encoding']) ? media['encoding'] : {};
  if (schema === undefined) return mapping;
  const example = isRecord(media) ? exampleOf(media, located.documentUrl, context, where) : undefined;
  const shape = followSchema(schema, located.documentUrl, context);
  const properties = shape.schema['properties'];
  const composite = shape.schema['allOf'] !== undefined || shape.schema['oneOf'] !== undefined || shape.schema['anyOf'] !== undefined;
  const names = isRecord(properties) ? Object.keys(properties) : [];
  const collides = names.some((name) => takenNames.has(name));
  if (isRecord(properties) && names.length > 0 && !composite && !collides) {
    const requiredNames = new Set(Array.isArray(shape.schema['required']) ? shape.schema['required'] : []);
    for (const name of names) {
      const parameter = parameterFromSchema(properties[name], shape.documentUrl, context, {
        // A property the schema requires is required when the body is; an optional body's required
        // properties go to `body_required`: required whenever any of the body is sent.
        required: required && requiredNames.has(name),
        in: 'body',
      });
      if (mapping.requestContentType !== undefined)
        Object.assign(parameter, fieldEncoding(encoding[name], properties[name], shape.documentUrl, mapping.requestContentType, context, `${where}/${name}`));
      // The body's example, split by member: `{"title": "Found a bug"}` illustrates `title`.
      if (parameter.example === undefined && isRecord(example) && isSmallExample(example[name])) parameter.example = example[name];
      mapping.parameters[name] = parameter;
    }
    const bodyRequired = names.filter((name) => requiredNames.has(name));
    if (!required && bodyRequired.length > 0) mapping.bodyRequired = bodyRequired;
    return mapping;
  }
  if (collides) {
    context.warn({
      code: 'body.not_flattened',
      where,
      message: `body properties ${names
        .filter((name) => takenNames.has(name))
        .map((name) => `"${name}"`)
        .join(', ')} collide with other parameters, so the body is one parameter named "${BODY_PARAMETER}"`,
    });
  }
  const parameter = parameterFromSchema(schema, located.documentUrl, context, {
    required,
    in: 'body',
    description: nonEmptyString(body['description']) ?? 'The whole request body.',
  });
  // The whole body always needs its full schema, even when it is a primitive.
  parameter.json_schema ??= { type: parameter.type };
  if (parameter.example === undefined && isSmallExample(example)) parameter.example = example;
  const name = takenNames.has(BODY_PARAMETER) ? 'request_body' : BODY_PARAMETER;
  mapping.parameters[name] = parameter;
  mapping.bodyParameter = name;
  return mapping;
}

/**
 * Largest example value (as JSON text) copied from a request body's example onto a body parameter:
 * a word or a short list says what the parameter holds; a whole nested object would only make the
 * manifest bigger (GitHub's examples include full rulesets and file contents).
 */
const MAX_EXAMPLE_SIZE_IN_BYTES = 256;

function isSmallExample(value: unknown): boolean {
  if (value === undefined) return false;
  try {
    return Buffer.byteLength(JSON.stringify(value) ?? '') <= MAX_EXAMPLE_SIZE_IN_BYTES;
  } catch {
    // A YAML alias can make a value that refers to itself: no JSON text, so no example.
    return false;
  }
}

/**
 * How one field of a form or multipart body travels, from its Encoding Object (OpenAPI 3.1
 * §4.8.15): `style`/`explode`/`allowReserved` for a form, and `contentType` (explicit, or a file
 * part's: `format: binary`, `contentMediaType`, `contentEncoding`) for a multipart part or a form
 * field sent as JSON text.
 */
function fieldEncoding(value: unknown, property: unknown, documentUrl: string, contentType: NonNullable<Tool['request_content_type']>, context: TransformContext, where: string): Partial<Parameter> {
  const declared = isRecord(value) ? value : {};
  const fields: Partial<Parameter> = contentType === 'application/json' ? {} : serialisationOf(declared, 'body', context, where);
  delete fields.allow_empty_value;
  const explicit = nonEmptyString(declared['contentType'])?.split(',')[0]?.trim();
  const schema = followSchema(property, documentUrl, context).schema;
  const isFile = schema['format'] === 'binary' || schema['format'] === 'byte' || typeof schema['contentEncoding'] === 'string' || typeof schema['contentMediaType'] === 'string';
  if (contentType === 'multipart/form-data' && (isFile || (explicit !== undefined && !explicit.startsWith('text/')))) {
    fields.content_type = (explicit ?? nonEmptyString(schema['contentMediaType']) ?? 'application/octet-stream').slice(0, 255);
    // The model passes the bytes as base64 text; the client decodes them into the part.
    if (!fields.content_type.startsWith('text/') && !isJsonEssence(mediaTypeOf(fields.content_type))) {
      fields.json_schema = { type: 'string', contentEncoding: 'base64', contentMediaType: fields.content_type, description: 'The file, base64-encoded.' };
      fields.type = 'string';
    }
  } else if (contentType === 'application/x-www-form-urlencoded' && fields.style === undefined && explicit !== undefined && isJsonEssence(mediaTypeOf(explicit)) && declared['style'] === undefined) {
    fields.content_type = explicit.slice(0, 255);
  }
  return fields;
}

/** `application/json` or any `+json` media type. @internal */
export function isJsonMediaType(mediaType: string): boolean {
  const essence = mediaTypeOf(mediaType);
  return isJsonEssence(essence) || essence === '*/*';
}
