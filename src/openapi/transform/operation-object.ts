import type { ErrorContract, EventSchema, HttpMethod, Intent, Parameter, Tool } from '../../manifest/manifest-v0.js';
import { transformParameterObject } from './parameter-object.js';
import { transformRequestBodyObject } from './request-body-object.js';
import { declarePagination } from './declare-pagination.js';
import { transformResponsesObject } from './responses-object.js';
import { followSchema } from './schema-object.js';
import { clampText } from './text.js';
import { isRecord, nonEmptyString, type TransformContext } from './transform-context.js';
import { readErrorsExtension, readIntentExtension, readOperationPolicyExtension, readTemporalExtension } from './x-ai-extensions.js';

/** The input of {@link transformOperationObject}. */
export interface OperationInput {
  /** Tool id already allocated for the operation. */
  id: string;
  /** Path template, e.g. `/pets/{id}`. */
  path: string;
  /** HTTP method. */
  method: HttpMethod;
  /** The Operation Object. */
  operation: Record<string, unknown>;
  /** Parameters declared on the Path Item (the operation's own win by name and location). */
  pathParameters: unknown[];
  /** URL of the document holding the Path Item, the base of its parameters' `$ref`s. @default documentUrl */
  pathItemDocumentUrl?: string;
  /** Security requirements of the document root, used when the operation declares none. */
  rootSecurity: unknown;
  /** Names of security schemes whose requirement lists are scopes. */
  scopedSchemes: ReadonlySet<string>;
  /** URL of the document holding the operation. */
  documentUrl: string;
  /** Largest response schema copied into `returns`. */
  maxReturnSchemaNodes: number;
}

/** What one operation contributes to the manifest. */
export interface OperationMapping {
  /** The tool (or, with `x-ai-resource` on a GET, the raw material of a resource). */
  tool: Tool;
  /** `x-ai-resource` marks a read-only GET as a resource; its overrides (id, description, mime_type). */
  resource?: { id?: string; description?: string; mime_type?: string };
  /** Scope names the operation requires. */
  scopes: string[];
  /** Whether a human must approve each call. */
  approval: boolean;
  /** Parameter names never to log. */
  redact: string[];
  /** True when a response schema was left out for size. */
  schemaOmitted: boolean;
}

// Names that look like secrets or personal data: their values must never reach a log.
const SENSITIVE_NAME = /(?:^|[_-])(?:password|passwd|secret|token|api[_-]?key|apikey|private[_-]?key|card[_-]?number|cvc|cvv|ssn|pin)(?:$|[_-])/i;
const IDEMPOTENCY_HEADER = /^idempotency-key$/i;

/**
 * Maps an Operation Object to a tool: id, path, method, description (summary, then the first
 * paragraph of the description), parameters (path item + operation + request body), returns and
 * errors, plus the `x-ai-*` extensions, the `deprecated` flag, an `Idempotency-Key` header, scopes
 * from the security requirements and the approval and redaction defaults (a non-GET operation
 * needs approval unless `x-openai-isConsequential: false` or `x-ai-policy` says otherwise).
 *
 * Returns undefined (after a warning) for an operation no agent could call.
 */
export function transformOperationObject(input: OperationInput, context: TransformContext): OperationMapping | undefined {
  const { operation, method, path } = input;
  const where = `${method} ${path}`;
  const parameters: Record<string, Parameter> = {};
  let idempotencyHeader: string | undefined;
  const pathItemDocumentUrl = input.pathItemDocumentUrl ?? input.documentUrl;
  const merged = mergeParameters(
    input.pathParameters.map((value) => ({ value, documentUrl: pathItemDocumentUrl })),
    (Array.isArray(operation['parameters']) ? operation['parameters'] : []).map((value: unknown) => ({ value, documentUrl: input.documentUrl })),
    context,
  );
  for (const { value, documentUrl } of merged) {
    const named = transformParameterObject(value, documentUrl, context, where);
    if (!named) continue;
    if (named.parameter.in === 'header' && IDEMPOTENCY_HEADER.test(named.name)) {
      // The client generates and reuses the key itself; it is not the agent's to fill.
      idempotencyHeader = named.name;
      continue;
    }
    if (parameters[named.name] !== undefined) {
      context.warn({
        code: 'parameter.duplicate_name',
        where,
        message: `parameter "${named.name}" appears in both ${parameters[named.name]!.in} and ${named.parameter.in}; the manifest keys parameters by name, so the ${named.parameter.in} one was left out`,
      });
      continue;
    }
    parameters[named.name] = named.parameter;
  }
  checkPathPlaceholders(path, parameters, context, where);

  let requestContentType: Tool['request_content_type'];
  let bodyParameter: string | undefined;
  let bodyRequired: string[] | undefined;
  if (operation['requestBody'] !== undefined && (method === 'GET' || method === 'HEAD')) {
    // A body on GET or HEAD has no defined meaning (RFC 9110 §9.3.1) and clients may drop it; Stripe
    // declares an empty form body on every GET. Only a body that says something is worth a warning.
    if (!isEmptyBody(operation['requestBody'], input.documentUrl, context)) {
      context.warn({
        code: 'body.ignored',
        where,
        message: `${method} requests carry no body, so the request body the operation declares was left out; pass those values as query parameters instead`,
      });
    }
  } else if (operation['requestBody'] !== undefined) {
    const body = transformRequestBodyObject(operation['requestBody'], input.documentUrl, context, where, new Set(Object.keys(parameters)));
    if (body.unusable) return undefined;
    Object.assign(parameters, body.parameters);
    requestContentType = body.requestContentType;
    bodyParameter = body.bodyParameter;
    bodyRequired = body.bodyRequired;
  }

  const responses = transformResponsesObject(operation['responses'], input.documentUrl, context, { maxSchemaNodes: input.maxReturnSchemaNodes });
  const intent = readIntentExtension(operation['x-ai-intent'], context, where);
  const policy = readOperationPolicyExtension(operation['x-ai-policy'], context, where);
  const temporal = readTemporalExtension(operation['x-ai-temporal'], context, where);
  if (responses.accepted && !temporal) {
    context.warn({ code: 'temporal.undeclared', where, message: 'answers 202 Accepted but has no x-ai-temporal, so agents cannot follow the job; declare its status_endpoint and terminal_states' });
  }

  const tool: Tool = { id: input.id, path, method, description: describe(operation, where) };
  if (intent.intent) tool.intent = intent.intent as Intent;
  if (Object.keys(parameters).length > 0) tool.parameters = limitParameters(parameters, context, where);
  if (requestContentType) tool.request_content_type = requestContentType;
  if (bodyParameter !== undefined && tool.parameters?.[bodyParameter] !== undefined) tool.body_parameter = bodyParameter;
  const keptBodyRequired = bodyRequired?.filter((name) => tool.parameters?.[name] !== undefined);
  if (keptBodyRequired !== undefined && keptBodyRequired.length > 0) tool.body_required = keptBodyRequired;
  if (responses.returns && Object.keys(responses.returns).length > 0) tool.returns = responses.returns;
  const pagination = declarePagination({ responses: operation['responses'], documentUrl: input.documentUrl, parameters, context });
  if (pagination !== undefined) tool.returns = { ...tool.returns, pagination };
  const errors = mergeErrors(responses.errors, readErrorsExtension(operation['x-ai-errors'], context, where), context, where);
  if (Object.keys(errors).length > 0) tool.errors = errors;
  if (intent.exampleTrigger) tool.example_trigger = intent.exampleTrigger;
  if (temporal) {
    tool.temporal_behavior = temporal.temporal;
    if (temporal.eventSchema) tool.event_schema = temporal.eventSchema as Record<string, EventSchema>;
  }
  if (operation['deprecated'] === true) tool.deprecated = true;
  if (policy.idempotent !== undefined) tool.idempotent = policy.idempotent;
  const keyHeader = policy.idempotency_key_header ?? idempotencyHeader;
  if (keyHeader && /^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,128}$/.test(keyHeader)) tool.idempotency_key_header = keyHeader;

  const consequential = operation['x-openai-isConsequential'];
  const approval = policy.human_approval_required ?? (typeof consequential === 'boolean' ? consequential : method !== 'GET' && method !== 'HEAD');
  const redact = new Set(policy.redact_from_logs ?? []);
  for (const [name, parameter] of Object.entries(parameters)) {
    const format = isRecord(parameter.json_schema) ? parameter.json_schema['format'] : undefined;
    if (SENSITIVE_NAME.test(name) || format === 'password') redact.add(name);
  }
  const mapping: OperationMapping = { tool, scopes: scopesOf(operation['security'] ?? input.rootSecurity, input.scopedSchemes), approval, redact: [...redact], schemaOmitted: responses.schemaOmitted };
  const resource = operation['x-ai-resource'];
  if (resource === true || isRecord(resource)) {
    if (method === 'GET') mapping.resource = isRecord(resource) ? pickResourceOverrides(resource) : {};
    else context.warn({ code: 'x-ai-resource.not_get', where, message: 'x-ai-resource applies to GET operations only; this one stays a tool' });
  }
  return mapping;
}

/** True when a request body declares nothing: no content, or only object schemas without properties. */
function isEmptyBody(value: unknown, documentUrl: string, context: TransformContext): boolean {
  const body = context.resolver.follow(value, documentUrl);
  if (!isRecord(body.value) || !isRecord(body.value['content'])) return true;
  return Object.values(body.value['content']).every((media) => {
    if (!isRecord(media) || media['schema'] === undefined) return true;
    const schema = followSchema(media['schema'], body.documentUrl, context).schema;
    const properties = schema['properties'];
    const keywords = Object.keys(schema).filter((keyword) => !['type', 'properties', 'description', 'title', 'additionalProperties'].includes(keyword));
    return (schema['type'] === undefined || schema['type'] === 'object') && (!isRecord(properties) || Object.keys(properties).length === 0) && keywords.length === 0;
  });
}

interface LocatedParameter {
  value: unknown;
  documentUrl: string;
}

function mergeParameters(pathLevel: LocatedParameter[], own: LocatedParameter[], context: TransformContext): LocatedParameter[] {
  const keyOf = ({ value, documentUrl }: LocatedParameter): string => {
    const parameter = context.resolver.follow(value, documentUrl).value;
    return isRecord(parameter) ? `${String(parameter['in'])}:${String(parameter['name'])}` : '';
  };
  const overridden = new Set(own.map(keyOf));
  return [...pathLevel.filter((parameter) => !overridden.has(keyOf(parameter))), ...own];
}

function checkPathPlaceholders(path: string, parameters: Record<string, Parameter>, context: TransformContext, where: string): void {
  const placeholders = [...path.matchAll(/\{([^{}]+)\}/g)].map((match) => match[1]!);
  for (const name of placeholders) {
    const parameter = parameters[name];
    if (parameter === undefined) {
      context.warn({ code: 'parameter.path_undeclared', where, message: `path placeholder {${name}} has no parameter; it was added as a required string` });
      parameters[name] = { type: 'string', required: true, in: 'path' };
    } else if (parameter.in !== 'path') {
      context.warn({ code: 'parameter.path_location', where, message: `"${name}" fills {${name}} but is declared in ${parameter.in}; it was moved to the path` });
      parameter.in = 'path';
      parameter.required = true;
    }
  }
  for (const [name, parameter] of Object.entries(parameters)) {
    if (parameter.in === 'path' && !placeholders.includes(name)) {
      context.warn({ code: 'parameter.path_unused', where, message: `path parameter "${name}" has no {${name}} placeholder in the path; it was left out` });
      delete parameters[name];
    }
  }
}

function limitParameters(parameters: Record<string, Parameter>, context: TransformContext, where: string): Record<string, Parameter> {
  const entries = Object.entries(parameters).filter(([name]) => name.length <= 256);
  if (entries.length < Object.keys(parameters).length) context.warn({ code: 'parameter.name_too_long', where, message: 'parameters with names over 256 characters were left out' });
  for (const [, parameter] of entries) {
    if (parameter.enum && parameter.enum.length > 1000) delete parameter.enum; // still in json_schema
  }
  if (entries.length > 500) {
    context.warn({ code: 'parameter.too_many', where, message: `${entries.length} parameters; the manifest allows 500, so optional ones were left out` });
    entries.sort(([, a], [, b]) => Number(b.required ?? false) - Number(a.required ?? false));
    entries.length = 500;
  }
  return Object.fromEntries(entries);
}

function describe(operation: Record<string, unknown>, where: string): string {
  const summary = nonEmptyString(operation['summary']);
  const description = nonEmptyString(operation['description'])
    ?.split(/\n\s*\n/)[0]
    ?.trim();
  const parts = [summary, description !== undefined && description !== summary ? description : undefined].filter((part): part is string => part !== undefined && part !== '');
  return clampText(parts.length > 0 ? parts.join('\n\n') : where);
}

function mergeErrors(derived: Record<string, ErrorContract>, declared: Record<string, Partial<ErrorContract>>, context: TransformContext, where: string): Record<string, ErrorContract> {
  const errors: Record<string, ErrorContract> = { ...derived };
  for (const [code, contract] of Object.entries(declared)) {
    const status = contract.status ?? errors[code]?.status;
    if (status === undefined) {
      const derivedCodes = Object.keys(derived);
      const known = derivedCodes.length > 0 ? ` (the responses give ${derivedCodes.map((name) => `"${name}"`).join(', ')})` : '';
      context.warn({
        code: 'x-ai-errors.no_status',
        where,
        message: `x-ai-errors["${code.slice(0, 64)}"] has no status and names no error derived from the responses${known}; add a status or use a derived name. The entry was ignored`,
      });
      continue;
    }
    // A declared code for a status replaces the generic code derived from the same status.
    if (errors[code] === undefined) {
      for (const [derivedCode, derivedContract] of Object.entries(derived)) {
        if (derivedContract.status === status && errors[derivedCode] === derivedContract) delete errors[derivedCode];
      }
    }
    errors[code] = { ...errors[code], ...contract, status } as ErrorContract;
  }
  return errors;
}

function scopesOf(security: unknown, scopedSchemes: ReadonlySet<string>): string[] {
  if (!Array.isArray(security)) return [];
  const scopes = new Set<string>();
  for (const requirement of security) {
    if (!isRecord(requirement)) continue;
    for (const [scheme, list] of Object.entries(requirement)) {
      if (!scopedSchemes.has(scheme) || !Array.isArray(list)) continue;
      for (const scope of list) if (typeof scope === 'string' && scope !== '' && scope.length <= 256) scopes.add(scope);
    }
  }
  return [...scopes];
}

function pickResourceOverrides(resource: Record<string, unknown>): { id?: string; description?: string; mime_type?: string } {
  const overrides: { id?: string; description?: string; mime_type?: string } = {};
  const id = nonEmptyString(resource['id']);
  if (id) overrides.id = id;
  const description = nonEmptyString(resource['description']);
  if (description) overrides.description = clampText(description);
  const mimeType = nonEmptyString(resource['mime_type']);
  if (mimeType) overrides.mime_type = mimeType.slice(0, 255);
  return overrides;
}
