import { isTransient, describe, classifyStatus, protocolError, sendOnce, throwIfAborted } from './job-attempt.js';
import type { Attempt, AttemptContext } from './job-attempt.js';

/** Polls the status endpoint once as JSON and hands the status object to the follow loop. @internal */
export async function pollJobStatus(context: AttemptContext): Promise<Attempt> {
  const { input, state } = context;
  const response = await sendOnce(context, { method: 'GET', headers: { accept: 'application/json', 'cache-control': 'no-store' }, ...(input.signal ? { signal: input.signal } : {}) });
  if ('kind' in response) return response;
  const classified = classifyStatus(context, response, 'application/json');
  if (classified) {
    // A 204 to a JSON poll has no state to give: that is a broken status endpoint, not a pause.
    if (classified.kind === 'no-content') throw protocolError(context, 204, 'an empty 204 where the job status JSON was expected');
    return classified;
  }
  let text: string;
  try {
    text = await response.text();
  } catch (error) {
    throwIfAborted(input.signal, input.statusUrl);
    if (isTransient(error)) return { kind: 'unavailable', retryAfterInMs: undefined, detail: describe(error) };
    throw error;
  }
  let snapshot: unknown;
  try {
    snapshot = JSON.parse(text);
  } catch {
    throw protocolError(context, response.status, 'a status body that is not valid JSON');
  }
  if (typeof snapshot !== 'object' || snapshot === null || Array.isArray(snapshot)) throw protocolError(context, response.status, 'a status body that is not a JSON object');
  await context.onSnapshot(snapshot as Record<string, unknown>);
  return state.terminal ? { kind: 'terminal' } : { kind: 'continue' };
}
