import { describe, expect, it } from 'vitest';
import type { CallEnvelope } from '../client/call/call-envelope.js';
import { formatModelText } from '../client/call/format-model-text.js';
import type { BridgeTool } from './list-bridge-tools.js';
import { parseUntrustedJson, toCallToolResult } from './to-call-tool-result.js';

function envelope(body: unknown, options: { truncated?: boolean; maxLength?: number } = {}): CallEnvelope {
  const { text, truncated } = formatModelText({ toolId: 'tool', content: JSON.stringify(body), maxLength: options.maxLength ?? 20_000 });
  return { ok: true, status: 200, data: body, text, meta: { truncated: options.truncated ?? truncated } } as unknown as CallEnvelope;
}

function bridgeTool(structure: BridgeTool['structure'], readOnly = true, itemsField?: string): BridgeTool {
  return {
    structure,
    definition: { name: 'tool', title: 'Tool' } as BridgeTool['definition'],
    tool: {
      name: 'tool',
      origin: 'https://api.example',
      readOnly,
      definition: { returns: itemsField ? { type: 'array', pagination: { style: 'page', items_field: itemsField } } : {} },
    } as unknown as BridgeTool['tool'],
  };
}

describe('toCallToolResult', () => {
  it('reads structured content back from the model text, so it carries the text redactions, and marks it untrusted', () => {
    const result = toCallToolResult(envelope({ account: '[REDACTED]', total: 3 }), bridgeTool('object'));
    expect(result.structuredContent).toEqual({ account: '[REDACTED]', total: 3 });
    expect(result._meta?.['dev.aicap/untrusted-data']).toEqual({ tool: 'tool', origin: 'https://api.example' });
  });

  it('wraps array results, and the items of a paginated body, as { items }', () => {
    expect(toCallToolResult(envelope([1, 2]), bridgeTool('items')).structuredContent).toEqual({ items: [1, 2] });
    expect(toCallToolResult(envelope({ page: { rows: [1] } }), bridgeTool('items', true, 'page.rows')).structuredContent).toEqual({ items: [1] });
  });

  it('answers an error that says the call succeeded when the capped text no longer parses', () => {
    const result = toCallToolResult(envelope({ long: 'x'.repeat(100) }, { maxLength: 20 }), bridgeTool('object', false));
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toBeUndefined();
    expect(result.content[0]!.text).toMatch(/cut.*do not repeat it/);
  });

  it('finds no JSON outside the markers or in cut text', () => {
    expect(parseUntrustedJson('no markers')).toBeUndefined();
    expect(parseUntrustedJson('<untrusted-data tool="t">\n{"a":\n</untrusted-data>')).toBeUndefined();
    expect(parseUntrustedJson('Notice\n<untrusted-data tool="t">\n{"a":1}\n</untrusted-data>')).toEqual({ a: 1 });
  });
});
