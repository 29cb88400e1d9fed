import type { CallEnvelope } from '../client/index.js';
import { isRecord } from '../internal/is-record.js';
import type { BridgeTool } from './list-bridge-tools.js';
import { shownFollowUps } from './shown-follow-ups.js';

/** The `_meta` key that marks a result's structured data as coming from the API, not from the bridge or the user. */
export const UNTRUSTED_META_KEY = 'dev.aicap/untrusted-data';

/** The `structuredContent` member holding the follow-ups a result allows (spec section 8.7); prefixed so it cannot be taken for an API field. */
export const FOLLOW_UPS_KEY = 'aicap_follow_ups';

/** A `tools/call` result (both protocol eras). @internal */
export interface BridgeCallToolResult {
  [key: string]: unknown;
  isError: boolean;
  content: Array<{ type: 'text'; text: string }>;
  structuredContent?: Record<string, unknown>;
  _meta?: Record<string, unknown>;
}

/**
 * Turns an envelope into a `tools/call` result. The text is the envelope's model text (redacted,
 * marked untrusted, capped). `structuredContent` is read back from that same text, never from the
 * raw `data`: so it carries exactly the redactions and the cap the text has, and is marked untrusted
 * in `_meta`. When the capped text no longer parses, a tool with an output schema answers an error
 * that says the call was made (so a model does not repeat a side effect), since MCP requires
 * structured content that matches the declared schema on success. @internal
 */
export function toCallToolResult(envelope: CallEnvelope, bridgeTool: BridgeTool): BridgeCallToolResult {
  const content = [{ type: 'text' as const, text: envelope.text }];
  if (!envelope.ok || bridgeTool.structure === 'none') return { isError: !envelope.ok, content };
  const structured = structuredFromText(envelope.text, bridgeTool);
  if (structured === undefined) {
    const performed = bridgeTool.tool.readOnly ? '' : ' The call itself succeeded: do not repeat it.';
    const why = envelope.meta.truncated ? 'is too long for the bridge to pass on as structured data (it was cut)' : 'does not have the declared shape';
    return { isError: true, content: [{ type: 'text', text: `The API answered HTTP ${envelope.status}, but the response ${why}.${performed} What it sent follows.` }, ...content] };
  }
  const followUps = shownFollowUps(envelope);
  if (followUps.length > 0) structured[FOLLOW_UPS_KEY] = followUps;
  return { isError: false, content, structuredContent: structured, _meta: { [UNTRUSTED_META_KEY]: { tool: bridgeTool.tool.name, origin: bridgeTool.tool.origin } } };
}

/** The JSON between the untrusted-data markers of a model text, or undefined when there is none or it does not parse (cut, or not JSON). @internal */
export function parseUntrustedJson(text: string): unknown {
  const start = text.indexOf('<untrusted-data ');
  const end = text.lastIndexOf('\n</untrusted-data>');
  if (start === -1 || end === -1) return undefined;
  const open = text.indexOf('>\n', start);
  if (open === -1 || open + 2 > end) return undefined;
  try {
    return JSON.parse(text.slice(open + 2, end)) as unknown;
  } catch {
    return undefined;
  }
}

function structuredFromText(text: string, bridgeTool: BridgeTool): Record<string, unknown> | undefined {
  const value = parseUntrustedJson(text);
  if (bridgeTool.structure === 'object') return isRecord(value) ? value : undefined;
  if (Array.isArray(value)) return { items: value };
  const itemsField = bridgeTool.tool.definition.returns?.pagination?.items_field;
  if (!isRecord(value) || itemsField === undefined) return undefined;
  const items = itemsField.split('.').reduce<unknown>((current, key) => (isRecord(current) ? current[key] : undefined), value);
  return Array.isArray(items) ? { items } : undefined;
}
