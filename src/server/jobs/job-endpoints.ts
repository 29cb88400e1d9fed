import type { JobEventStore, JobRecord } from '../job-event-store.js';
import { jobJson, jobProblem } from './job-answers.js';
import { isTerminal, withoutEventId } from './job-snapshot.js';
import { readJsonBody } from './read-json-body.js';

/** The result endpoint: 200 with the result once completed, 409 naming the status before. */
export function answerJobResult(jobId: string, found: JobRecord): Response {
  if (found.snapshot.status !== 'completed') {
    return jobProblem(409, 'Job Not Completed', 'job_not_completed', `Job ${jobId} is ${found.snapshot.status}; the result exists once it is completed.`, {}, { job_status: found.snapshot.status });
  }
  return jobJson(200, found.result ?? null);
}

/** The cancel endpoint: marks the job `cancelled` (its runner's signal aborts); 409 once it is terminal. */
export async function cancelJob(store: JobEventStore, jobId: string): Promise<Response> {
  const updated = await store.update(jobId, (record) => {
    if (isTerminal(record.snapshot.status)) return undefined;
    const { pending_input: _pending, ...snapshot } = record.snapshot;
    const next: JobRecord = { ...record, snapshot: { ...snapshot, status: 'cancelled', updated_at: new Date().toISOString() } };
    return { record: next, events: [{ event: 'status', data: withoutEventId(next.snapshot) }] };
  });
  if (!updated) {
    const record = await store.get(jobId);
    return jobProblem(409, 'Job Already Finished', 'job_finished', `Job ${jobId} is ${record?.snapshot.status ?? 'gone'} and cannot be cancelled.`);
  }
  return jobJson(200, updated.record.snapshot);
}

/**
 * The resolution endpoint: checks `{ "input_id"?, "answer" }` against the pending question (its
 * options when it has any) and records the answer, which the job reads through the store.
 */
export async function respondToJob(store: JobEventStore, request: Request, jobId: string, found: JobRecord, maxBodyBytes: number): Promise<Response> {
  const body = await readJsonBody(request, maxBodyBytes);
  if (body instanceof Response) return body;
  if (typeof body !== 'object' || body === null || Array.isArray(body) || !Object.hasOwn(body, 'answer')) {
    return jobProblem(400, 'Bad Request', 'invalid_answer', 'The body must be a JSON object { "input_id": "…", "answer": … }.');
  }
  const { input_id: inputId, answer } = body as { input_id?: unknown; answer: unknown };
  const pending = found.snapshot.pending_input;
  if (found.snapshot.status !== 'needs_input' || !pending || (inputId !== undefined && inputId !== pending.input_id)) {
    return jobProblem(409, 'No Pending Input', 'no_pending_input', `Job ${jobId} is not waiting for ${inputId === undefined ? 'input' : `input ${JSON.stringify(String(inputId).slice(0, 64))}`}.`);
  }
  if (pending.options.length > 0 && !pending.options.some((option) => JSON.stringify(option) === JSON.stringify(answer))) {
    return jobProblem(400, 'Bad Request', 'invalid_answer', `The answer must be one of ${JSON.stringify(pending.options)}.`);
  }
  const updated = await store.update(jobId, (record) => {
    if (record.snapshot.status !== 'needs_input' || record.snapshot.pending_input?.input_id !== pending.input_id) return undefined;
    const { pending_input: _pending, ...snapshot } = record.snapshot;
    const next: JobRecord = { ...record, answer: { input_id: pending.input_id, value: answer }, snapshot: { ...snapshot, status: 'running', updated_at: new Date().toISOString() } };
    return { record: next, events: [{ event: 'status', data: withoutEventId(next.snapshot) }] };
  });
  if (!updated) return jobProblem(409, 'No Pending Input', 'no_pending_input', `Job ${jobId} is no longer waiting for input ${pending.input_id}.`);
  return jobJson(200, updated.record.snapshot);
}
