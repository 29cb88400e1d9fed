import { describe, expect, it } from 'vitest';
import type { DiscoveredService } from '../client/shapes/client-types.js';
import type { Manifest } from '../manifest/manifest-v0.js';
import { paymentsManifest, smallManifest } from '../../test/helpers/client-manifests.js';
import { createCatalog } from './create-catalog.js';

function service(manifest: Manifest, overrides: Partial<DiscoveredService> = {}): DiscoveredService {
  return {
    namespace: 'payments',
    origin: 'https://api.example.com',
    manifestUrl: 'https://api.example.com/.well-known/ai-capabilities',
    manifest,
    digest: 'sha256-x',
    grantedScopes: undefined,
    findings: [],
    quarantinedToolIds: [],
    disabledToolIds: [],
    ...overrides,
  };
}

describe('createCatalog', () => {
  it('lists every tool of a single service under its plain id', () => {
    const catalog = createCatalog([service(paymentsManifest('https://api.example.com/v2'))]);
    expect(catalog.tools.map((tool) => tool.name)).toEqual(['analyze_transactions', 'list_transactions', 'close_account', 'modify_limits', 'generate_report']);
    expect(catalog.withheld).toEqual([]);
  });

  it('refuses what is not a list of services with INVALID_ARGUMENT saying what to pass, not a TypeError', () => {
    const one = service(paymentsManifest('https://api.example.com/v2'));
    for (const [input, said] of [
      [null, 'got null'],
      [undefined, 'got undefined'],
      [one, 'one service (pass [service])'],
      ['payments', 'got string'],
    ] as const) {
      expect(() => createCatalog(input as never)).toThrow(expect.objectContaining({ code: 'INVALID_ARGUMENT', message: expect.stringContaining(said) }));
    }
  });

  it('refuses a list holding something else than a service with INVALID_ARGUMENT naming its index and the missing field, not a TypeError', () => {
    const one = service(paymentsManifest('https://api.example.com/v2'));
    const { manifestUrl: _dropped, ...withoutUrl } = one;
    for (const [input, said] of [
      [[one, null], 'services[1] is null'],
      [[{}], 'services[0] has no string `manifestUrl`'],
      [[withoutUrl], 'services[0] has no string `manifestUrl`'],
      [[{ ...one, manifest: { tools: 'x' } }], 'services[0] has no manifest with a tools array'],
      [[{ ...one, findings: undefined }], 'services[0] has no array `findings`'],
      [[one.manifest], 'services[0] has no string `manifestUrl`'],
    ] as const) {
      expect(() => createCatalog(input as never)).toThrow(expect.objectContaining({ code: 'INVALID_ARGUMENT', message: expect.stringContaining(said) }));
    }
  });

  it("builds a tool's input schema and description when first read, once, and they survive a spread and JSON", () => {
    const manifest = paymentsManifest('https://api.example.com/v2');
    const source = manifest.tools[1]!;
    const { parameters } = source;
    let parameterReads = 0;
    Object.defineProperty(source, 'parameters', { enumerable: true, get: () => (parameterReads++, parameters) });
    const tool = createCatalog([service(manifest)]).tools.find((entry) => entry.id === source.id)!;
    // Ranking reads the definition only: a tool never handed to a model never gets its schema built.
    expect(parameterReads).toBe(0);
    const schema = tool.inputSchema;
    expect(tool.inputSchema).toBe(schema);
    expect(parameterReads).toBe(1);
    expect(Object.keys(schema.properties)).toEqual(Object.keys(parameters!));
    expect(tool.description).toContain(source.description.trim());
    expect({ ...tool }.inputSchema).toBe(schema);
    expect(JSON.parse(JSON.stringify(tool))).toMatchObject({ name: tool.name, description: tool.description, inputSchema: schema });
  });

  it('keeps only the tools the granted scopes unlock', () => {
    const catalog = createCatalog([service(paymentsManifest('https://api.example.com/v2'), { grantedScopes: ['read'] })]);
    expect(catalog.tools.map((tool) => tool.id)).toEqual(['analyze_transactions', 'list_transactions', 'generate_report']);
    expect(catalog.warnings).toContain('payments: 2 tool(s) hidden because no granted scope unlocks them');
  });

  it('treats a tool no scope mentions as open, and ignores inherited property names as scopes', () => {
    const manifest = paymentsManifest('https://api.example.com/v2');
    manifest.tools.push({ id: 'status', path: '/status', method: 'GET', description: 'Service status' });
    const catalog = createCatalog([service(manifest, { grantedScopes: ['constructor', '__proto__'] })]);
    expect(catalog.tools.map((tool) => tool.id)).toEqual(['status']);
  });

  it('hides deprecated tools unless asked, and says so', () => {
    const manifest = paymentsManifest('https://api.example.com/v2');
    manifest.tools[4]!.deprecated = { replaced_by: 'analyze_transactions' };
    expect(createCatalog([service(manifest)]).tools.map((tool) => tool.id)).not.toContain('generate_report');
    const withDeprecated = createCatalog([service(manifest)], { includeDeprecated: true });
    const report = withDeprecated.tools.find((tool) => tool.id === 'generate_report')!;
    expect(report.deprecated).toBe(true);
    expect(report.description).toContain('Deprecated. Use analyze_transactions instead.');
  });

  it('withholds quarantined and changed tools with their reason', () => {
    const finding = { code: 'text.instruction', pointer: '/tools/1/description', text: 'x', severity: 'high' as const, message: 'm', toolId: 'list_transactions' };
    const catalog = createCatalog([service(paymentsManifest('https://api.example.com/v2'), { findings: [finding], quarantinedToolIds: ['list_transactions'], disabledToolIds: ['close_account'] })]);
    expect(catalog.withheld.map((tool) => [tool.id, tool.reason])).toEqual([
      ['list_transactions', 'quarantined'],
      ['close_account', 'changed'],
    ]);
    expect(catalog.withheld[0]!.findings).toEqual([finding]);
  });

  it('renders intent compactly and keeps returns and errors out of the model text', () => {
    const tool = createCatalog([service(paymentsManifest('https://api.example.com/v2'))]).tools[0]!;
    expect(tool.description).toBe(
      'Detects anomalies and patterns in transaction history. Use when: User asks about spending patterns, unusual activity, or transaction history analysis. Avoid when: User is asking about future projections; this tool is historical only. First: Account ID must be resolved first. Use account_summary resource.',
    );
    expect(tool.description).not.toContain('Flagged transactions');
    expect(tool.description).not.toContain('retry');
  });

  it('describes arguments as one closed JSON Schema object', () => {
    const tool = createCatalog([service(paymentsManifest('https://api.example.com/v2'))]).tools[0]!;
    expect(tool.inputSchema).toMatchObject({ type: 'object', required: ['account_id'], additionalProperties: false });
    expect(tool.inputSchema.properties['limit']).toEqual({ type: 'integer', minimum: 1, maximum: 100, description: 'Items per page (1-100)' });
    expect(tool.readOnly).toBe(false);
    expect(tool.idempotent).toBe(true);
  });

  it('namespaces names when several services are loaded', () => {
    const other = service(paymentsManifest('https://billing.example.com/v2'), {
      namespace: 'billing',
      origin: 'https://billing.example.com',
      manifestUrl: 'https://billing.example.com/.well-known/ai-capabilities',
    });
    const catalog = createCatalog([service(paymentsManifest('https://api.example.com/v2')), other]);
    expect(catalog.tools.map((tool) => tool.name).slice(0, 2)).toEqual(['payments__analyze_transactions', 'payments__list_transactions']);
    expect(catalog.tools.at(-1)!.name).toBe('billing__generate_report');
    expect(createCatalog([service(paymentsManifest('https://api.example.com/v2')), other], { namespaces: ['billing'] }).tools.every((tool) => tool.namespace === 'billing')).toBe(true);
  });

  it('keeps only the services the namespaces option names, and includes resources only when asked', () => {
    const payments = paymentsManifest('https://api.example.com/v2');
    payments.resources = [{ id: 'account_summary', path: '/accounts/{account_id}/summary', description: 'Summary of an account' }];
    const other = service(smallManifest('other', 'https://other.example.com', [{ id: 'ping', description: 'Checks the service' }]), {
      namespace: 'other',
      origin: 'https://other.example.com',
      manifestUrl: 'https://other.example.com/m',
    });
    const both = [service(payments), other];
    expect(createCatalog(both, { namespaces: ['other'] }).tools.map((tool) => `${tool.namespace}/${tool.id}`)).toEqual(['other/ping']);
    expect(createCatalog(both, { namespaces: [] }).tools).toEqual([]);
    expect(createCatalog([service(payments)]).tools.map((tool) => tool.id)).not.toContain('account_summary');
    const summary = createCatalog([service(payments)], { includeResources: true }).tools.find((tool) => tool.id === 'account_summary')!;
    expect(summary).toMatchObject({ method: 'GET', readOnly: true, idempotent: true, requiresApproval: false });
    expect(summary.inputSchema.required).toEqual(['account_id']);
  });

  it('derives readOnly and idempotent from the method unless the tool declares idempotency, and approval from the policy', () => {
    const manifest = smallManifest('shop', 'https://api.example.com', [
      { id: 'get_item', description: 'Reads an item', method: 'GET', path: '/items/{id}' },
      { id: 'put_item', description: 'Replaces an item', method: 'PUT', path: '/items/{id}' },
      { id: 'post_item', description: 'Creates an item', method: 'POST', path: '/items' },
      { id: 'charge', description: 'Charges a card', method: 'POST', path: '/charges', idempotent: true },
      { id: 'delete_item', description: 'Deletes an item', method: 'DELETE', path: '/items/{id}', idempotent: false },
    ]);
    manifest.policy = { human_approval_required: ['delete_item'] };
    const byId = new Map(createCatalog([service(manifest)]).tools.map((tool) => [tool.id, tool]));
    expect([...byId.values()].map((tool) => [tool.id, tool.readOnly, tool.idempotent, tool.requiresApproval])).toEqual([
      ['get_item', true, true, false],
      ['put_item', false, true, false],
      ['post_item', false, false, false],
      ['charge', false, true, false],
      ['delete_item', false, false, true],
    ]);
  });

  it('passes medium findings on as warnings naming the tool and the pointer, and withholds nothing for them', () => {
    const catalog = createCatalog([
      service(paymentsManifest('https://api.example.com/v2'), {
        findings: [{ toolId: 'list_transactions', code: 'text.homoglyph', pointer: '/tools/1/description', text: 'Lists trаnsactions', severity: 'medium', message: 'mixes scripts' }],
      }),
    ]);
    expect(catalog.tools.map((tool) => tool.id)).toContain('list_transactions');
    expect(catalog.withheld).toEqual([]);
    expect(catalog.warnings).toContain('payments/list_transactions: text.homoglyph at /tools/1/description: mixes scripts');
  });

  it('gives an empty catalog, without warnings, for no services', () => {
    expect(createCatalog([])).toEqual({ tools: [], withheld: [], warnings: [], terms: [] });
  });
});
