import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import { fromPointer, toPointer } from '../internal/json-pointer.js';
import { aiExtensionSchemas } from './ai-extension-schemas.js';
import { OpenApiInvalidError } from './openapi-invalid-error.js';
import type { TransformContext } from './transform/transform-context.js';

/** The extensions section 11 defines on an Operation; any other `x-ai-*` name there is most likely a typo. */
const OPERATION_EXTENSIONS = new Set(['x-ai-intent', 'x-ai-errors', 'x-ai-policy', 'x-ai-temporal', 'x-ai-resource', 'x-ai-exclude']);

// Extensions whose misreading widens what agents may do: a malformed `x-ai-exclude` would expose an
// operation meant to be left out, a malformed `x-ai-policy` would drop an approval. These fail
// generation instead of being skipped with a warning (section 11).
const STRICT: ReadonlyArray<[name: string, schema: string]> = [
  ['x-ai-exclude', 'x-ai-exclude'],
  ['x-ai-policy', 'x-ai-policy-operation'],
];

let validators: Map<string, ValidateFunction> | undefined;

function validatorOf(schema: string): ValidateFunction {
  validators ??= new Map();
  let validate = validators.get(schema);
  if (!validate) {
    validate = new Ajv2020({ allErrors: false, strict: false }).compile(aiExtensionSchemas[schema]!);
    validators.set(schema, validate);
  }
  return validate;
}

/** Where an operation is, for messages. */
export interface OperationLocation {
  /** The OpenAPI file or URL. */
  location: string;
  /** The path template, e.g. `/internal/metrics`. */
  path: string;
  /** The lower-case method key, e.g. `get`. */
  method: string;
}

/**
 * Checks an operation's `x-ai-*` extensions before the generator reads them: a malformed
 * `x-ai-exclude` or `x-ai-policy` throws `OPENAPI_INVALID` naming the JSON Pointer of the value in
 * the OpenAPI document (nothing is generated, so nothing is exposed by mistake), and an `x-ai-*`
 * name section 11 does not define is reported as a warning (`x-ai.unknown`), since it is usually a
 * misspelling whose intent is silently lost. Returns whether the operation is excluded.
 * @throws OpenApiInvalidError when a strict extension does not match its schema
 */
export function checkAiExtensions(operation: Record<string, unknown>, where: OperationLocation, context: TransformContext): boolean {
  for (const [name, schema] of STRICT) {
    const value = operation[name];
    if (value === undefined) continue;
    const validate = validatorOf(schema);
    if (validate(value)) continue;
    const error = validate.errors?.[0];
    const pointer = toPointer(['paths', where.path, where.method, name]) + (error?.instancePath ?? '');
    // Ajv keeps the offending value in `error.data` only in verbose mode: find it by its path instead.
    const offending = fromPointer(error?.instancePath ?? '').reduce<unknown>(
      (node, token) => (typeof node === 'object' && node !== null ? (node as Record<string, unknown>)[token] : undefined),
      value,
    );
    const shown = JSON.stringify(offending)?.slice(0, 80) ?? String(offending);
    throw new OpenApiInvalidError(
      `${pointer}: ${name} ${error?.instancePath ? `member ${error.instancePath.slice(1)} ` : ''}${error?.message ?? 'is malformed'}, got ${shown}. ` +
        `Nothing was generated: aicap will not guess what a malformed ${name} meant, since a wrong guess exposes an operation or drops an approval. ` +
        `Write ${name === 'x-ai-exclude' ? 'true or false' : 'booleans for human_approval_required and idempotent'} (schema/openapi-extensions/${schema}.schema.json).`,
      { location: where.location },
    );
  }
  for (const name of Object.keys(operation)) {
    if (name.startsWith('x-ai-') && !OPERATION_EXTENSIONS.has(name)) {
      context.warn({
        code: 'x-ai.unknown',
        where: `${where.method.toUpperCase()} ${where.path}`,
        message: `${name} is not an extension aicap knows (section 11 defines ${[...OPERATION_EXTENSIONS].join(', ')} on operations); check the spelling. It was ignored`,
      });
    }
  }
  return operation['x-ai-exclude'] === true;
}
