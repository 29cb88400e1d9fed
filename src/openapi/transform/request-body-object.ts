import { isJsonMediaType as isJsonEssence, mediaTypeOf } from '../../internal/parse-media-type.js';
import type { Parameter, Tool } from '../../manifest/manifest-v0.js';
import { parameterFromSchema } from './parameter-object.js';
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
  const chosen = json ?? form;
  if (chosen === undefined) {
    const listed = mediaTypes.join(', ') || 'none';
    context.warn({
      code: 'body.media_type',
      where,
      message: required
        ? `the request body is required but only ${listed} is offered; spec v0.1 bodies are JSON or form-encoded, so the operation was skipped`
        : `the optional request body (${listed}) cannot be expressed in spec v0.1 and was left out`,
    });
    return { parameters: {}, unusable: required };
  }
  const media = body['content'][chosen];
  const schema = isRecord(media) ? media['schema'] : undefined;
  const mapping: RequestBodyMapping = { parameters: {}, unusable: false };
  if (chosen === form && chosen !== json) mapping.requestContentType = 'application/x-www-form-urlencoded';
  if (schema === undefined) return mapping;
  const shape = followSchema(schema, located.documentUrl, context);
  const properties = shape.schema['properties'];
  const composite = shape.schema['allOf'] !== undefined || shape.schema['oneOf'] !== undefined || shape.schema['anyOf'] !== undefined;
  const names = isRecord(properties) ? Object.keys(properties) : [];
  const collides = names.some((name) => takenNames.has(name));
  if (isRecord(properties) && names.length > 0 && !composite && !collides) {
    const requiredNames = new Set(Array.isArray(shape.schema['required']) ? shape.schema['required'] : []);
    for (const name of names) {
      mapping.parameters[name] = parameterFromSchema(properties[name], shape.documentUrl, context, {
        // A property the schema requires is required only when the body itself is.
        required: required && requiredNames.has(name),
        in: 'body',
      });
    }
    return mapping;
  }
  if (collides) {
    context.warn({ code: 'body.not_flattened', where, message: `body properties ${names.filter((name) => takenNames.has(name)).map((name) => `"${name}"`).join(', ')} collide with other parameters, so the body is one parameter named "${BODY_PARAMETER}"` });
  }
  const parameter = parameterFromSchema(schema, located.documentUrl, context, {
    required,
    in: 'body',
    description: nonEmptyString(body['description']) ?? 'The whole request body.',
  });
  // The whole body always needs its full schema, even when it is a primitive.
  parameter.json_schema ??= { type: parameter.type };
  const name = takenNames.has(BODY_PARAMETER) ? 'request_body' : BODY_PARAMETER;
  mapping.parameters[name] = parameter;
  mapping.bodyParameter = name;
  return mapping;
}

/** `application/json` or any `+json` media type. @internal */
export function isJsonMediaType(mediaType: string): boolean {
  const essence = mediaTypeOf(mediaType);
  return isJsonEssence(essence) || essence === '*/*';
}
