import { invalidOptionError } from '../../errors/invalid-option-error.js';

/** Route templates of the job endpoints; `{job_id}` is replaced by the id. */
export interface JobRoutes {
  /** GET: the status as JSON, or as an SSE stream with `Accept: text/event-stream`. @default '/jobs/{job_id}' */
  status?: string;
  /** GET: the result once completed. @default '/jobs/{job_id}/result' */
  result?: string;
  /** POST: cancels the job. @default '/jobs/{job_id}/cancel' */
  cancel?: string;
  /** POST `{ "input_id": …, "answer": … }`: answers a `needs_input` event. @default '/jobs/{job_id}/respond' */
  respond?: string;
}

/** Which job endpoint a path is. */
export type JobEndpoint = keyof JobRoutes;

/** The compiled job routes. */
export interface CompiledJobRoutes {
  /** The templates, defaults filled in. */
  readonly templates: Readonly<Required<JobRoutes>>;
  /** The endpoint and the (percent-decoded) job id a path names, or `undefined` when it is no job path. */
  match(pathname: string): { endpoint: JobEndpoint; jobId: string } | undefined;
  /** The path of one endpoint of one job. */
  urlOf(endpoint: JobEndpoint, jobId: string): string;
}

/** Checks the route templates (each a path with exactly one `{job_id}`) and compiles them into matchers. */
export function compileJobRoutes(routes: JobRoutes = {}): CompiledJobRoutes {
  const templates: Required<JobRoutes> = {
    status: routes.status ?? '/jobs/{job_id}',
    result: routes.result ?? '/jobs/{job_id}/result',
    cancel: routes.cancel ?? '/jobs/{job_id}/cancel',
    respond: routes.respond ?? '/jobs/{job_id}/respond',
  };
  const compiled = (Object.entries(templates) as Array<[JobEndpoint, string]>).map(([endpoint, template]) => {
    if (!template.startsWith('/') || template.split('{job_id}').length !== 2) {
      throw invalidOptionError(`routes.${endpoint}`, 'a path with one {job_id} placeholder', template);
    }
    const [before, after] = template.split('{job_id}') as [string, string];
    return { endpoint, pattern: new RegExp(`^${escapeRegExp(before)}([^/]+)${escapeRegExp(after)}$`) };
  });
  return {
    templates,
    match(pathname) {
      for (const { endpoint, pattern } of compiled) {
        const found = pattern.exec(pathname);
        if (found) return { endpoint, jobId: decodeOrKeep(found[1] as string) };
      }
      return undefined;
    },
    urlOf: (endpoint, jobId) => templates[endpoint].replace('{job_id}', jobId),
  };
}

function decodeOrKeep(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    // A malformed escape cannot name a job we issued; it is answered like any unknown id.
    return segment;
  }
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
