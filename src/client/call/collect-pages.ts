import { toCallEnvelope, type CallEnvelope, type PageState } from './call-envelope.js';
import type { CallRuntime } from './call-runtime.js';
import type { CallOptions } from './client-call-options.js';
import { exchangeModelText } from './envelope-from-error.js';
import type { PreparedCall } from './prepare-call.js';
import { publicPage, walkPages, type WalkedPage } from './walk-pages.js';

function itemKey(item: unknown, idField: string | undefined): string | undefined {
  if (item === null || typeof item !== 'object') return undefined;
  const record = item as Record<string, unknown>;
  const id = record['id'] ?? (idField === undefined ? undefined : record[idField]);
  return typeof id === 'string' || typeof id === 'number' ? `${typeof id}:${id}` : undefined;
}

/**
 * `allPages`: walks every page and returns the items together, de-duplicated by id, bounded by
 * `maxItems`. When items are left out, `page.next` resumes at the page that still had some. A first
 * page without items where the plan expects them (or with no plan, and not an array) comes back as
 * it is, `data` its body: never an empty list passed off as the whole result. @internal
 */
export async function collectPages(runtime: CallRuntime, prepared: PreparedCall, callOptions: CallOptions): Promise<CallEnvelope> {
  const returns = prepared.shape.returns;
  const maxItems = Math.min(callOptions.maxItems ?? runtime.defaultMaxItems, returns?.max_items ?? Number.POSITIVE_INFINITY);
  const itemSchema = returns?.item_schema;
  const idField = itemSchema !== undefined && typeof itemSchema === 'object' && !('type' in itemSchema) ? Object.keys(itemSchema).find((name) => /(?:_id|Id)$/.test(name)) : undefined;
  const items: unknown[] = [];
  const keys = new Set<string>();
  let attempts = 0;
  let last: WalkedPage | undefined;
  let page: PageState | undefined;
  for await (const current of walkPages(runtime, prepared, callOptions, true)) {
    if (last === undefined && current.ok && current.items === undefined) return publicPage({ ...current, meta: { ...current.meta, durationInMs: runtime.dependencies.now() - prepared.startedInMs } });
    last = current;
    attempts += current.meta.attempts;
    page = current.page;
    // A repeated page's items were all received already (the walk stops on it).
    const pageItems = current.stop === 'repeated_page' ? [] : (current.items ?? []);
    let taken = 0;
    for (const item of pageItems) {
      if (items.length >= maxItems) break;
      taken++;
      const key = itemKey(item, idField);
      if (key !== undefined) {
        if (keys.has(key)) continue;
        keys.add(key);
      }
      items.push(item);
    }
    if (items.length >= maxItems && (taken < pageItems.length || (current.page !== undefined && !current.page.complete))) {
      // Items of this page were left out: resuming must fetch this page again, not the next one,
      // so that nothing is silently dropped (the first page has no cursor: start over).
      const next = taken < pageItems.length ? (current.requestedWith ?? null) : (current.page?.next ?? null);
      page = { next, complete: false, stopReason: 'item_limit' };
      break;
    }
  }
  const final = last!;
  // With items collected, the model sees them (and the error, if a page failed); without, the error.
  const { text, truncated } =
    final.ok || items.length > 0
      ? exchangeModelText({ toolId: prepared.toolId, redactor: prepared.redactor, content: JSON.stringify(items), error: final.error, maxTextLength: runtime.maxTextLength })
      : { text: final.text, truncated: final.meta.truncated };
  return toCallEnvelope({
    ok: final.ok,
    status: final.status,
    data: items,
    items,
    ...(page === undefined ? {} : { page }),
    error: final.error,
    text,
    meta: { toolId: prepared.toolId, attempts, durationInMs: runtime.dependencies.now() - prepared.startedInMs, truncated },
  });
}
