import { createHash, randomUUID } from 'node:crypto';
import { AicapError } from '../../errors/aicap-error.js';
import { redactUrl } from '../../internal/http/redact-url.js';
import { toCallEnvelope, type CallEnvelope, type CallMeta, type PageState, type PageStopReason } from './call-envelope.js';
import type { CallRuntime } from './call-runtime.js';
import type { CallOptions } from './client-call-options.js';
import { envelopeFromError, exchangeModelText } from './envelope-from-error.js';
import type { ToolRequest } from './build-tool-request.js';
import { approveAndCount, buildCallRequest, type PreparedCall } from './prepare-call.js';
import { announcesMore, declaredPlan, readPage, resolvePagination, type PageReading, type PaginationPlan } from './resolve-pagination.js';
import { sendCallRequest } from './send-call-request.js';

/** A page as the walk yields it, with what only the walk knows. @internal */
export type WalkedPage = CallEnvelope & {
  /** Why the walk stops after this page. */
  stop?: PageStopReason;
  /** The cursor, page number, offset or URL this page was requested with (absent for the first page). */
  requestedWith?: string | number;
};

/** Strips what only the walk knows from a page. @internal */
export function publicPage(page: WalkedPage): CallEnvelope {
  const { stop: _stop, requestedWith: _requestedWith, ...rest } = page;
  return rest;
}

/** Where the walk starts: the arguments, or a next link of an earlier page (same origin only). */
function startingPoint(prepared: PreparedCall, plan: PaginationPlan | undefined, resume: string | number | undefined): { args: Readonly<Record<string, unknown>>; linkUrl: URL | undefined } {
  if (resume === undefined) return { args: prepared.args, linkUrl: undefined };
  if (plan?.style === 'link' || (typeof resume === 'string' && /^https?:\/\//i.test(resume) && plan === undefined)) {
    let linkUrl: URL;
    try {
      linkUrl = new URL(String(resume));
    } catch {
      throw new AicapError(
        'INVALID_OPTION',
        `\`resumeFrom\` of "${prepared.toolId}" is not an absolute URL: ${JSON.stringify(String(resume).slice(0, 200))}. Pass \`envelope.page.next\` as it was returned.`,
      );
    }
    const baseOrigin = new URL(prepared.manifest.service.base_url).origin;
    // The walk's credentials belong to this service: a URL elsewhere would receive them, and its
    // answer would be shown as this tool's data.
    if (linkUrl.origin !== baseOrigin) {
      throw new AicapError(
        'ORIGIN_MISMATCH',
        `\`resumeFrom\` of "${prepared.toolId}" points at ${linkUrl.origin}, not the tool's origin ${baseOrigin}: GET ${redactUrl(linkUrl)}. Nothing was sent; a walk only continues on its own service.`,
      );
    }
    return { args: prepared.args, linkUrl };
  }
  if (plan?.parameter !== undefined) return { args: { ...prepared.args, [plan.parameter]: resume }, linkUrl: undefined };
  throw new AicapError('INVALID_OPTION', `\`resumeFrom\` was given but "${prepared.toolId}" declares no pagination parameter to put it in.`);
}

/**
 * Walks the pages of a prepared call. Yields one envelope per page (with `stop` and `requestedWith`
 * only when `followPages`: a walk that stops after the first page yields a plain envelope, a new
 * object the caller may finish in place); a page that fails ends the
 * walk with `page.next` pointing at the page that failed, so it can be resumed. A next link to
 * another origin ends the walk with `stopReason: 'cross_origin_next'` and `page.next: null`: it is
 * never followed nor handed out for `resumeFrom`. A page whose body repeats an earlier page's ends
 * the walk with `repeated_page` (a server ignoring the page parameter would otherwise be asked
 * `maxPages` times for the same items); a walk also ends after `pagination.maxTimeInMs`. A page
 * that says more exist without saying how to reach them (no plan applies, or a has-more flag
 * without a next cursor), or whose JSON cannot be read, ends it with `unrecognized_pagination`, its data as it came. Each page
 * after the first of a consequential
 * tool (not GET or HEAD) is a new action: approved and counted against the budget like a call.
 * @internal
 */
export async function* walkPages(runtime: CallRuntime, prepared: PreparedCall, callOptions: CallOptions, followPages: boolean): AsyncGenerator<WalkedPage> {
  const { now } = runtime.dependencies;
  let plan: PaginationPlan | undefined = prepared.shape.returns?.pagination === undefined ? undefined : declaredPlan(prepared.shape.returns.pagination);
  const resume = callOptions.resumeFrom;
  let { args, linkUrl } = startingPoint(prepared, plan, resume);
  const seen = new Set<string>();
  const seenBodies = new Set<string>();
  const walkStarted = now();
  // Only a next link needs it: a call that does not page parses no more URLs than it sends.
  const baseOrigin = (): string => new URL(prepared.manifest.service.base_url).origin;
  const firstPage = Number((prepared.shape.parameters?.[plan?.parameter ?? 'page']?.default as number | undefined) ?? 1);
  for (let pageNumber = 1; ; pageNumber++) {
    const pageStarted = now();
    if (pageNumber > 1 && prepared.consequential) {
      const pageUrl = linkUrl?.href ?? buildCallRequest(prepared, args, undefined).url.href;
      const refused = await refusedPage(
        runtime,
        prepared,
        args,
        callOptions,
        pageUrl,
        linkUrl?.href ?? (plan?.parameter === undefined ? undefined : (args[plan.parameter] as string | number | undefined)),
      );
      if (refused !== undefined) {
        yield refused;
        return;
      }
    }
    let request: ToolRequest;
    if (pageNumber === 1 && args === prepared.args && prepared.firstRequest !== undefined) {
      request = prepared.firstRequest;
    } else {
      const idempotencyKey = prepared.idempotencyHeaderName === undefined ? undefined : pageNumber === 1 ? (callOptions.idempotencyKey ?? randomUUID()) : randomUUID();
      request = buildCallRequest(prepared, args, idempotencyKey);
    }
    if (linkUrl !== undefined) {
      request = { ...request, method: 'GET', url: linkUrl, displayUrl: new URL(redactUrl(linkUrl)), body: undefined };
      request.headers.delete('content-type');
    }
    const sent = await sendCallRequest(runtime, prepared, request, callOptions.signal);
    const outcome = runtime.dependencies.afterExchange === undefined ? sent : await runtime.dependencies.afterExchange(prepared.resolved, sent);
    // What the server echoed of a secret or a redacted argument stays out of the envelope.
    const data = prepared.redactor.data(outcome.body?.data, outcome.body?.text);
    const linkHeader = outcome.headers?.get('link') ?? null;
    if (outcome.ok && plan === undefined) plan = resolvePagination(prepared.shape.returns, prepared.shape.parameters, data, linkHeader, request.url);
    const reading = plan === undefined || !outcome.ok ? undefined : readPage({ plan, body: data, linkHeader, responseUrl: request.url, args, firstPage });
    // What this page was requested with; a first page without one starts at the style's origin.
    const current =
      linkUrl?.href ??
      (plan?.parameter === undefined ? undefined : ((args[plan.parameter] as string | number | undefined) ?? (plan.style === 'page' ? firstPage : plan.style === 'offset' ? 0 : undefined)));

    let page: PageState | undefined;
    let stop: PageStopReason | undefined;
    let nextArgs: Record<string, unknown> | undefined;
    let nextLink: URL | undefined;
    if (!outcome.ok) {
      if (pageNumber > 1 || resume !== undefined) {
        stop = 'error';
        page = { next: current ?? null, complete: false, stopReason: stop };
      }
    } else if (plan !== undefined && outcome.body?.parseError !== undefined) {
      // A body declared JSON that cannot be read (cut short, or refused by the strict parser) says
      // nothing about the pages after it: its text as it came, the walk never called complete.
      stop = 'unrecognized_pagination';
      page = { next: null, complete: false, stopReason: stop };
    } else if (plan !== undefined && reading !== undefined) {
      const next = reading.next;
      page = { next: next ?? null, complete: next === undefined && !reading.moreAnnounced };
      if (next === undefined && reading.moreAnnounced) {
        stop = 'unrecognized_pagination';
        page = { next: null, complete: false, stopReason: stop };
      } else if (next !== undefined && plan.style === 'link' && new URL(String(next)).origin !== baseOrigin()) {
        // Another origin would receive this service's credentials and could be anyone.
        stop = 'cross_origin_next';
        page = { next: null, complete: false, stopReason: stop };
      } else if (next !== undefined && followPages) {
        const key = String(next);
        // Only a walk that goes on compares bodies: a single call hashes nothing.
        const bodyKey = createHash('sha256')
          .update(outcome.body?.text ?? '')
          .digest('base64');
        if (plan.style === 'link') nextLink = new URL(String(next));
        else if (plan.parameter !== undefined) nextArgs = { ...args, [plan.parameter]: next };
        stop = repeatedStop(seen, key, current, seenBodies, pageNumber > 1 ? bodyKey : undefined, reading);
        seen.add(key);
        seenBodies.add(bodyKey);
        if (stop === undefined && pageNumber >= runtime.maxPages) stop = 'request_limit';
        if (stop === undefined && now() - walkStarted >= runtime.maxWalkTimeInMs) stop = 'time_limit';
        if (stop !== undefined) page = { next: stop === 'repeated_cursor' || stop === 'repeated_page' ? null : next, complete: false, stopReason: stop };
      }
    } else if (outcome.ok && plan === undefined && followPages && announcesMore(data)) {
      // More pages exist but nothing says how to reach them: this page's data, said to be partial.
      stop = 'unrecognized_pagination';
      page = { next: null, complete: false, stopReason: stop };
    }
    const items = reading?.items ?? (Array.isArray(data) ? data : undefined);
    const location = outcome.headers?.get('location');
    const { text, truncated } = exchangeModelText({ toolId: prepared.toolId, redactor: prepared.redactor, content: outcome.body?.text, error: outcome.error, maxTextLength: runtime.maxTextLength });
    const meta: CallMeta = { toolId: prepared.toolId, attempts: outcome.attempts, durationInMs: now() - pageStarted, truncated };
    if (location !== null && location !== undefined) meta.location = location;
    // `toCallEnvelope` leaves out what is undefined: no conditional spreads to build here.
    const envelope: WalkedPage = toCallEnvelope({ ok: outcome.ok, status: outcome.status, data, items, page, error: outcome.error, text, meta });
    // Only a walk that goes on reads these; a single call returns the page as it is (no copy without them).
    if (followPages && stop !== undefined) envelope.stop = stop;
    if (followPages && current !== undefined) envelope.requestedWith = current;
    yield envelope;
    if (!outcome.ok || !followPages || stop !== undefined || page === undefined || page.complete) return;
    if (nextLink !== undefined) linkUrl = nextLink;
    else if (nextArgs !== undefined) args = nextArgs;
    else return;
  }
}

/**
 * Whether the walk must stop before the next page: its cursor or URL was already requested, or
 * this page (after the first) repeats an earlier page's body byte for byte.
 */
function repeatedStop(
  seen: ReadonlySet<string>,
  key: string,
  current: string | number | undefined,
  seenBodies: ReadonlySet<string>,
  bodyKey: string | undefined,
  reading: PageReading,
): PageStopReason | undefined {
  if (seen.has(key) || key === String(current)) return 'repeated_cursor';
  // An empty page repeats trivially and ends the walk by itself.
  if (bodyKey !== undefined && seenBodies.has(bodyKey) && (reading.items?.length ?? 0) > 0) return 'repeated_page';
  return undefined;
}

/** Approves and counts one more page (requested at `url`) of a consequential walk; the refusal as a resumable page. */
async function refusedPage(
  runtime: CallRuntime,
  prepared: PreparedCall,
  args: Readonly<Record<string, unknown>>,
  callOptions: CallOptions,
  url: string,
  cursor: string | number | undefined,
): Promise<WalkedPage | undefined> {
  const startedInMs = runtime.dependencies.now();
  try {
    await approveAndCount(runtime, prepared, args, callOptions, url);
    return undefined;
  } catch (error) {
    const envelope = envelopeFromError({ toolId: prepared.toolId, error, redactor: prepared.redactor, startedInMs, now: runtime.dependencies.now(), maxTextLength: runtime.maxTextLength });
    return { ...envelope, page: { next: cursor ?? null, complete: false, stopReason: 'error' }, stop: 'error', ...(cursor === undefined ? {} : { requestedWith: cursor }) };
  }
}
