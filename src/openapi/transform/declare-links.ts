import type { ValidationIssue } from '../../errors/validation-issue.js';
import { fromPointer } from '../../internal/json-pointer.js';
import { checkLinks } from '../../manifest/check-links.js';
import type { Link, Manifest, Resource, Tool } from '../../manifest/manifest-v0.js';
import { isRecord, nonEmptyString, type TransformContext } from './transform-context.js';

/** One mapped operation, as {@link declareLinks} needs it. */
export interface LinkSourceOperation {
  /** The id the operation ended up with in the manifest (a tool's, or a resource's). */
  id: string;
  /** Path template. */
  path: string;
  /** HTTP method, upper case. */
  method: string;
  /** The Operation Object. */
  operation: Record<string, unknown>;
  /** URL of the document holding it, the base of its `$ref`s. */
  documentUrl: string;
}

// The manifest's limits (schema `links.maxItems`, `parameters.maxProperties`).
const MAX_LINKS = 50;
const MAX_LINK_PARAMETERS = 50;

/**
 * Turns the OpenAPI Link Objects of each operation's success responses into manifest `links`
 * (spec section 7.20). The target is named by `operationId` or by a local `operationRef`
 * (`#/paths/~1pets~1{id}/get`); `$response.body#/…` becomes `$result#/…`, and `$request.path.x`,
 * `$request.query.x`, `$request.header.x` and `$request.body#/…` become `$arguments#/…` when the
 * source has that parameter. Whatever cannot be expressed (a remote `operationRef`, a constant, a
 * response header, a `requestBody`, a target parameter the tool lacks, a pointer its `returns`
 * rules out) is reported as a `link.unsupported` warning naming the operation and the link, never
 * dropped silently. Runs after resources are split off, so resources get their links too.
 * `imported` adds Link Objects found elsewhere (an Arazzo document's steps), mapped the same way.
 */
/** A Link Object found outside the operation (an Arazzo workflow's step pair), attached to the operation it starts from. */
export interface ImportedLink {
  /** The source operation: its `operationId`, or `METHOD /path`. */
  from: string;
  /** An OpenAPI Link Object. */
  link: Record<string, unknown>;
  /** Where it was found, for findings. */
  where: string;
}

export function declareLinks(manifest: Manifest, sources: readonly LinkSourceOperation[], context: TransformContext, imported: readonly ImportedLink[] = []): void {
  const byOperationId = new Map<string, LinkSourceOperation>();
  const byLocation = new Map<string, LinkSourceOperation>();
  for (const source of sources) {
    const operationId = nonEmptyString(source.operation['operationId']);
    if (operationId !== undefined) byOperationId.set(operationId, source);
    byLocation.set(`${source.method} ${source.path}`, source);
  }
  const entries = new Map<string, Tool | Resource>();
  for (const entry of [...manifest.tools, ...(manifest.resources ?? [])]) entries.set(entry.id, entry);
  for (const source of sources) {
    const entry = entries.get(source.id);
    if (entry === undefined) continue;
    const links: Link[] = [];
    const operationId = nonEmptyString(source.operation['operationId']);
    const attached = imported.filter((candidate) => candidate.from === operationId || candidate.from === `${source.method} ${source.path}`);
    for (const { link, where } of [...linkObjects(source, context), ...attached]) {
      const declared = toManifestLink({ link, where, source, entry, entries, byOperationId, byLocation }, context);
      if (declared !== undefined && links.length < MAX_LINKS) links.push(declared);
      else if (declared !== undefined) context.warn({ code: 'link.unsupported', where, message: `the operation has more than ${MAX_LINKS} links; this one was left out` });
    }
    if (links.length > 0) keepValidLinks(entry, links, { manifest, entries, where: `${source.method} ${source.path}` }, context);
  }
}

function linkObjects(source: LinkSourceOperation, context: TransformContext): Array<{ link: Record<string, unknown>; where: string }> {
  const found: Array<{ link: Record<string, unknown>; where: string }> = [];
  const responses = isRecord(source.operation['responses']) ? source.operation['responses'] : {};
  for (const [status, value] of Object.entries(responses)) {
    if (!/^2(?:\d\d|XX)$/i.test(status)) continue;
    const response = context.resolver.follow(value, source.documentUrl, { loop: 'empty' });
    if (!isRecord(response.value) || !isRecord(response.value['links'])) continue;
    for (const [name, linkValue] of Object.entries(response.value['links'])) {
      const link = context.resolver.follow(linkValue, response.documentUrl, { loop: 'empty' }).value;
      if (isRecord(link)) found.push({ link, where: `${source.method} ${source.path} responses.${status}.links.${name}` });
    }
  }
  return found;
}

interface LinkInput {
  link: Record<string, unknown>;
  where: string;
  source: LinkSourceOperation;
  entry: Tool | Resource;
  entries: ReadonlyMap<string, Tool | Resource>;
  byOperationId: ReadonlyMap<string, LinkSourceOperation>;
  byLocation: ReadonlyMap<string, LinkSourceOperation>;
}

function toManifestLink(input: LinkInput, context: TransformContext): Link | undefined {
  const { link, where } = input;
  const target = findTarget(input);
  if (typeof target === 'string') {
    context.warn({ code: 'link.unsupported', where, message: `${target}; the link was left out` });
    return undefined;
  }
  const targetEntry = input.entries.get(target.id);
  if (targetEntry === undefined) return undefined;
  const targetParameters = targetEntry.parameters ?? {};
  const parameters: Record<string, string> = {};
  const skipped: string[] = [];
  for (const [rawName, value] of Object.entries(isRecord(link['parameters']) ? link['parameters'] : {})) {
    // A name may be qualified by its location (`path.id`) when two parameters share a name.
    const name = Object.hasOwn(targetParameters, rawName) ? rawName : rawName.replace(/^(?:path|query|header|cookie)\./, '');
    const expression = typeof value === 'string' ? toLinkExpression(value, input.entry) : undefined;
    if (!Object.hasOwn(targetParameters, name)) skipped.push(`${JSON.stringify(rawName)} (no such parameter of ${target.id})`);
    else if (expression === undefined) skipped.push(`${JSON.stringify(rawName)} (${JSON.stringify(value)} is not a body, path, query, header or argument expression aicap can evaluate)`);
    else if (Object.keys(parameters).length < MAX_LINK_PARAMETERS) parameters[name] = expression;
  }
  if (link['requestBody'] !== undefined) skipped.push('requestBody (a link fills parameters only)');
  if (skipped.length > 0) {
    const kept = Object.keys(parameters).length > 0 ? 'the rest of the link was kept' : 'the link was left out';
    context.warn({ code: 'link.unsupported', where, message: `cannot map ${skipped.slice(0, 5).join(', ')}${skipped.length > 5 ? ` and ${skipped.length - 5} more` : ''}; ${kept}` });
  }
  if (Object.keys(parameters).length === 0) return undefined;
  const description = nonEmptyString(link['description'])?.slice(0, 8192);
  return { tool: target.id, parameters, ...(description === undefined ? {} : { description }) };
}

/** The operation a link names, or why it cannot be found. */
function findTarget(input: LinkInput): LinkSourceOperation | string {
  const operationId = nonEmptyString(input.link['operationId']);
  if (operationId !== undefined) return input.byOperationId.get(operationId) ?? `operationId ${JSON.stringify(operationId)} names no mapped operation`;
  const reference = nonEmptyString(input.link['operationRef']);
  if (reference === undefined) return 'it has neither operationId nor operationRef';
  const tokens = reference.startsWith('#/paths/') ? fromPointer(reference.slice(1)) : undefined;
  if (tokens === undefined || tokens.length !== 3) return `operationRef ${JSON.stringify(reference.slice(0, 200))} is not a local #/paths/<path>/<method> reference`;
  const [, path, method] = tokens;
  return input.byLocation.get(`${String(method).toUpperCase()} ${path}`) ?? `operationRef ${JSON.stringify(reference.slice(0, 200))} names no mapped operation`;
}

/** An OpenAPI runtime expression (optionally in braces) as a link expression of the manifest, or undefined. */
function toLinkExpression(value: string, entry: Tool | Resource): string | undefined {
  const text = /^\{(\$[^{}]+)\}$/.exec(value)?.[1] ?? value;
  const body = /^\$response\.body(#.*)?$/.exec(text);
  if (body) return `$result${body[1] ?? '#'}`;
  const parameters = entry.parameters ?? {};
  const named = /^\$request\.(?:path|query|header)\.(.+)$/.exec(text);
  if (named) {
    const name = named[1] ?? '';
    const found = Object.keys(parameters).find((candidate) => candidate === name || candidate.toLowerCase() === name.toLowerCase());
    return found === undefined ? undefined : `$arguments#/${found.replaceAll('~', '~0').replaceAll('/', '~1')}`;
  }
  const requestBody = /^\$request\.body(#.*)?$/.exec(text);
  if (requestBody) {
    const pointer = requestBody[1]?.slice(1) ?? '';
    const bodyParameter = (entry as Partial<Tool>).body_parameter;
    if (bodyParameter !== undefined) return `$arguments#/${bodyParameter.replaceAll('~', '~0').replaceAll('/', '~1')}${pointer}`;
    const first = fromPointer(pointer)[0];
    return first !== undefined && Object.hasOwn(parameters, first) ? `$arguments#${pointer}` : undefined;
  }
  return undefined;
}

/** Sets the entry's links, less those the manifest's own checks refuse (each reported). */
function keepValidLinks(entry: Tool | Resource, links: Link[], input: { manifest: Manifest; entries: ReadonlyMap<string, Tool | Resource>; where: string }, context: TransformContext): void {
  const issues: ValidationIssue[] = [];
  checkLinks(
    { ...entry, links } as unknown as Record<string, unknown>,
    '',
    { tools: input.entries as ReadonlyMap<string, unknown> as ReadonlyMap<string, Record<string, unknown>>, definitions: input.manifest.definitions as Record<string, unknown> | undefined },
    issues,
  );
  const refused = new Set<number>();
  for (const issue of issues) {
    if (issue.severity !== 'error') continue;
    const index = Number(issue.pointer.split('/')[2]);
    refused.add(index);
    context.warn({ code: 'link.unsupported', where: input.where, message: `the link to ${links[index]?.tool ?? '?'} was left out: ${issue.message}` });
  }
  // The same link from the description and from a workflow is declared once.
  const seen = new Set<string>();
  const kept = links.filter((link, index) => {
    const key = JSON.stringify([link.tool, link.parameters]);
    if (refused.has(index) || seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  if (kept.length > 0) entry.links = kept;
}
