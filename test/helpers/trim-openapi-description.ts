/**
 * Trims an OpenAPI (2 or 3) description to some operations, unchanged, and the components they
 * reach through `$ref`: Prism loads a big description (Stripe's) in minutes on two cores, a trimmed
 * one in seconds, and judges the kept operations' requests exactly as it would on the whole.
 */

type Json = Record<string, unknown>;

/** An operation to keep: its path as the description spells it, and its method. */
export interface KeptOperation {
  path: string;
  method: string;
}

function isRecord(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function pointerTokens(reference: string): string[] {
  return reference
    .slice(2)
    .split('/')
    .map((token) => decodeURIComponent(token).replaceAll('~1', '/').replaceAll('~0', '~'));
}

function collectReferences(value: unknown, into: Set<string>): void {
  const stack: unknown[] = [value];
  for (let steps = 0; stack.length > 0 && steps < 50_000_000; steps++) {
    const current = stack.pop();
    if (Array.isArray(current)) stack.push(...current);
    else if (isRecord(current)) {
      for (const [key, child] of Object.entries(current)) {
        if (key === '$ref' && typeof child === 'string' && child.startsWith('#/')) into.add(child);
        else stack.push(child);
      }
    }
  }
}

function resolvePointer(document: Json, reference: string): unknown {
  let current: unknown = document;
  for (const token of pointerTokens(reference)) current = isRecord(current) ? current[token] : Array.isArray(current) ? current[Number(token)] : undefined;
  return current;
}

/** A small example in place of a response body's schema: a list envelope where the schema has `data` and `has_more`. */
function stubContent(content: Json, document: Json): Json {
  const stubbed: Json = {};
  for (const [mediaType, media] of Object.entries(content)) {
    let schema = isRecord(media) ? media['schema'] : undefined;
    if (isRecord(schema) && typeof schema['$ref'] === 'string') schema = resolvePointer(document, schema['$ref']);
    const properties = isRecord(schema) && isRecord(schema['properties']) ? schema['properties'] : {};
    const example = !/json/.test(mediaType)
      ? 'stub'
      : 'data' in properties && 'has_more' in properties
        ? { object: 'list', data: [{ id: 'obj_1' }], has_more: false, url: '/v1/stub' }
        : { id: 'obj_1' };
    stubbed[mediaType] = { schema: typeof example === 'string' ? { type: 'string' } : { type: 'object' }, example };
  }
  return stubbed;
}

/** The operation with every response body replaced by a small example (requests untouched). */
function stubResponses(operation: Json, document: Json): Json {
  if (!isRecord(operation['responses'])) return operation;
  const responses: Json = {};
  for (const [status, value] of Object.entries(operation['responses'])) {
    const response = isRecord(value) && typeof value['$ref'] === 'string' ? resolvePointer(document, value['$ref']) : value;
    if (!isRecord(response)) continue;
    const { content, schema: _schema, examples: _examples, ...rest } = response;
    // OpenAPI 2 keeps the body schema on the response; 3 under content.
    responses[status] = isRecord(content) ? { ...rest, content: stubContent(content, document) } : rest;
  }
  return { ...operation, responses };
}

/**
 * A copy of `document` with only `operations` under `paths` and the components they reach. With
 * `stubResponses`, each response body becomes a small example: the requests, which are what is
 * judged, stay unchanged, and Stripe's response schemas no longer dominate Prism's loading time.
 */
export function trimOpenApiDescription(document: Json, operations: readonly KeptOperation[], options: { stubResponses: boolean } = { stubResponses: false }): Json {
  const paths: Json = {};
  const sourcePaths = isRecord(document['paths']) ? document['paths'] : {};
  for (const { path, method } of operations) {
    const item = sourcePaths[path];
    if (!isRecord(item)) throw new Error(`The description has no path ${path}`);
    const kept = (paths[path] ??= Object.fromEntries(Object.entries(item).filter(([key]) => !/^(get|put|post|delete|options|head|patch|trace)$/.test(key)))) as Json;
    const operation = item[method.toLowerCase()];
    if (!isRecord(operation)) throw new Error(`The description has no ${method} ${path}`);
    kept[method.toLowerCase()] = options.stubResponses ? stubResponses(operation, document) : operation;
  }
  // Everything but the paths is kept, then each component section is cut to what is reached.
  const trimmed: Json = { ...document, paths };
  const reached = new Set<string>();
  const pending = new Set<string>();
  collectReferences({ ...trimmed, components: undefined, definitions: undefined, parameters: undefined, responses: undefined }, pending);
  while (pending.size > 0) {
    const [reference] = pending;
    pending.delete(reference!);
    if (reached.has(reference!)) continue;
    reached.add(reference!);
    const found = new Set<string>();
    collectReferences(resolvePointer(document, reference!), found);
    for (const next of found) if (!reached.has(next)) pending.add(next);
  }
  const keep = (section: unknown, prefix: string): Json | undefined => {
    if (!isRecord(section)) return undefined;
    return Object.fromEntries(
      Object.entries(section).filter(([name]) =>
        [...reached].some(
          (reference) => reference === `${prefix}/${name.replaceAll('~', '~0').replaceAll('/', '~1')}` || reference.startsWith(`${prefix}/${name.replaceAll('~', '~0').replaceAll('/', '~1')}/`),
        ),
      ),
    );
  };
  if (isRecord(document['components'])) {
    const components: Json = {};
    for (const [kind, section] of Object.entries(document['components'])) {
      // Security schemes are named, not referenced: all stay.
      components[kind] = kind === 'securitySchemes' ? section : (keep(section, `#/components/${kind}`) ?? section);
    }
    trimmed['components'] = components;
  }
  for (const kind of ['definitions', 'parameters', 'responses']) if (isRecord(document[kind])) trimmed[kind] = keep(document[kind], `#/${kind}`);
  return trimmed;
}
