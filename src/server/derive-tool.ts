import { AicapError } from '../errors/aicap-error.js';
import type { HttpMethod, JsonSchema, Manifest, Parameter, ParameterLocation, SimpleType, Tool } from '../manifest/manifest-v0.js';

/**
 * The semantic layer of a route that schemas cannot express: `config.ai` on a Fastify route, the
 * second argument of `defineTool` on an Express router. Any `Tool` field given here wins over what is
 * derived from the route.
 */
export interface RouteAiConfig extends Partial<Omit<Tool, 'method' | 'path'>> {
  /** Scopes that unlock the tool; added to `auth.scopes`. */
  scopes?: string[];
  /** Add the tool to `policy.human_approval_required`. @default false */
  humanApproval?: boolean;
}

/** What a framework knows about one route. */
export interface RouteDescription {
  /** HTTP method. */
  method: string;
  /** Route path, with `:name` (Express, Fastify) or `{name}` placeholders, relative to `service.base_url`. */
  path: string;
  /** JSON Schemas of the route, in Fastify's shape. */
  schema?: {
    body?: unknown;
    querystring?: unknown;
    params?: unknown;
    headers?: unknown;
    response?: Record<string | number, unknown>;
    description?: string;
    summary?: string;
    operationId?: string;
  };
  /** The semantic layer. */
  ai: RouteAiConfig;
}

/** A tool derived from a route, with the manifest-level facts it brings. */
export interface DerivedTool {
  /** The tool. */
  tool: Tool;
  /** Scopes that unlock it. */
  scopes: string[];
  /** Whether it needs human approval. */
  humanApproval: boolean;
}

const METHODS = new Set<HttpMethod>(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE']);
const SIMPLE_TYPES = new Set<SimpleType>(['string', 'number', 'integer', 'boolean', 'object', 'array']);

/**
 * Derives a manifest tool from a route: `{name}` path placeholders from `:name` (each a required string
 * parameter unless a `params` schema says more), parameters from the
 * `params` (path), `querystring` (query), `headers` (header) and `body` (body) schemas with their
 * `required` lists and descriptions, `returns.schema` from the first 2xx response schema, and the
 * description from `schema.description`/`summary`; then `ai` overrides. A Fastify regex parameter
 * (`:num(^\d+$)`) becomes `{num}` whose `json_schema.pattern` is the regex; a wildcard (Fastify `*`,
 * Express `*name`) becomes a required string path parameter (`{wildcard}` for a bare `*`) whose value
 * may hold `/` (the client percent-encodes it, the framework decodes it). Throws at start-up
 * (`INVALID_CONFIGURATION`) when the method is not one a tool may use, no description is known, or the path
 * has a wildcard before its end.
 */
export function deriveTool(route: RouteDescription): DerivedTool {
  const method = route.method.toUpperCase() as HttpMethod;
  if (!METHODS.has(method)) throw new AicapError('INVALID_CONFIGURATION', `Route ${route.method} ${route.path}: method ${route.method} cannot be a tool; use one of ${[...METHODS].join(', ')}.`);
  const { path, patterns, wildcard } = toToolPath(route.path, `Route ${method} ${route.path}`);
  const { scopes = [], humanApproval = false, ...overrides } = route.ai;
  const schema = route.schema ?? {};
  const description = overrides.description ?? schema.description ?? schema.summary;
  if (!description)
    throw new AicapError('INVALID_CONFIGURATION', `Route ${method} ${route.path}: give the tool a \`description\` (in the AI config or the route schema) so an agent knows what it does.`);
  const id = overrides.id ?? schema.operationId ?? `${method.toLowerCase()}${path.replace(/[{}]/g, '').replace(/[^A-Za-z0-9]+/g, '_')}`.replace(/_+$/, '').slice(0, 64);

  const parameters: Record<string, Parameter> = {};
  const sources: Array<[unknown, ParameterLocation]> = [
    [schema.params, 'path'],
    [schema.querystring, 'query'],
    [schema.headers, 'header'],
    [schema.body, 'body'],
  ];
  for (const [source, location] of sources) {
    if (!isObjectSchema(source)) continue;
    const required = new Set(Array.isArray(source['required']) ? (source['required'] as string[]) : []);
    for (const [name, property] of Object.entries(source['properties'] as Record<string, JsonSchema>)) {
      // Fastify names the wildcard's value `*` in `params`.
      const parameterName = location === 'path' && name === '*' && wildcard ? wildcard : name;
      parameters[parameterName] = toParameter(property, location, location === 'path' || required.has(name));
    }
  }
  // Every `{name}` in the path needs a parameter; routes without a params schema still get a string one.
  for (const [, name] of path.matchAll(/\{([^{}]+)\}/g)) {
    parameters[name as string] ??= { type: 'string', required: true, in: 'path' };
  }
  for (const [name, pattern] of Object.entries(patterns)) {
    const parameter = parameters[name] as Parameter;
    const base = typeof parameter.json_schema === 'object' ? parameter.json_schema : { type: parameter.type };
    parameter.json_schema = { ...base, pattern };
  }
  const responseSchema = Object.entries(schema.response ?? {}).find(([status]) => /^2(?:\d\d|xx)$/i.test(status))?.[1];
  const tool: Tool = { id, path, method, description };
  if (Object.keys(parameters).length > 0) tool.parameters = parameters;
  if (responseSchema !== undefined && typeof responseSchema === 'object' && responseSchema !== null) {
    const type = (responseSchema as { type?: unknown }).type;
    tool.returns = { schema: responseSchema as JsonSchema, ...(typeof type === 'string' && SIMPLE_TYPES.has(type as SimpleType) ? { type: type as SimpleType } : {}) };
  }
  return { tool: { ...tool, ...overrides, id, description }, scopes, humanApproval };
}

/**
 * A route path in `{name}` form: `:name` and `:name(regex)` become `{name}` (the regex kept apart, to
 * become the parameter's `pattern`), a trailing `*` or `*name` becomes `{wildcard}` or `{name}`.
 * @internal
 */
export function toToolPath(routePath: string, where: string): { path: string; patterns: Record<string, string>; wildcard: string | undefined } {
  const patterns: Record<string, string> = {};
  let path = '';
  let wildcard: string | undefined;
  for (let index = 0; index < routePath.length;) {
    const character = routePath[index] as string;
    const name = /^[A-Za-z_][A-Za-z0-9_]*/.exec(routePath.slice(index + 1))?.[0] ?? '';
    if (character === ':' && name) {
      index += 1 + name.length;
      path += `{${name}}`;
      if (routePath[index] === '(') {
        const end = closingParenthesis(routePath, index);
        if (end === -1) throw new AicapError('INVALID_CONFIGURATION', `${where}: the regular expression of parameter :${name} has no closing parenthesis.`);
        patterns[name] = routePath.slice(index + 1, end);
        index = end + 1;
      }
      continue;
    }
    if (character === '*') {
      if (routePath.slice(index + 1 + name.length) !== '') {
        throw new AicapError('INVALID_CONFIGURATION', `${where}: a wildcard can only end the path to become a tool; give the route a named parameter instead.`);
      }
      wildcard = name || 'wildcard';
      path += `{${wildcard}}`;
      break;
    }
    path += character;
    index += 1;
  }
  return { path, patterns, wildcard };
}

function closingParenthesis(text: string, open: number): number {
  let depth = 0;
  for (let index = open; index < text.length; index++) {
    const character = text[index];
    if (character === '\\') index++;
    else if (character === '(') depth++;
    else if (character === ')' && --depth === 0) return index;
  }
  return -1;
}

/**
 * Adds derived tools to a manifest: appends the tools, lists them under their scopes in `auth.scopes`
 * and in `policy.human_approval_required` when they need approval. Scopes need an `auth` the base
 * manifest declares (throws `INVALID_CONFIGURATION` otherwise): how the API checks credentials is never guessed. The result still has to pass
 * `createManifestHandler`'s validation (duplicate ids are reported there).
 */
export function withDerivedTools(base: Omit<Manifest, 'tools'> & { tools?: Tool[] }, derived: readonly DerivedTool[]): Manifest {
  const manifest: Manifest = { ...base, tools: [...(base.tools ?? []), ...derived.map((entry) => entry.tool)] };
  const scoped = derived.filter((entry) => entry.scopes.length > 0);
  if (scoped.length > 0) {
    const scopes: Record<string, string[]> = { ...manifest.auth?.scopes };
    for (const entry of scoped) for (const scope of entry.scopes) scopes[scope] = [...(scopes[scope] ?? []), entry.tool.id];
    if (!manifest.auth) {
      const tools = scoped.map((entry) => entry.tool.id).join(', ');
      throw new AicapError(
        'INVALID_CONFIGURATION',
        `Tools ${tools} carry \`scopes\` but the base manifest declares no \`auth\`: add \`auth: { type: 'bearer' }\` (or the scheme your API checks) to the manifest given to the adapter.`,
      );
    }
    manifest.auth = { ...manifest.auth, scopes };
  }
  const approval = derived.filter((entry) => entry.humanApproval).map((entry) => entry.tool.id);
  if (approval.length > 0) manifest.policy = { ...manifest.policy, human_approval_required: [...(manifest.policy?.human_approval_required ?? []), ...approval] };
  return manifest;
}

function toParameter(property: JsonSchema, location: ParameterLocation, required: boolean): Parameter {
  const schema = typeof property === 'object' ? property : {};
  const declared = schema['type'];
  const type = typeof declared === 'string' && SIMPLE_TYPES.has(declared as SimpleType) ? (declared as SimpleType) : 'string';
  const parameter: Parameter = { type, required, in: location, json_schema: property };
  if (typeof schema['description'] === 'string') parameter.description = schema['description'];
  return parameter;
}

function isObjectSchema(value: unknown): value is Record<string, unknown> & { properties: Record<string, unknown> } {
  return typeof value === 'object' && value !== null && typeof (value as { properties?: unknown }).properties === 'object' && (value as { properties?: unknown }).properties !== null;
}
