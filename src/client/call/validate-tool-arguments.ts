import { createRequire } from 'node:module';
import type { Ajv2020 as Ajv2020Class, ErrorObject, ValidateFunction } from 'ajv/dist/2020.js';
import type addFormatsFunction from 'ajv-formats';
import { loadRe2 } from './load-re2.js';
import { checkEmbeddedSchema } from '../../manifest/check-embedded-schema.js';
import type { JsonSchema, Parameter } from '../../manifest/manifest-v0.js';
import { argumentsSchema } from '../../manifest/arguments-schema.js';
import { fromPointer } from '../../internal/json-pointer.js';
import { AicapError } from '../../errors/aicap-error.js';
import { compileSimpleSchema, type SimpleSchemaCheck } from './compile-simple-schema.js';
import { InvalidArgumentsError, type ArgumentProblem } from './invalid-arguments-error.js';
import { standaloneMetaSchemaValidator } from './standalone-meta-schema-validator.js';

// ajv (about 90 modules) loads on first need: a schema outside `compileSimpleSchema`'s subset, or a
// value it refuses (ajv then names the problems). Both packages are CommonJS, so `require` loads
// them synchronously, as validation is.
const load = createRequire(import.meta.url);
let ajvModules: { Ajv2020: typeof Ajv2020Class; addFormats: (ajv: Ajv2020Class) => Ajv2020Class } | undefined;

function ajv(): NonNullable<typeof ajvModules> {
  if (ajvModules === undefined) {
    const formats = load('ajv-formats') as { default?: typeof addFormatsFunction } & typeof addFormatsFunction;
    // ajv-formats is CommonJS with `exports.default`.
    ajvModules = { Ajv2020: (load('ajv/dist/2020.js') as { Ajv2020: typeof Ajv2020Class }).Ajv2020, addFormats: (formats.default ?? formats) as unknown as (ajv: Ajv2020Class) => Ajv2020Class };
  }
  return ajvModules;
}

/**
 * The schema of a manifest comes from the network, so `pattern` runs on RE2 (linear time, no
 * backtracking) rather than V8's engine: a hostile pattern cannot stall the event loop.
 */
function re2RegExp(pattern: string, flags: string): { test(input: string): boolean; toString(): string } {
  const RE2JS = loadRe2();
  const compiled = RE2JS.compile(pattern, flags.includes('i') ? RE2JS.CASE_INSENSITIVE : 0);
  // ajv caches compiled patterns under `toString()`: without a distinct key every pattern would
  // share the first one's matcher.
  return { test: (input) => compiled.test(input), toString: () => `re2:/${pattern}/${flags}` };
}
re2RegExp.code = 'RE2JS';

const AJV_OPTIONS = { allErrors: true, strict: false, $data: false, validateFormats: true, logger: false, code: { regExp: re2RegExp } } as const;

let metaSchemaChecker: Ajv2020Class | undefined;

/**
 * The ajv instance that checks schemas against the JSON Schema 2020-12 meta-schema. The build
 * generates its validator as code from an instance made here with `code` (`source`, `esm`): the
 * meta-schema's own patterns (`$anchor`, `$dynamicAnchor`) are ajv's, linear and trusted, so the
 * generated code keeps the engine's `RegExp` for them. @internal
 */
export function createMetaSchemaAjv(code: { regExp?: typeof re2RegExp; source?: boolean; esm?: boolean } = { regExp: re2RegExp }): Ajv2020Class {
  const { Ajv2020 } = ajv();
  return new Ajv2020({ ...AJV_OPTIONS, allErrors: false, code });
}

/**
 * Checks a schema against the JSON Schema 2020-12 meta-schema: with the validator the build generated
 * when there is one, else with one process-wide instance (fine: it only ever compiles the meta-schema
 * itself, never a manifest's schema).
 */
function checkAgainstMetaSchema(schema: Record<string, unknown>): string | undefined {
  const standalone = standaloneMetaSchemaValidator;
  if (standalone !== undefined) return standalone(schema) === true ? undefined : ajv().Ajv2020.prototype.errorsText(standalone.errors);
  metaSchemaChecker ??= createMetaSchemaAjv();
  return metaSchemaChecker.validateSchema(schema) === true ? undefined : metaSchemaChecker.errorsText(metaSchemaChecker.errors);
}

/** One holder's arguments schema, checked, and what validates it: the subset's check, ajv's compiled function (made on first need). */
interface CompiledArguments {
  schema: Record<string, unknown>;
  simple: SimpleSchemaCheck | undefined;
  ajv: ValidateFunction | undefined;
}

/** The compiled validators of one owner (a manifest), in an ajv instance of their own (made on first need). */
interface ValidatorCache {
  ajv: Ajv2020Class | undefined;
  validators: WeakMap<ParameterHolder, CompiledArguments>;
}

/**
 * Compiled validators live exactly as long as the manifest (or holder) they belong to: ajv keeps
 * every schema it compiled (its cache and code scope) for the life of the instance, so one
 * process-wide instance grew with every manifest change and every short-lived client. One
 * instance per owner, held weakly, is dropped with the owner.
 */
const caches = new WeakMap<object, ValidatorCache>();

function cacheFor(owner: object): ValidatorCache {
  let cache = caches.get(owner);
  if (cache === undefined) {
    cache = { ajv: undefined, validators: new WeakMap() };
    caches.set(owner, cache);
  }
  return cache;
}

/**
 * The ajv instance that validates one owner's arguments. `$data` stays off (it lets data choose the
 * schema); strict off because manifests may carry annotations ajv does not know; formats validated
 * because `date` and friends carry meaning; no logger: a manifest's unknown format must not write to
 * the orchestrator's console. The meta-schema check runs once per schema in
 * `checkAgainstMetaSchema`, not in every instance. @internal
 */
export function createArgumentsAjv(): Ajv2020Class {
  const { Ajv2020, addFormats } = ajv();
  return addFormats(new Ajv2020({ ...AJV_OPTIONS, validateSchema: false }));
}

/** Any object holding `parameters` in the simple form: a tool, a resource or a prompt. */
export interface ParameterHolder {
  /** Id, for messages. */
  id: string;
  /** Path with `{name}` placeholders, when the holder is called over HTTP. */
  path?: string;
  /** Parameters by name. */
  parameters?: Record<string, Parameter>;
}

function compile(holder: ParameterHolder, owner: object): CompiledArguments {
  const cache = cacheFor(owner);
  const cached = cache.validators.get(holder);
  if (cached !== undefined) return cached;
  // The owner is the manifest: its shared definitions (spec v0.2) are hoisted into the schema.
  const definitions = (owner as { definitions?: unknown }).definitions;
  const schema = argumentsSchema(holder, { definitions: typeof definitions === 'object' && definitions !== null ? (definitions as Record<string, JsonSchema>) : undefined });
  // Defence in depth: the manifest was validated at discovery, but a caller may hand us any object.
  const issues = checkEmbeddedSchema(schema, '').filter((issue) => issue.severity === 'error');
  if (issues.length > 0) {
    throw new AicapError(
      'TOOL_DISABLED',
      `The parameter schema of "${holder.id}" is unsafe to run (${issues[0]?.pointer} ${issues[0]?.code}: ${issues[0]?.message}); the tool cannot be called. Report it to the API's operators.`,
    );
  }
  const invalid = checkAgainstMetaSchema(schema);
  if (invalid !== undefined) throw notCompiling(holder, new Error(invalid));
  const simple = compileSimpleSchema(schema);
  const compiled: CompiledArguments = { schema, simple, ajv: simple === undefined ? compileWithAjv(holder, schema, cache) : undefined };
  cache.validators.set(holder, compiled);
  return compiled;
}

function compileWithAjv(holder: ParameterHolder, schema: Record<string, unknown>, cache: ValidatorCache): ValidateFunction {
  try {
    cache.ajv ??= createArgumentsAjv();
    return cache.ajv.compile(schema);
  } catch (error) {
    throw notCompiling(holder, error);
  }
}

function notCompiling(holder: ParameterHolder, error: unknown): AicapError {
  return new AicapError('TOOL_DISABLED', `The parameter schema of "${holder.id}" does not compile (${error instanceof Error ? error.message : String(error)}); the tool cannot be called.`, {
    cause: error,
  });
}

function toProblem(error: ErrorObject): ArgumentProblem {
  let pointer = error.instancePath;
  let message = error.message ?? 'is invalid';
  if (error.keyword === 'required') {
    const missing = String((error.params as { missingProperty?: unknown }).missingProperty);
    pointer = `${pointer}/${missing}`;
    message = 'is required';
  } else if (error.keyword === 'additionalProperties') {
    const extra = String((error.params as { additionalProperty?: unknown }).additionalProperty);
    pointer = `${pointer}/${extra}`;
    message = 'is not a parameter of this tool; remove it';
  } else if (error.keyword === 'enum') {
    const allowed = (error.params as { allowedValues?: unknown[] }).allowedValues ?? [];
    message = `must be one of ${allowed.map((value) => JSON.stringify(value)).join(', ')}`;
  }
  const parameter = fromPointer(pointer)[0];
  // ajv's messages never echo the value, so a redacted parameter cannot leak through a problem.
  return { pointer, ...(parameter === undefined ? {} : { parameter }), rule: error.keyword, message };
}

/**
 * Validates arguments against a tool's (resource's, prompt's) parameters before anything is sent.
 * The compiled validator is cached per definition object, in an ajv instance owned by `owner` (the
 * manifest the definition came from; the definition itself by default), and is garbage-collected
 * with it. Throws {@link InvalidArgumentsError} naming every bad field, or `TOOL_DISABLED` when the
 * declared schema is unsafe.
 */
export function validateToolArguments(holder: ParameterHolder, args: unknown, owner: object = holder): asserts args is Record<string, unknown> {
  const compiled = compile(holder, owner);
  if (typeof args !== 'object' || args === null || Array.isArray(args)) {
    throw new InvalidArgumentsError(holder.id, [
      { pointer: '', rule: 'type', message: `arguments must be a JSON object, got ${Array.isArray(args) ? 'an array' : args === null ? 'null' : typeof args}` },
    ]);
  }
  if (compiled.simple?.(args) === true) return;
  // Outside the subset, or refused by it: ajv decides, and names every problem.
  compiled.ajv ??= compileWithAjv(holder, compiled.schema, cacheFor(owner));
  if (!compiled.ajv(args)) {
    throw new InvalidArgumentsError(holder.id, (compiled.ajv.errors ?? []).map(toProblem));
  }
}
