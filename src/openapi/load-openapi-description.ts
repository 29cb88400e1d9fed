import { readFile, stat } from 'node:fs/promises';
import { dirname, isAbsolute, relative, resolve as resolvePath, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { checkIntegerOption, invalidOptionError } from '../errors/invalid-option-error.js';
import { declaredLengthExceeds, readCappedBytes } from '../internal/read-capped-bytes.js';
import { loadYaml } from './load-openapi-dependency.js';
import { OpenApiInvalidError } from './openapi-invalid-error.js';

/** Where an OpenAPI description comes from. */
export type OpenApiInput = string | URL | Record<string, unknown>;

/** Options of {@link loadOpenApiDescription}. */
export interface LoadOpenApiDescriptionOptions {
  /**
  The description: a file path, an `http(s)` URL (string or `URL`), the document text (JSON or
  YAML, recognised by a leading `{` or a line starting with `openapi:`/`swagger:`), or the parsed
  document object.
  */
  input: OpenApiInput;
  /**
  Base for relative `$ref`s when `input` is text or an object. Relative references may only reach
  files under this directory.

  @default the current working directory
  */
  baseUrl?: string | URL;
  /**
  Directory that relative `$ref`s of a file description may reach. A description is untrusted
  input: without a limit, `$ref: ../../.kube/config` would copy a credentials file into the manifest.

  @default the directory of the description (or of `baseUrl`)
  */
  refRoot?: string;
  /**
  The `fetch` used for URL inputs and the `$ref`s they contain.

  @default globalThis.fetch
  */
  fetch?: typeof fetch;
  /**
  Time allowed for each download.

  @default 10_000
  */
  timeoutInMs?: number;
  /**
  Largest document accepted, in bytes, per file or download.

  @default 32 MiB
  */
  maxDocumentBytes?: number;
  /**
  Most documents one description may span (the root plus every file or URL reached by `$ref`).

  @default 10_000
  */
  maxDocuments?: number;
}

/** A description and every document its `$ref`s reach, each parsed once. */
export interface LoadedOpenApiDescription {
  /** Absolute URL (`file:` or `https:`) of the root document, without fragment. */
  url: string;
  /** The root document as parsed. */
  root: Record<string, unknown>;
  /** Every document by absolute URL without fragment, the root included. */
  documents: Map<string, unknown>;
}

const DEFAULT_TIMEOUT_IN_MS = 10_000;
const DEFAULT_MAX_DOCUMENT_BYTES = 32 * 1024 * 1024;
const DEFAULT_MAX_DOCUMENTS = 10_000;

/**
 * Reads an OpenAPI description and every document its relative `$ref`s reach.
 *
 * A file description may only reach files inside its own directory tree, and a URL description only
 * URLs on its own origin: a description is untrusted input and must not read `/etc/passwd` or an
 * intranet address into a manifest. `$ref`s inside `x-` extensions are not followed (they carry no
 * OpenAPI meaning, and vendors leave dangling ones there).
 */
export async function loadOpenApiDescription(options: LoadOpenApiDescriptionOptions): Promise<LoadedOpenApiDescription> {
  checkOptions(options as unknown as Record<string, unknown>);
  const limits = {
    fetch: options.fetch ?? globalThis.fetch,
    timeoutInMs: options.timeoutInMs ?? DEFAULT_TIMEOUT_IN_MS,
    maxDocumentBytes: options.maxDocumentBytes ?? DEFAULT_MAX_DOCUMENT_BYTES,
  };
  const maxDocuments = options.maxDocuments ?? DEFAULT_MAX_DOCUMENTS;
  const { url, root, scope: defaultScope } = await loadRoot(options, limits);
  const scope: Scope = options.refRoot !== undefined && defaultScope.kind === 'directory' ? { kind: 'directory', directory: resolvePath(options.refRoot) } : defaultScope;
  const documents = new Map<string, unknown>([[url, root]]);
  const queue: Array<[string, unknown]> = [[url, root]];
  while (queue.length > 0) {
    const [documentUrl, document] = queue.shift()!;
    for (const reference of externalReferences(document)) {
      let target: URL;
      try {
        target = new URL(reference, documentUrl);
      } catch {
        throw new OpenApiInvalidError(`"$ref": "${reference}" is not a valid URI reference`, { location: displayLocation(documentUrl) });
      }
      target.hash = '';
      const targetUrl = target.href;
      if (documents.has(targetUrl)) continue;
      checkScope(target, scope, reference, documentUrl);
      if (documents.size >= maxDocuments) {
        throw new OpenApiInvalidError(`the description spans more than ${maxDocuments} documents; raise \`maxDocuments\` if that is intended`, { location: displayLocation(url) });
      }
      const text = await readDocument(target, limits, `"$ref": "${reference}" in ${displayLocation(documentUrl)}`);
      const value = parseDocumentText(text, displayLocation(targetUrl));
      documents.set(targetUrl, value);
      queue.push([targetUrl, value]);
    }
  }
  return { url, root, documents };
}

/** Bad options fail before any I/O, naming the option. @internal */
export function checkOptions(options: Record<string, unknown>): void {
  const { input } = options;
  if (typeof input !== 'string' && (typeof input !== 'object' || input === null || Array.isArray(input))) {
    throw invalidOptionError('input', 'a file path, a URL, the description text or the parsed document', input);
  }
  const { arazzo } = options;
  if (arazzo !== undefined && typeof arazzo !== 'string' && (typeof arazzo !== 'object' || arazzo === null || Array.isArray(arazzo))) {
    throw invalidOptionError('arazzo', 'a file path or the parsed Arazzo document', arazzo);
  }
  for (const name of ['timeoutInMs', 'maxDocumentBytes', 'maxDocuments', 'maxReturnSchemaNodes']) {
    const value = options[name];
    if (value !== undefined) checkIntegerOption(name, value as number, { minimum: 1 });
  }
}

interface ReadLimits {
  fetch: typeof fetch;
  timeoutInMs: number;
  maxDocumentBytes: number;
}

type Scope = { kind: 'directory'; directory: string } | { kind: 'origin'; origin: string };

async function loadRoot(options: LoadOpenApiDescriptionOptions, limits: ReadLimits): Promise<{ url: string; root: Record<string, unknown>; scope: Scope }> {
  const { input } = options;
  const base = options.baseUrl ? new URL(options.baseUrl) : pathToFileURL(`${process.cwd()}${sep}`);
  const baseScope = (): Scope => (base.protocol === 'file:' ? { kind: 'directory', directory: dirname(fileURLToPath(new URL('./x', base))) } : { kind: 'origin', origin: base.origin });
  if (typeof input === 'object' && !(input instanceof URL)) {
    if (Array.isArray(input) || input === null) throw new OpenApiInvalidError('the `input` object is not an OpenAPI document (expected an object with an `openapi` or `swagger` field)');
    return { url: new URL('./openapi.json', base).href, root: input, scope: baseScope() };
  }
  if (typeof input === 'string' && looksLikeDocumentText(input)) {
    return { url: new URL('./openapi.json', base).href, root: asDocument(parseDocumentText(input, 'the `input` text'), 'the `input` text'), scope: baseScope() };
  }
  const url = input instanceof URL ? input : /^https?:\/\//i.test(input) ? new URL(input) : pathToFileURL(resolvePath(input));
  if (url.protocol !== 'file:' && url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new OpenApiInvalidError(`\`input\` scheme "${url.protocol}" is not supported; give a file path or an http(s) URL`);
  }
  url.hash = '';
  const text = await readDocument(url, limits, 'the description');
  const root = asDocument(parseDocumentText(text, displayLocation(url.href)), displayLocation(url.href));
  const scope: Scope = url.protocol === 'file:' ? { kind: 'directory', directory: dirname(fileURLToPath(url)) } : { kind: 'origin', origin: url.origin };
  return { url: url.href, root, scope };
}

function looksLikeDocumentText(input: string): boolean {
  const trimmed = input.trimStart();
  return trimmed.startsWith('{') || /^(?:openapi|swagger)\s*:/m.test(input);
}

function asDocument(value: unknown, location: string): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new OpenApiInvalidError('is not an OpenAPI document: expected an object with an `openapi` or `swagger` field', { location });
  }
  return value as Record<string, unknown>;
}

function checkScope(target: URL, scope: Scope, reference: string, documentUrl: string): void {
  const where = `"$ref": "${reference}" in ${displayLocation(documentUrl)}`;
  if (scope.kind === 'directory') {
    if (target.protocol !== 'file:') {
      throw new OpenApiInvalidError(
        `${where} points at ${target.protocol.slice(0, -1)} URL ${target.origin}; a file description may only reference files next to it (download the referenced document and point the $ref at the copy)`,
      );
    }
    const path = fileURLToPath(target);
    const fromScope = relative(scope.directory, path);
    if (fromScope.startsWith('..') || isAbsolute(fromScope)) {
      throw new OpenApiInvalidError(`${where} reaches ${path}, outside ${scope.directory}; only files under it may be referenced (pass \`refRoot\`, CLI --ref-root, to allow a wider directory)`);
    }
    return;
  }
  if ((target.protocol !== 'https:' && target.protocol !== 'http:') || target.origin !== scope.origin) {
    throw new OpenApiInvalidError(`${where} points outside ${scope.origin}; a URL description may only reference documents on its own origin`);
  }
}

async function readDocument(url: URL, limits: ReadLimits, what: string): Promise<string> {
  if (url.protocol === 'file:') {
    const path = fileURLToPath(url);
    try {
      const info = await stat(path);
      if (info.size > limits.maxDocumentBytes) {
        throw new OpenApiInvalidError(`is ${info.size} bytes, more than \`maxDocumentBytes\` (${limits.maxDocumentBytes})`, { location: path });
      }
      return await readFile(path, 'utf8');
    } catch (error) {
      if (error instanceof OpenApiInvalidError) throw error;
      const code = (error as NodeJS.ErrnoException).code;
      const reason = code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'is a directory, not a file' : (error as Error).message;
      throw new OpenApiInvalidError(`cannot read ${what}: ${reason}`, { location: path, cause: error });
    }
  }
  let response: Response;
  try {
    response = await limits.fetch(url, { headers: { accept: 'application/json, application/yaml;q=0.9, */*;q=0.5' }, signal: AbortSignal.timeout(limits.timeoutInMs), redirect: 'follow' });
  } catch (error) {
    const timedOut = error instanceof DOMException && error.name === 'TimeoutError';
    throw new OpenApiInvalidError(timedOut ? `cannot download ${what}: no answer within ${limits.timeoutInMs} ms (\`timeoutInMs\`)` : `cannot download ${what}: ${(error as Error).message}`, {
      location: `GET ${url.href}`,
      cause: error,
    });
  }
  if (response.url && new URL(response.url).origin !== url.origin) {
    await response.body?.cancel();
    throw new OpenApiInvalidError(`cannot download ${what}: redirected to another origin (${new URL(response.url).origin})`, { location: `GET ${url.href}` });
  }
  if (!response.ok) {
    await response.body?.cancel();
    throw new OpenApiInvalidError(`cannot download ${what}: status ${response.status}`, { location: `GET ${url.href}` });
  }
  return readCapped(response, limits.maxDocumentBytes, url.href);
}

async function readCapped(response: Response, maxBytes: number, href: string): Promise<string> {
  if (declaredLengthExceeds(response.headers, maxBytes)) {
    await response.body?.cancel();
    throw new OpenApiInvalidError(`response declares ${response.headers.get('content-length')} bytes, more than \`maxDocumentBytes\` (${maxBytes})`, { location: `GET ${href}` });
  }
  const { bytes, exceeded } = await readCappedBytes(response.body, maxBytes);
  if (exceeded) throw new OpenApiInvalidError(`response is larger than \`maxDocumentBytes\` (${maxBytes})`, { location: `GET ${href}` });
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
}

/** Parses JSON or YAML text; errors name the location and line. @internal */
export function parseDocumentText(text: string, location: string): unknown {
  const trimmed = text.trimStart();
  if (trimmed.startsWith('{') || trimmed.startsWith('[')) {
    try {
      return JSON.parse(text);
    } catch (error) {
      throw new OpenApiInvalidError(`is not valid JSON: ${(error as Error).message}`, { location, cause: error });
    }
  }
  const { parse: parseYaml, YAMLParseError } = loadYaml();
  try {
    // YAML 1.2 core schema, as OpenAPI 3.1 requires; aliases are capped against billion-laughs input.
    return parseYaml(text, { maxAliasCount: 10_000, merge: true, uniqueKeys: false });
  } catch (error) {
    const where = error instanceof YAMLParseError && error.linePos ? ` at line ${error.linePos[0].line}, column ${error.linePos[0].col}` : '';
    const reason = error instanceof YAMLParseError ? (error.message.split('\n')[0] ?? error.message) : (error as Error).message;
    throw new OpenApiInvalidError(`is not valid YAML${where}: ${reason}`, { location, cause: error });
  }
}

/** A file URL as a path, other URLs as they are. @internal */
export function displayLocation(url: string): string {
  return url.startsWith('file:') ? fileURLToPath(url) : url;
}

/** The distinct non-local `$ref` values of a document, outside `x-` extensions. */
function externalReferences(document: unknown): Set<string> {
  const found = new Set<string>();
  const stack: unknown[] = [document];
  while (stack.length > 0) {
    const value = stack.pop();
    if (typeof value !== 'object' || value === null) continue;
    if (Array.isArray(value)) {
      for (const item of value) stack.push(item);
      continue;
    }
    for (const [key, child] of Object.entries(value)) {
      if (key === '$ref' && typeof child === 'string') {
        if (!child.startsWith('#')) found.add(child.split('#')[0] ?? child);
      } else if (!key.startsWith('x-') && typeof child === 'object') stack.push(child);
    }
  }
  return found;
}
