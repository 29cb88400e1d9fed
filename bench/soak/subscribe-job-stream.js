// One SSE subscriber of the soak: follows a job's status stream over raw node:http (so a thousand of
// them in one process are a thousand sockets and nothing more), checks that event ids arrive once
// and in order, and reconnects with `Last-Event-ID` when the connection drops before the soak ends.
import { Agent, request } from 'node:http';
import { performance } from 'node:perf_hooks';
import { createParser } from 'eventsource-parser';

const HEADERS = { Authorization: 'Bearer demo-read', 'X-Agent-ID': 'soak', Accept: 'text/event-stream' };
const RECONNECT_DELAY_IN_MS = 250;
const TERMINAL = new Set(['completed', 'failed', 'cancelled']);
const CONNECT_TIMEOUT_IN_MS = 30_000;

/** One socket per subscriber, however many: the default agent would pool them. */
export const SUBSCRIBER_AGENT = new Agent({ keepAlive: false, maxSockets: Number.POSITIVE_INFINITY });

/**
 * @typedef {object} SubscriberTally What every subscriber adds to (shared by all of them).
 * @property {number} delivered Events received.
 * @property {number} reconnects Connections re-opened after a drop.
 * @property {number} errors Failed connections and non-200 answers.
 * @property {number} gaps Events whose id skipped ahead.
 * @property {number} duplicates Events whose id was not after the last one.
 * @property {string[]} errorSamples The first few error texts.
 * @property {(createdAtInMs: number, receivedAtInMs: number, job: number, id: number) => void} onEvent Called for every event that carries `soak_created_at_ms`.
 * @property {(job: number, status: string, code: string | undefined) => void} onJobEnded Called when a subscriber sees its job's terminal status.
 */

/**
 * Subscribes to `url` until `stop()` (which closes the connection for good). `opened` resolves once a
 * connection answered 200, and rejects when none did within `limits.maxReconnects` attempts.
 * @param {string} url
 * @param {SubscriberTally} tally
 * @param {{ job: number, maxReconnects: number, lastEventId?: number }} limits `job` labels the job in `tally.onEvent`; `lastEventId` starts after that event instead of replaying the job's history.
 */
export function subscribeJobStream(url, tally, limits) {
  let lastId = limits.lastEventId;
  let stopped = false;
  let finished = false;
  let current;
  let reconnectsLeft = limits.maxReconnects;
  const fail = (text) => {
    tally.errors++;
    if (tally.errorSamples.length < 5) tally.errorSamples.push(text);
  };
  const onEvent = (event) => {
    const receivedAtInMs = performance.timeOrigin + performance.now();
    tally.delivered++;
    const id = Number(event.id);
    if (lastId !== undefined && id !== lastId + 1) {
      if (id <= lastId) tally.duplicates++;
      else tally.gaps++;
    }
    if (lastId === undefined || id > lastId) lastId = id;
    const data = JSON.parse(event.data);
    if (typeof data.soak_created_at_ms === 'number') tally.onEvent(data.soak_created_at_ms, receivedAtInMs, limits.job, id);
    if (event.event === 'status' && TERMINAL.has(data.status)) {
      // A finished job's stream ends for good: reconnecting would only replay it.
      finished = true;
      tally.onJobEnded(limits.job, data.status, data.error?.code);
    }
  };
  let settle;
  const settled = new Promise((resolve, reject) => (settle = { resolve, reject }));
  // A failed or dropped connection is retried (bounded) whether or not it ever opened; the promise
  // settles on the first open, or when the retries run out.
  const connect = () => {
    const headers = lastId === undefined ? HEADERS : { ...HEADERS, 'Last-Event-ID': String(lastId) };
    const parser = createParser({ onEvent });
    let answered = false;
    let ended = false;
    // Called by whichever of the request's error and the response's close comes first.
    const dropped = () => {
      if (ended || stopped) return;
      ended = true;
      if (finished) return;
      if (reconnectsLeft-- <= 0) {
        fail(`${url}: gave up after ${limits.maxReconnects} reconnects`);
        settle.reject(new Error(`${url}: no lasting connection after ${limits.maxReconnects} attempts (${tally.errorSamples.join('; ')})`));
        return;
      }
      tally.reconnects++;
      setTimeout(() => !stopped && connect(), RECONNECT_DELAY_IN_MS);
    };
    const outgoing = request(url, { headers, agent: SUBSCRIBER_AGENT }, (response) => {
      answered = true;
      if (response.statusCode !== 200) {
        let body = '';
        response.setEncoding('utf8');
        response.on('data', (chunk) => (body += chunk.slice(0, 300 - body.length)));
        response.once('end', () => {
          fail(`${url}: HTTP ${response.statusCode} ${body}`);
          dropped();
        });
        return;
      }
      response.setEncoding('utf8');
      response.on('data', (chunk) => parser.feed(chunk));
      response.once('close', dropped);
      settle.resolve();
    });
    current = outgoing;
    outgoing.setTimeout(CONNECT_TIMEOUT_IN_MS, () => {
      if (!answered) outgoing.destroy(new Error(`no answer within ${CONNECT_TIMEOUT_IN_MS} ms`));
    });
    outgoing.once('error', (error) => {
      if (stopped) return;
      fail(`${url}: ${error.message}`);
      dropped();
    });
    outgoing.end();
  };
  connect();
  return {
    opened: settled,
    stop() {
      stopped = true;
      current?.destroy();
    },
  };
}
