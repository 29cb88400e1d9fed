/**
 * The manifest cases of the conformance kit as code: each case is a small base manifest with one
 * change, the issues a conforming validator reports, and the section of `docs/spec.md` it tests.
 * `conformance-kit.test.ts` writes them to `conformance/manifests/<group>.json` (checked against the
 * committed files; `npx vitest run test/conformance -u` rewrites them) and runs every committed case
 * through `parseManifest`. The committed JSON, not this file, is what another implementation runs.
 */

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- cases poke at arbitrary depth

/** One expected finding: its code, where, and how severe. */
export interface ExpectedIssue {
  code: string;
  pointer: string;
  severity: 'error' | 'warning';
}

/** One case as committed (the JSON-Schema-Test-Suite shape, plus an id, a section and a level). */
export interface ManifestCase {
  id: string;
  description: string;
  spec_section: string;
  level: 'MUST' | 'SHOULD';
  /** The document as a JSON value… */
  manifest?: unknown;
  /** …or as exact text, when the defect cannot be a JSON value (duplicate keys, a byte-order mark)… */
  manifest_text?: string;
  /** …or as bytes, when it is not even text. */
  manifest_base64?: string;
  valid: boolean;
  issues: ExpectedIssue[];
}

/** The base every case changes: valid, no warnings. */
export function baseManifest(): Json {
  return {
    schema_version: '0.2.0',
    service: { name: 'Conformance example', base_url: 'https://api.example.com/v1' },
    tools: [
      {
        id: 'get_item',
        path: '/items/{item_id}',
        method: 'GET',
        description: 'Read one item.',
        parameters: { item_id: { type: 'string', in: 'path', required: true }, fields: { type: 'string' } },
      },
      {
        id: 'create_item',
        path: '/items',
        method: 'POST',
        description: 'Create an item.',
        parameters: { name: { type: 'string', required: true }, tags: { type: 'array', json_schema: { type: 'array', items: { type: 'string' }, maxItems: 20 } } },
      },
    ],
  };
}

function job(): Json {
  return {
    id: 'export_items',
    path: '/exports',
    method: 'POST',
    description: 'Export all items as a file, asynchronously.',
    temporal_behavior: {
      pattern: 'async_job',
      status_endpoint: '/exports/{job_id}',
      status_response_type: 'event_stream',
      terminal_states: ['completed', 'failed', 'cancelled'],
      signals: ['needs_input'],
      result_endpoint: '/exports/{job_id}/result',
      cancel_endpoint: '/exports/{job_id}/cancel',
      reconnection: { supports_last_event_id: true },
    },
    event_schema: { needs_input: { fields: { input_id: 'string', prompt: 'string' }, resolution_endpoint: '/exports/{job_id}/respond' } },
  };
}

const error = (code: string, pointer: string): ExpectedIssue => ({ code, pointer, severity: 'error' });
const warning = (code: string, pointer: string): ExpectedIssue => ({ code, pointer, severity: 'warning' });

interface Change {
  id: string;
  description: string;
  section: string;
  level?: 'MUST' | 'SHOULD';
  change?: (manifest: Json) => void;
  text?: (manifest: Json) => string;
  bytes?: (manifest: Json) => Uint8Array;
  issues?: ExpectedIssue[];
}

function toCase(change: Change): ManifestCase {
  const manifest = baseManifest();
  change.change?.(manifest);
  const issues = change.issues ?? [];
  const document = change.bytes ? { manifest_base64: Buffer.from(change.bytes(manifest)).toString('base64') } : change.text ? { manifest_text: change.text(manifest) } : { manifest };
  return {
    id: change.id,
    description: change.description,
    spec_section: change.section,
    level: change.level ?? 'MUST',
    ...document,
    valid: !issues.some((issue) => issue.severity === 'error'),
    issues,
  };
}

const deepArray = (levels: number): unknown => {
  let node: unknown = [];
  for (let level = 1; level < levels; level++) node = [node];
  return node;
};

const document: Change[] = [
  { id: 'document.base', description: 'the base manifest every other case changes is valid and draws no warning', section: '7', change: () => {} },
  { id: 'document.byte_order_mark', description: 'one leading byte-order mark is accepted and ignored', section: '2', text: (m) => `\uFEFF${JSON.stringify(m)}` },
  {
    id: 'document.not_utf8',
    description: 'bytes that are not UTF-8 are refused',
    section: '2',
    bytes: (m) => Buffer.concat([Buffer.from(JSON.stringify(m).slice(0, -1)), Buffer.from([0x2c, 0x22, 0x78, 0x2d, 0x61, 0x22, 0x3a, 0x22, 0xff, 0x22, 0x7d])]),
    issues: [error('json.encoding', '')],
  },
  { id: 'document.syntax', description: 'text that is not JSON is refused', section: '2', text: (m) => `${JSON.stringify(m).slice(0, -1)},}`, issues: [error('json.syntax', '')] },
  {
    id: 'document.duplicate_key',
    description: 'an object that repeats a member name is refused, not read as the last value',
    section: '2',
    text: (m) => JSON.stringify(m).replace('"name":"Conformance example"', '"name":"Conformance example","name":"Other"'),
    issues: [error('json.duplicate_key', '/service/name')],
  },
  {
    id: 'document.unpaired_surrogate',
    description: 'a string holding an unpaired surrogate is refused',
    section: '2',
    text: (m) => JSON.stringify(m).replace('"Read one item."', '"Read one item.\\ud800"'),
    issues: [error('json.invalid_unicode', '/tools/0/description')],
  },
  {
    id: 'document.number_out_of_range',
    description: 'a number that is not a finite double is refused',
    section: '2',
    text: (m) => JSON.stringify(m).replace('"maxItems":20', '"maxItems":1e400'),
    issues: [error('json.syntax', '/tools/1/parameters/tags/json_schema/maxItems')],
  },
  {
    id: 'document.too_deep',
    description: 'nesting deeper than 64 levels is refused',
    section: '2',
    change: (m) => (m['x-deep'] = deepArray(64)),
    issues: [error('json.too_deep', `/x-deep${'/0'.repeat(63)}`)],
  },
  {
    id: 'document.proto_key',
    description: 'a member named __proto__ is refused',
    section: '2',
    text: (m) => JSON.stringify(m).replace('{"name":"Conformance example"', '{"__proto__":{"admin":true},"name":"Conformance example"'),
    issues: [error('json.forbidden_key', '/service/__proto__')],
  },
  {
    id: 'document.constructor_object',
    description: 'a member named constructor holding an object is refused',
    section: '2',
    text: (m) => JSON.stringify(m).replace('{"name":"Conformance example"', '{"constructor":{"prototype":{}},"name":"Conformance example"'),
    issues: [error('json.forbidden_key', '/service/constructor')],
  },
  {
    id: 'document.unknown_member',
    description: 'an unknown member is not an error (a validator may warn)',
    section: '2.1',
    change: (m) => (m['tools'][0].summary = 'Read'),
    issues: [warning('field.unknown', '/tools/0/summary')],
  },
  { id: 'document.extension_member', description: 'an x- member is neither an error nor a warning', section: '2.1', change: (m) => (m['tools'][0]['x-owner'] = { team: 'items' }) },
  { id: 'version.later_minor', description: 'a later minor and patch of a known major is read', section: '2.2', change: (m) => (m['schema_version'] = '0.9.3') },
  { id: 'version.v0_1', description: 'a 0.1.0 document is read', section: '2.2', change: (m) => (m['schema_version'] = '0.1.0') },
  {
    id: 'version.unknown_major',
    description: 'an unknown major is refused as a whole',
    section: '2.2',
    change: (m) => (m['schema_version'] = '1.0.0'),
    issues: [error('schema_version.unsupported', '/schema_version')],
  },
  {
    id: 'version.not_semver',
    description: 'schema_version must be MAJOR.MINOR.PATCH',
    section: '2.2',
    change: (m) => (m['schema_version'] = '0.2'),
    issues: [error('schema.pattern', '/schema_version')],
  },
];

const fields: Change[] = [
  {
    id: 'field.required_missing',
    description: 'a required member is missing',
    section: '7',
    change: (m) => delete m['tools'][0].description,
    issues: [error('schema.required', '/tools/0/description')],
  },
  {
    id: 'field.too_long',
    description: 'a string longer than its upper bound',
    section: '7',
    change: (m) => (m['service'].name = 'n'.repeat(201)),
    issues: [error('schema.maxLength', '/service/name')],
  },
  { id: 'field.wrong_enum', description: 'a method outside the enumeration', section: '7.4', change: (m) => (m['tools'][0].method = 'FETCH'), issues: [error('schema.enum', '/tools/0/method')] },
  { id: 'id.invalid', description: 'an id that does not match the id pattern', section: '7', change: (m) => (m['tools'][1].id = 'create item'), issues: [error('id.invalid', '/tools/1/id')] },
  {
    id: 'id.duplicate_across_arrays',
    description: 'an id used by a tool and a resource',
    section: '7.1',
    change: (m) => (m['resources'] = [{ id: 'get_item', path: '/items/latest', description: 'The latest item.' }]),
    issues: [error('id.duplicate', '/resources/0/id')],
  },
  {
    id: 'service.base_url_http',
    description: 'base_url over http on a public host',
    section: '7.2',
    change: (m) => (m['service'].base_url = 'http://api.example.com/v1'),
    issues: [error('service.base_url_insecure', '/service/base_url')],
  },
  {
    id: 'service.base_url_http_loopback',
    description: 'base_url over http on loopback is allowed for local development',
    section: '7.2',
    change: (m) => (m['service'].base_url = 'http://127.0.0.1:8080/v1'),
  },
  {
    id: 'service.base_url_credentials',
    description: 'base_url with a user name and password',
    section: '7.2',
    change: (m) => (m['service'].base_url = 'https://user:secret@api.example.com/v1'),
    issues: [error('service.base_url_credentials', '/service/base_url')],
  },
  {
    id: 'service.base_url_query',
    description: 'base_url with a query',
    section: '7.2',
    change: (m) => (m['service'].base_url = 'https://api.example.com/v1?tenant=a'),
    issues: [error('service.base_url_invalid', '/service/base_url')],
  },
  {
    id: 'service.base_url_fragment',
    description: 'base_url with a fragment',
    section: '7.2',
    change: (m) => (m['service'].base_url = 'https://api.example.com/v1#top'),
    issues: [error('service.base_url_invalid', '/service/base_url')],
  },
  {
    id: 'service.base_url_http_localhost_name',
    description: 'base_url over http on a *.localhost name is allowed for local development',
    section: '7.2',
    change: (m) => (m['service'].base_url = 'http://api.localhost:3000/v1'),
  },
  {
    id: 'service.base_url_http_localhost_lookalike',
    description: 'base_url over http on a public name that starts with localhost',
    section: '7.2',
    change: (m) => (m['service'].base_url = 'http://localhost.example.com/v1'),
    issues: [error('service.base_url_insecure', '/service/base_url')],
  },
  {
    id: 'url.credentials',
    description: 'a URL field with a user name and password',
    section: '7',
    change: (m) => (m['policy'] = { policy_url: 'https://user:secret@example.com/policy' }),
    issues: [error('url.invalid', '/policy/policy_url')],
  },
  {
    id: 'auth.api_key_missing',
    description: 'auth of type api_key without saying where the key goes',
    section: '7.16',
    change: (m) => (m['auth'] = { type: 'api_key' }),
    issues: [error('auth.api_key_required', '/auth/api_key')],
  },
  {
    id: 'auth.api_key_present',
    description: 'auth of type api_key with its location and name',
    section: '7.16',
    change: (m) => (m['auth'] = { type: 'api_key', api_key: { in: 'header', name: 'X-API-Key' } }),
  },
  {
    id: 'url.not_http',
    description: 'a URL field with another scheme than http(s)',
    section: '7',
    change: (m) => (m['policy'] = { policy_url: 'javascript:alert(1)' }),
    issues: [error('url.invalid', '/policy/policy_url')],
  },
  {
    id: 'versioning.min_after_current',
    description: 'min_supported greater than current',
    section: '7.18',
    change: (m) => (m['versioning'] = { current: '1.2.0', min_supported: '1.10.0' }),
    issues: [error('versioning.min_after_current', '/versioning/min_supported')],
  },
];

/** A v0.3 manifest with a change feed at `path`. */
function withChangeFeed(manifest: Json, path: string): void {
  manifest['schema_version'] = '0.3.0';
  manifest['change_feed'] = { path };
}

const paths: Change[] = [
  {
    id: 'change_feed.path_same_origin',
    description: 'a change feed at a path on the manifest origin',
    section: '7.22',
    change: (m) => withChangeFeed(m, '/.well-known/ai-capabilities/changes'),
  },
  {
    id: 'change_feed.path_protocol_relative',
    description: 'a change feed path starting with // names another host: the feed must stay on the origin',
    section: '7.22',
    change: (m) => withChangeFeed(m, '//feeds.example.net/changes'),
    issues: [error('schema.pattern', '/change_feed/path')],
  },
  {
    id: 'change_feed.path_backslash',
    description: 'a change feed path starting with /\\, which URL parsers read as a host',
    section: '7.22',
    change: (m) => withChangeFeed(m, '/\\feeds.example.net/changes'),
    issues: [error('schema.pattern', '/change_feed/path')],
  },
  {
    id: 'path.placeholder_without_parameter',
    description: 'a placeholder with no parameter is an implicit required string path parameter',
    section: '7.6',
    level: 'SHOULD',
    change: (m) => delete m['tools'][0].parameters.item_id,
    issues: [warning('path.implicit_parameter', '/tools/0/path')],
  },
  {
    id: 'path.parameter_without_placeholder',
    description: 'a parameter in path with no placeholder',
    section: '7.4',
    change: (m) => (m['tools'][0].parameters.fields.in = 'path'),
    issues: [error('path.unused_parameter', '/tools/0/parameters/fields')],
  },
  {
    id: 'path.placeholder_in_query',
    description: 'a placeholder whose parameter is declared in another location',
    section: '7.4',
    change: (m) => (m['tools'][0].parameters.item_id.in = 'query'),
    issues: [error('path.parameter_location', '/tools/0/parameters/item_id/in')],
  },
  {
    id: 'path.stray_brace',
    description: 'a brace outside a placeholder',
    section: '7.4',
    change: (m) => (m['tools'][0].path = '/items/{item_id}}'),
    issues: [error('path.malformed_placeholder', '/tools/0/path')],
  },
  { id: 'path.dot_segment', description: 'a .. segment', section: '7.4', change: (m) => (m['tools'][1].path = '/items/../admin'), issues: [error('path.dot_segment', '/tools/1/path')] },
  {
    id: 'path.encoded_dot_segment',
    description: 'a percent-encoded .. segment',
    section: '7.4',
    change: (m) => (m['tools'][1].path = '/items/%2e%2E/admin'),
    issues: [error('path.dot_segment', '/tools/1/path')],
  },
  {
    id: 'tool.ui_resource',
    description: 'a tool that names a UI resource (text/html;profile=mcp-app) to render its results',
    section: '7.4',
    change: (m) => (
      (m['resources'] = [
        { id: 'item_view', path: '/items/view', description: 'A page that shows items.', mime_type: 'text/html;profile=mcp-app', ui: { connect_domains: ['https://api.example.com'] } },
      ]),
      (m['tools'][0].ui_resource = 'item_view')
    ),
  },
  {
    id: 'tool.ui_resource_unknown',
    description: 'ui_resource names no resource',
    section: '7.4',
    change: (m) => (m['tools'][0].ui_resource = 'item_view'),
    issues: [error('tool.ui_resource_unknown', '/tools/0/ui_resource')],
  },
  {
    id: 'tool.ui_resource_not_html',
    description: 'ui_resource names a resource that is not an MCP Apps page',
    section: '7.4',
    change: (m) => ((m['resources'] = [{ id: 'item_view', path: '/items/view', description: 'Items as JSON.' }]), (m['tools'][0].ui_resource = 'item_view')),
    issues: [error('tool.ui_resource_unknown', '/tools/0/ui_resource')],
  },
  {
    id: 'body_parameter.on_head',
    description: 'body_parameter on HEAD, which has no body',
    section: '7.4',
    change: (m) => ((m['tools'][0].method = 'HEAD'), (m['tools'][0].body_parameter = 'fields')),
    issues: [error('tool.body_parameter_location', '/tools/0/body_parameter')],
  },
  {
    id: 'body_parameter.on_get',
    description: 'body_parameter on a method without a body',
    section: '7.4',
    change: (m) => (m['tools'][0].body_parameter = 'fields'),
    issues: [error('tool.body_parameter_location', '/tools/0/body_parameter')],
  },
  {
    id: 'body_parameter.unknown',
    description: 'body_parameter naming no parameter',
    section: '7.4',
    change: (m) => (m['tools'][1].body_parameter = 'payload'),
    issues: [error('tool.body_parameter_unknown', '/tools/1/body_parameter')],
  },
  {
    id: 'body_parameter.conflict',
    description: 'another parameter would also travel in the body',
    section: '7.4',
    change: (m) => (m['tools'][1].body_parameter = 'name'),
    issues: [error('tool.body_parameter_conflict', '/tools/1/parameters/tags')],
  },
];

const parameters: Change[] = [
  {
    id: 'header.host',
    description: 'a header parameter named Host',
    section: '7.6',
    change: (m) => (m['tools'][0].parameters.Host = { type: 'string', in: 'header' }),
    issues: [error('parameter.forbidden_header', '/tools/0/parameters/Host')],
  },
  {
    id: 'header.authorization',
    description: 'a header parameter named authorization (case-insensitive)',
    section: '7.6',
    change: (m) => (m['tools'][0].parameters.authorization = { type: 'string', in: 'header' }),
    issues: [error('parameter.forbidden_header', '/tools/0/parameters/authorization')],
  },
  {
    id: 'header.cookie_mixed_case',
    description: 'a header parameter named cOOKIE (case-insensitive)',
    section: '7.6',
    change: (m) => (m['tools'][0].parameters.cOOKIE = { type: 'string', in: 'header' }),
    issues: [error('parameter.forbidden_header', '/tools/0/parameters/cOOKIE')],
  },
  {
    id: 'header.host_in_query',
    description: 'a query parameter named host is not a header, so it is allowed',
    section: '7.6',
    change: (m) => (m['tools'][0].parameters.host = { type: 'string', in: 'query' }),
  },
  {
    id: 'header.proxy',
    description: 'a header parameter named Proxy-*',
    section: '7.6',
    change: (m) => (m['tools'][0].parameters['Proxy-Authorization'] = { type: 'string', in: 'header' }),
    issues: [error('parameter.forbidden_header', '/tools/0/parameters/Proxy-Authorization')],
  },
  {
    id: 'schema.remote_ref',
    description: 'a $ref that points outside the manifest',
    section: '7.6',
    change: (m) => (m['tools'][1].parameters.tags.json_schema.items = { $ref: 'https://schemas.example.com/tag.json' }),
    issues: [error('schema.remote_ref', '/tools/1/parameters/tags/json_schema/items/$ref')],
  },
  {
    id: 'schema.dynamic_remote_ref',
    description: 'a $dynamicRef that points outside the manifest',
    section: '7.6',
    change: (m) => (m['tools'][1].parameters.tags.json_schema.items = { $dynamicRef: 'http://169.254.169.254/latest' }),
    issues: [error('schema.remote_ref', '/tools/1/parameters/tags/json_schema/items/$dynamicRef')],
  },
  {
    id: 'schema.data',
    description: '$data in an embedded schema',
    section: '7.6',
    change: (m) => (m['tools'][1].parameters.tags.json_schema.maxItems = { $data: '1/max' }),
    issues: [error('schema.data_reference', '/tools/1/parameters/tags/json_schema/maxItems/$data')],
  },
  {
    id: 'schema.nested_quantifier',
    description: 'a pattern with a repeated group holding an unbounded quantifier',
    section: '7.6',
    change: (m) => (m['tools'][0].parameters.item_id.json_schema = { type: 'string', pattern: '^(a+)+$' }),
    issues: [error('schema.unsafe_pattern', '/tools/0/parameters/item_id/json_schema/pattern')],
  },
  {
    id: 'schema.adjacent_quantifiers',
    description: 'a pattern with two unbounded atoms in a row that match the same character',
    section: '7.6',
    change: (m) => (m['tools'][0].parameters.item_id.json_schema = { type: 'string', pattern: '^\\d+\\d+$' }),
    issues: [error('schema.unsafe_pattern', '/tools/0/parameters/item_id/json_schema/pattern')],
  },
  {
    id: 'schema.bounded_pattern',
    description: 'a bounded repeat is fine',
    section: '7.6',
    change: (m) => (m['tools'][0].parameters.item_id.json_schema = { type: 'string', pattern: '^(\\d{1,3}\\.){3}\\d{1,3}$' }),
  },
  {
    id: 'schema.long_pattern',
    description: 'a pattern over 1000 characters',
    section: '7.6',
    change: (m) => (m['tools'][0].parameters.item_id.json_schema = { type: 'string', pattern: 'a'.repeat(1001) }),
    issues: [error('schema.unsafe_pattern', '/tools/0/parameters/item_id/json_schema/pattern')],
  },
  {
    id: 'schema.invalid_pattern',
    description: 'a pattern that is not a regular expression',
    section: '7.6',
    change: (m) => (m['tools'][0].parameters.item_id.json_schema = { type: 'string', pattern: '^([0-9]{4}' }),
    issues: [error('schema.invalid_pattern', '/tools/0/parameters/item_id/json_schema/pattern')],
  },
  {
    id: 'schema.unbounded_unique_items',
    description: 'uniqueItems on objects without maxItems',
    section: '7.6',
    change: (m) => (m['tools'][0].returns = { type: 'array', schema: { type: 'array', uniqueItems: true, items: { type: 'object' } } }),
    issues: [error('schema.unbounded_unique_items', '/tools/0/returns/schema/uniqueItems')],
  },
  {
    id: 'schema.too_deep',
    description: 'an embedded schema nested deeper than 32 levels',
    section: '7.6',
    change: (m) => {
      let node: Json = { type: 'string' };
      for (let level = 0; level < 20; level++) node = { type: 'object', properties: { a: node } };
      m['tools'][0].returns = { type: 'object', schema: node };
    },
    issues: [error('schema.too_deep', `/tools/0/returns/schema${'/properties/a'.repeat(16)}/properties`)],
  },
  {
    id: 'schema.too_large',
    description: 'an embedded schema of more than 10,000 nodes (objects and arrays)',
    section: '7.6',
    change: (m) => (m['tools'][0].returns = { type: 'object', schema: { enum: Array.from({ length: 10_001 }, () => ({})) } }),
    issues: [error('schema.too_large', '/tools/0/returns/schema')],
  },
];

const definitions: Change[] = [
  {
    id: 'definitions.shared',
    description: 'a shared definition referenced from a parameter and a result',
    section: '7.19',
    change: (m) => {
      m['definitions'] = { Item: { type: 'object', properties: { id: { type: 'string' }, name: { type: 'string' } } } };
      m['tools'][0].returns = { type: 'object', schema: { $ref: '#/definitions/Item' } };
    },
  },
  {
    id: 'definitions.unknown',
    description: 'a reference to a definition that does not exist',
    section: '7.19',
    change: (m) => (m['tools'][0].returns = { type: 'object', schema: { $ref: '#/definitions/Missing' } }),
    issues: [error('schema.unknown_definition', '/tools/0/returns/schema/$ref')],
  },
  {
    id: 'definitions.unresolved',
    description: 'a definition using a local reference other than #/definitions/…',
    section: '7.19',
    change: (m) => (m['definitions'] = { Item: { $ref: '#/$defs/Item' } }),
    issues: [error('schema.unresolved_ref', '/definitions/Item/$ref')],
  },
  {
    id: 'definitions.cycle',
    description: 'definitions referring to each other without descending into the value',
    section: '7.19',
    change: (m) => (m['definitions'] = { A: { allOf: [{ $ref: '#/definitions/B' }] }, B: { $ref: '#/definitions/A' } }),
    issues: [error('schema.ref_cycle', '/definitions/A')],
  },
  {
    id: 'definitions.recursive',
    description: 'a recursive definition through properties is fine',
    section: '7.19',
    change: (m) => {
      m['definitions'] = { Node: { type: 'object', properties: { children: { type: 'array', maxItems: 100, items: { $ref: '#/definitions/Node' } } } } };
      m['tools'][0].returns = { type: 'object', schema: { $ref: '#/definitions/Node' } };
    },
  },
];

const references: Change[] = [
  { id: 'job.valid', description: 'a job tool whose endpoints are filled from the job id', section: '7.11', change: (m) => m['tools'].push(job()) },
  {
    id: 'job.unknown_placeholder',
    description: 'a job endpoint placeholder that neither the job id nor the tool path fills',
    section: '7.11',
    change: (m) => {
      const tool = job();
      tool['temporal_behavior'].status_endpoint = '/exports/{export_id}';
      m['tools'].push(tool);
    },
    issues: [error('temporal.unknown_placeholder', '/tools/2/temporal_behavior/status_endpoint')],
  },
  {
    id: 'job.unknown_placeholder_resolution',
    description: 'a resolution_endpoint placeholder nothing fills',
    section: '7.11',
    change: (m) => {
      const tool = job();
      tool['event_schema'].needs_input.resolution_endpoint = '/exports/{job_id}/questions/{question_id}';
      m['tools'].push(tool);
    },
    issues: [error('temporal.unknown_placeholder', '/tools/2/event_schema/needs_input/resolution_endpoint')],
  },
  {
    id: 'prompt.missing_parameter',
    description: 'a template placeholder with no parameter',
    section: '7.15',
    change: (m) =>
      (m['prompts'] = [
        { id: 'summarise_item', description: 'Summarise an item.', template: 'Summarise {{item_id}} in a {{tone}} tone.', parameters: { item_id: { type: 'string', required: true } } },
      ]),
    issues: [error('prompt.missing_parameter', '/prompts/0/template')],
  },
  {
    id: 'auth.unknown_scope_id',
    description: 'auth.scopes names an id the manifest lacks: a warning, since a per-credential variant omits what it does not grant',
    section: '7.16',
    level: 'SHOULD',
    change: (m) => (m['auth'] = { type: 'bearer', scopes: { 'items:read': ['get_item', 'list_items'] } }),
    issues: [warning('auth.unknown_id', '/auth/scopes/items:read/1')],
  },
  {
    id: 'policy.unknown_approval_id',
    description: 'human_approval_required names an id the manifest lacks: a warning, for the same reason',
    section: '7.17',
    level: 'SHOULD',
    change: (m) => (m['policy'] = { human_approval_required: ['create_item', 'delete_item'] }),
    issues: [warning('policy.unknown_id', '/policy/human_approval_required/1')],
  },
];

/** The base with a v0.3 link from create_item's result to get_item's path parameter; `edit` changes the link. */
function linked(manifest: Json, edit: (link: Json) => void = () => undefined): void {
  manifest['schema_version'] = '0.3.0';
  const creator = manifest['tools'][1];
  creator.returns = { type: 'object', schema: { type: 'object', properties: { id: { type: 'string' }, name: { type: 'string' } } } };
  const link: Json = { tool: 'get_item', parameters: { item_id: '$result#/id' }, description: 'Read the item just created.' };
  edit(link);
  creator.links = [link];
}

const links: Change[] = [
  {
    id: 'links.valid',
    description: "a link from a result member, and one from an argument, to another tool's parameters; a parameter naming its resolver",
    section: '7.20',
    change: (m) => {
      linked(m, (link) => (link['parameters'].fields = '$arguments#/name'));
      m['tools'][0].parameters.item_id.resolved_by = 'create_item';
    },
  },
  {
    id: 'links.unknown_parameter',
    description: 'a link fills a parameter the target tool does not have',
    section: '7.20',
    change: (m) => linked(m, (link) => (link['parameters'] = { id: '$result#/id' })),
    issues: [error('link.unknown_parameter', '/tools/1/links/0/parameters/id')],
  },
  {
    id: 'links.unresolved_result_pointer',
    description: 'a $result pointer names a member the returns schema does not declare',
    section: '7.20',
    change: (m) => linked(m, (link) => (link['parameters'].item_id = '$result#/item_id')),
    issues: [error('link.unresolved_pointer', '/tools/1/links/0/parameters/item_id')],
  },
  {
    id: 'links.unresolved_argument_pointer',
    description: 'an $arguments pointer that does not start at a parameter of the tool',
    section: '7.20',
    change: (m) => linked(m, (link) => (link['parameters'].item_id = '$arguments#/item_id')),
    issues: [error('link.unresolved_pointer', '/tools/1/links/0/parameters/item_id')],
  },
  {
    id: 'links.bad_expression',
    description: 'an OpenAPI runtime expression is not a link expression',
    section: '7.20',
    change: (m) => linked(m, (link) => (link['parameters'].item_id = '$response.body#/id')),
    issues: [error('schema.pattern', '/tools/1/links/0/parameters/item_id')],
  },
  {
    id: 'links.unknown_tool',
    description: 'a link to a tool the manifest lacks: a warning, since a per-credential variant omits what it does not grant',
    section: '7.20',
    level: 'SHOULD',
    change: (m) => linked(m, (link) => (link['tool'] = 'archive_item')),
    issues: [warning('link.unknown_tool', '/tools/1/links/0/tool')],
  },
  {
    id: 'links.unknown_resolver',
    description: 'resolved_by names a tool the manifest lacks: a warning, for the same reason',
    section: '7.20',
    level: 'SHOULD',
    change: (m) => {
      m['schema_version'] = '0.3.0';
      m['tools'][0].parameters.item_id.resolved_by = 'find_item';
    },
    issues: [warning('parameter.unknown_resolver', '/tools/0/parameters/item_id/resolved_by')],
  },
];

/** Every group of cases, by the file it is written to. */
export function buildManifestCases(): Map<string, ManifestCase[]> {
  return new Map([
    ['document.json', document.map(toCase)],
    ['fields.json', fields.map(toCase)],
    ['paths.json', paths.map(toCase)],
    ['parameters.json', parameters.map(toCase)],
    ['definitions.json', definitions.map(toCase)],
    ['references.json', references.map(toCase)],
    ['links.json', links.map(toCase)],
  ]);
}
