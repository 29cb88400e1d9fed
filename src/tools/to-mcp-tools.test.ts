import { ToolSchema } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { catalogOf } from '../../test/helpers/catalog-of.js';
import { paymentsManifest, smallManifest } from '../../test/helpers/client-manifests.js';
import { toMCPTools } from './to-mcp-tools.js';

describe('toMCPTools', () => {
  const tools = catalogOf(
    smallManifest('shop', 'https://api.example.com', [
      { id: 'get_order', description: 'Reads an order.', method: 'GET', path: '/orders/{id}' },
      { id: 'head_order', description: 'Checks an order exists.', method: 'HEAD', path: '/orders/{id}' },
      { id: 'delete_order', description: 'Deletes an order.', method: 'DELETE', path: '/orders/{id}' },
      { id: 'put_order', description: 'Replaces an order.', method: 'PUT', path: '/orders/{id}' },
      { id: 'create_order', description: 'Creates an order.', method: 'POST', path: '/orders' },
      { id: 'charge', description: 'Charges a card.', method: 'POST', path: '/charges', idempotent: true },
    ]),
  );
  const byName = new Map(toMCPTools(tools).tools.map((tool) => [tool.name, tool]));

  it('gives every tool a shape the MCP SDK’s own Tool schema accepts', () => {
    for (const tool of byName.values()) expect(ToolSchema.safeParse(tool).success, tool.name).toBe(true);
    expect(byName.size).toBe(6);
  });

  it('marks GET and HEAD read-only and never destructive', () => {
    for (const name of ['get_order', 'head_order']) expect(byName.get(name)!.annotations).toMatchObject({ readOnlyHint: true, destructiveHint: false });
  });

  it('marks DELETE destructive, and a plain POST neither read-only nor destructive', () => {
    expect(byName.get('delete_order')!.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: true });
    expect(byName.get('create_order')!.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: false, idempotentHint: false });
  });

  it('takes idempotency from the method, or from the tool’s own declaration for a POST', () => {
    expect(byName.get('put_order')!.annotations.idempotentHint).toBe(true);
    expect(byName.get('charge')!.annotations.idempotentHint).toBe(true);
  });

  it('marks a tool that needs human approval destructive, and every tool open-world', () => {
    const payments = toMCPTools(catalogOf(paymentsManifest('https://api.example.com/v2'))).tools;
    const close = payments.find((tool) => tool.name === 'close_account')!;
    expect(close.annotations.destructiveHint).toBe(true);
    expect(payments.every((tool) => tool.annotations.openWorldHint)).toBe(true);
  });

  it('passes the input schema and description through unchanged, with the manifest id as title', () => {
    const [first] = tools;
    const exported = byName.get(first!.name)!;
    expect(exported.inputSchema).toBe(first!.inputSchema);
    expect(exported.description).toBe(first!.description);
    expect(exported.title).toBe(first!.id);
    expect(exported.inputSchema.type).toBe('object');
  });

  it('exports nothing for no tools', () => {
    expect(toMCPTools([])).toEqual({ tools: [] });
  });
});
