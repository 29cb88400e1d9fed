import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { checkOpenApiDependency, loadOpenApiDependency } from './load-openapi-dependency.js';
import type { LoadedOpenApiDescription } from './load-openapi-description.js';
import { OpenApiInvalidError } from './openapi-invalid-error.js';
import { optionTerm, worded } from '../errors/message-term.js';
import { createReferenceResolver } from './reference-resolver.js';
import { isRecord, type GeneratorWarning } from './transform/transform-context.js';

const VALIDATOR = '@readme/openapi-parser';
const VALIDATOR_PURPOSE = 'validate OpenAPI descriptions';

/**
 * Checks a description against the OpenAPI specification (the validator of @readme/openapi-parser plus
 * the URL, e-mail and pattern formats it leaves out). Strict: the findings throw
 * {@link OpenApiInvalidError}; otherwise they become warnings.
 *
 * The check runs in a worker thread on its own copy of the documents, taken before this function
 * first waits: the caller may convert and map the description meanwhile (the validator is half of
 * the time Kubernetes takes), and decides what to do with its result once this settles.
 */
export async function validateOpenApiDescription(loaded: LoadedOpenApiDescription, location: string, strict: boolean, warnings: GeneratorWarning[]): Promise<void> {
  checkOpenApiDependency(VALIDATOR, VALIDATOR_PURPOSE);
  const problems = await findProblemsInWorker(loaded);
  if (problems.length === 0) return;
  const shown = problems.map((problem) => summarizeProblem(problem));
  if (strict) {
    const more = shown.length > 5 ? ` (and ${shown.length - 5} more)` : '';
    const listed = `${shown.slice(0, 5).join('; ')}${more}`.replace(/\.$/, '');
    throw new OpenApiInvalidError(worded`is not a valid OpenAPI description: ${listed}. Fix the description, or pass ${optionTerm('strict', { value: false })} to generate anyway`, {
      location,
      problems: shown,
    });
  }
  for (const problem of shown) warnings.push({ code: 'openapi.invalid', where: location, message: problem });
}

/** The structured-clonable input of the validation worker. @internal */
export interface ValidationInput {
  url: string;
  root: Record<string, unknown>;
  documents: Map<string, unknown>;
}

function findProblemsInWorker(loaded: LoadedOpenApiDescription): Promise<string[]> {
  // Compiled, the worker sits next to this module; run from the TypeScript sources (the unit tests)
  // it does not, and the same check runs in this thread.
  const workerUrl = new URL('./openapi-validation-worker.js', import.meta.url);
  const input: ValidationInput = { url: loaded.url, root: loaded.root, documents: loaded.documents };
  if (workerUrl.protocol !== 'file:' || !existsSync(fileURLToPath(workerUrl))) return findDescriptionProblems(input, false);
  let worker: Worker;
  try {
    // `workerData` is copied here, synchronously: later changes to the documents do not reach the check.
    worker = new Worker(workerUrl, { workerData: input });
  } catch {
    return findDescriptionProblems(input, false);
  }
  return new Promise((resolve, reject) => {
    worker.once('message', (problems: string[]) => {
      resolve(problems);
      void worker.terminate();
    });
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`the OpenAPI validation thread stopped (exit code ${code}) before answering`)));
  });
}

/**
 * The validator's findings on a description, and the formats it leaves out. `ownsDocuments`: the
 * input is a private copy (the worker's), so a single-document description is validated in place.
 * @internal
 */
export async function findDescriptionProblems(input: ValidationInput, ownsDocuments: boolean): Promise<string[]> {
  const { root } = input;
  // Read before the validator runs: with `ownsDocuments` it dereferences `root` itself.
  const formatProblems = checkFormats(root);
  const shape = {
    pathKeys: isRecord(root['paths']) ? Object.keys(root['paths']) : undefined,
    empty: root['paths'] === undefined && root['webhooks'] === undefined && root['components'] === undefined,
  };
  // Loaded here rather than at the top: where the check runs in its worker, the generating thread
  // never pays for loading the validator (a quarter of a second). A missing validator is no finding.
  const { validate: validateOpenApi } = await loadOpenApiDependency(VALIDATOR, VALIDATOR_PURPOSE, () => import('@readme/openapi-parser'));
  let problems: string[];
  try {
    // The validator gets a bundled copy, not the files: it dereferences in place, its YAML parser
    // rejects YAML 1.2 files that ours reads, and its own dereferencing of every file took
    // DigitalOcean's 1,500 files to 24 s and 1 GB. The loader has read and checked every file already.
    const copy = ownsDocuments && input.documents.size === 1 ? root : structuredClone(root);
    if (input.documents.size > 1) inlineExternalReferences(copy, input);
    const result = await validateOpenApi(copy as never, { resolve: { external: false } });
    problems = result.valid
      ? []
      : relevantProblems(
          result.errors.map((error) => error.message),
          shape,
        );
  } catch (error) {
    problems = [(error as Error).message];
  }
  problems.push(...formatProblems);
  return problems;
}

/**
 * Bundles a multi-document description for the validator: each external `$ref` target is copied in
 * at its first use (later uses stay references, so the copy grows with the description, not with
 * the number of paths through it), and a target that is not an object
 * (`description: { $ref: intro.yml#/text }`) replaces its reference everywhere.
 */
function inlineExternalReferences(document: Record<string, unknown>, loaded: ValidationInput): void {
  const resolver = createReferenceResolver(loaded.documents);
  const inlined = new Set<string>();
  const stack: Array<[Record<string, unknown> | unknown[], string]> = [[document, loaded.url]];
  while (stack.length > 0) {
    const [value, documentUrl] = stack.pop()!;
    for (const [key, child] of Object.entries(value)) {
      if (key.startsWith('x-') || typeof child !== 'object' || child === null) continue;
      const reference = (child as Record<string, unknown>)['$ref'];
      if (typeof reference !== 'string' || reference.startsWith('#')) {
        stack.push([child as Record<string, unknown>, documentUrl]);
        continue;
      }
      let target;
      try {
        target = resolver.follow(child, documentUrl);
      } catch {
        continue; // reported when a transform uses it
      }
      if (typeof target.value !== 'object' || target.value === null) (value as Record<string, unknown>)[key] = target.value;
      else if (target.key !== undefined && !inlined.has(target.key)) {
        inlined.add(target.key);
        const copy = structuredClone(target.value) as Record<string, unknown>;
        (value as Record<string, unknown>)[key] = copy;
        stack.push([copy, target.documentUrl]);
      }
    }
  }
}

/**
 * Drops validator findings that are not problems for generation: unresolved pointers (the
 * transforms resolve each `$ref` they use and fail clearly on a broken one; the validator cannot
 * see Swagger 2.0 refs that only resolve after conversion), `x-` keys in `paths` (allowed by the
 * specification), and 3.1 documents without operations (valid, they yield no tools).
 */
function relevantProblems(problems: string[], shape: { pathKeys: string[] | undefined; empty: boolean }): string[] {
  return problems.filter((problem) => {
    if (problem.startsWith('Missing $ref pointer')) return false;
    if (problem.includes('`paths` object must begin with a leading slash')) {
      return shape.pathKeys !== undefined && shape.pathKeys.some((path) => !path.startsWith('/') && !path.startsWith('x-'));
    }
    if (problem.includes('must contain at least one entry in either `paths`, `webhooks`, or `components`')) return shape.empty;
    return true;
  });
}

/**
 * What the validator leaves out: the URL and e-mail formats the specification requires of the
 * Info, Contact, License and External Documentation objects, and schema `pattern`s that are not
 * regular expressions at all.
 */
function checkFormats(root: Record<string, unknown>): string[] {
  const problems: string[] = [];
  const info = isRecord(root['info']) ? root['info'] : {};
  const contact = isRecord(info['contact']) ? info['contact'] : {};
  const license = isRecord(info['license']) ? info['license'] : {};
  const externalDocs = isRecord(root['externalDocs']) ? root['externalDocs'] : {};
  const urls: Array<[string, unknown]> = [
    ['/info/termsOfService', info['termsOfService']],
    ['/info/contact/url', contact['url']],
    ['/info/license/url', license['url']],
    ['/externalDocs/url', externalDocs['url']],
  ];
  for (const [pointer, value] of urls) {
    if (typeof value === 'string' && !URL.canParse(value)) problems.push(`${pointer} must be a URL, got ${JSON.stringify(value.slice(0, 100))}`);
  }
  if (typeof contact['email'] === 'string' && !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(contact['email']))
    problems.push(`/info/contact/email must be an e-mail address, got ${JSON.stringify(contact['email'].slice(0, 100))}`);
  const stack: Array<[unknown, string]> = [
    [root['components'] ?? root['definitions'], root['components'] ? '/components' : '/definitions'],
    [root['paths'], '/paths'],
  ];
  while (stack.length > 0 && problems.length < 20) {
    const [value, pointer] = stack.pop()!;
    if (typeof value !== 'object' || value === null) continue;
    for (const [key, child] of Object.entries(value)) {
      if (key.startsWith('x-') || key === 'example' || key === 'examples' || key === 'default' || key === 'enum') continue;
      if (key === 'pattern' && typeof child === 'string') {
        try {
          new RegExp(child);
        } catch {
          problems.push(`${pointer}/pattern ${JSON.stringify(child.slice(0, 100))} is not a regular expression`);
        }
      } else if (typeof child === 'object' && child !== null) stack.push([child, `${pointer}/${key.replaceAll('~', '~0').replaceAll('/', '~1')}`]);
    }
  }
  return problems;
}

function summarizeProblem(problem: string): string {
  // The validator's messages carry a code frame; the first line and the marked line say enough.
  const lines = problem.split('\n').map((line) => line.trimEnd());
  const marked = lines.find((line) => line.trimStart().startsWith('>'));
  // The frame's line numbers count lines of the validator's own JSON rendering, not of the file: left out.
  const summary = marked
    ? `${lines[0]} (near ${marked
        .replace(/^\s*>\s*\d*\s*\|?\s*/, '')
        .replace(/\s+/g, ' ')
        .slice(0, 120)})`
    : (lines[0] ?? problem);
  return summary.slice(0, 400);
}
