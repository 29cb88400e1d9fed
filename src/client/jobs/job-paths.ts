/**
 * Where a job lives: its id in the start response (a dotted `job_id_field`, or a `Location` at
 * the declared status endpoint) and the URLs of its endpoints, with the job id and the tool's own
 * path placeholders filled in, never outside `service.base_url`.
 * @module
 */
import type { Tool } from '../../manifest/manifest-v0.js';
import { readPath } from '../call/resolve-pagination.js';
import type { ResolvedTool } from '../shapes/client-types.js';
import { JobError } from './job-error.js';

const PLACEHOLDER = /\{([^{}]+)\}/g;

/** The job's place: the tool and the start arguments its paths' placeholders take. @internal */
export interface JobLocation {
  resolved: ResolvedTool;
  jobId: string;
  /** Values of the tool's own path placeholders (from the start arguments). */
  pathArguments: Readonly<Record<string, string>>;
}

function temporalOf(resolved: ResolvedTool): Partial<NonNullable<Tool['temporal_behavior']>> {
  return (resolved.tool as Partial<Tool>).temporal_behavior ?? {};
}

/** The job id placeholder of job paths: the last segment of `job_id_field` (`{job_id}` by default). @internal */
export function jobIdPlaceholder(resolved: ResolvedTool): string {
  const field = temporalOf(resolved).job_id_field ?? 'job_id';
  return `{${field.split('.').at(-1) ?? field}}`;
}

/** The start arguments that fill the tool's own path placeholders, as text. @internal */
export function pathArgumentsOf(resolved: ResolvedTool, args: Readonly<Record<string, unknown>>): Record<string, string> {
  const values: Record<string, string> = {};
  for (const match of ((resolved.tool as Partial<Tool>).path ?? '').matchAll(PLACEHOLDER)) {
    const name = match[1];
    const value = name === undefined ? undefined : args[name];
    if (name !== undefined && (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean')) values[name] = String(value);
  }
  return values;
}

/** The job id of a start response body, at the (dotted) `job_id_field`. @internal */
export function jobIdFromBody(resolved: ResolvedTool, data: unknown): string | undefined {
  const value = readPath(data, temporalOf(resolved).job_id_field ?? 'job_id');
  return typeof value === 'string' || typeof value === 'number' ? String(value) : undefined;
}

/** `base_url` + a job path with its placeholders filled in; never outside `base_url`. @internal */
export function resolveJobPath(location: JobLocation, path: string): string {
  const { resolved, jobId } = location;
  const baseUrl = resolved.service.manifest.service.base_url;
  // Compared in the URL parser's spelling, so an uppercase scheme or host in `base_url` still matches.
  const base = new URL(baseUrl).href.replace(/\/$/, '');
  const idPlaceholder = jobIdPlaceholder(resolved);
  const filled = path.replace(PLACEHOLDER, (whole, name: string) => {
    if (whole === idPlaceholder) return encodeURIComponent(jobId);
    const value = location.pathArguments[name];
    if (value === undefined) {
      throw new JobError({
        reason: 'protocol',
        jobId,
        message: `The job path ${JSON.stringify(path)} of "${resolved.tool.id}" has the placeholder ${whole}, which is neither the job id (${idPlaceholder}) nor a path argument of the start call. Check the tool's \`temporal_behavior\`.`,
      });
    }
    return encodeURIComponent(value);
  });
  const url = new URL(base + filled);
  if (!url.href.startsWith(base)) {
    throw new JobError({ reason: 'protocol', jobId, message: `The job path ${JSON.stringify(path)} of "${resolved.tool.id}" resolves outside \`service.base_url\` ${base}.` });
  }
  return url.href;
}

/**
 * Reads the job id out of a `Location` that points at the declared status endpoint; `undefined`
 * when it points elsewhere (another origin included). A malformed percent-encoding is a
 * `JobError` `protocol`: the job started, but its id cannot be read. @internal
 */
export function jobIdFromLocation(location: string | undefined, resolved: ResolvedTool, pathArguments: Readonly<Record<string, string>>): string | undefined {
  if (location === undefined) return undefined;
  const statusEndpoint = temporalOf(resolved).status_endpoint;
  if (statusEndpoint === undefined) return undefined;
  const baseUrl = new URL(resolved.service.manifest.service.base_url);
  let url: URL;
  try {
    url = new URL(location, baseUrl);
  } catch {
    return undefined;
  }
  if (url.origin !== baseUrl.origin) return undefined;
  const escape = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const idPlaceholder = jobIdPlaceholder(resolved);
  const template = `${baseUrl.pathname.replace(/\/$/, '')}${statusEndpoint}`;
  let idGroups = 0;
  const pattern = template.split(PLACEHOLDER).map((part, index) => {
    // split() with a capturing group alternates literal text and placeholder names.
    if (index % 2 === 0) return escape(part);
    if (`{${part}}` === idPlaceholder) {
      idGroups++;
      return '(?<id>[^/]+)';
    }
    const value = pathArguments[part];
    return value === undefined ? '[^/]+' : escape(encodeURIComponent(value));
  });
  if (idGroups !== 1) return undefined;
  const encoded = new RegExp(`^${pattern.join('')}$`).exec(url.pathname)?.groups?.['id'];
  if (encoded === undefined) return undefined;
  try {
    return decodeURIComponent(encoded);
  } catch {
    throw new JobError({
      reason: 'protocol',
      message: `The start response of "${resolved.tool.id}" has a \`Location\` whose job id is not valid percent-encoding: ${JSON.stringify(location.slice(0, 200))}. The job may have started; its id cannot be read. Report it to the API's operators.`,
    });
  }
}

/** A job id goes into URL paths: it must stay one segment. @internal */
export function checkJobId(jobId: string, toolId: string): string {
  if (jobId === '' || jobId === '.' || jobId === '..' || jobId.length > 256) {
    throw new JobError({
      reason: 'protocol',
      message: `The start response of "${toolId}" gave an unusable job id ${JSON.stringify(jobId.slice(0, 64))} (empty, a dot segment, or over 256 characters).`,
    });
  }
  return jobId;
}
