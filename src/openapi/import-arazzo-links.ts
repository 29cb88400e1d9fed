import { readFile } from 'node:fs/promises';
import { optionTerm, worded } from '../errors/message-term.js';
import { fromPointer } from '../internal/json-pointer.js';
import { parseDocumentText } from './load-openapi-description.js';
import { OpenApiInvalidError } from './openapi-invalid-error.js';
import type { ImportedLink } from './transform/declare-links.js';
import { isRecord, nonEmptyString, type GeneratorWarning } from './transform/transform-context.js';

// Bounds on what a hostile document can make the import walk.
const MAX_WORKFLOWS = 1000;
const MAX_STEPS = 1000;

/**
 * Reads an Arazzo 1.0 document (a file path, or the parsed document) and returns, for every step
 * whose parameters take a previous step's output, an OpenAPI Link Object from that step's operation
 * to this one's, the output's `$response.body#/…` expression as the value. Only one-to-one pairs
 * become links: a value built from several outputs, an output that is not a response-body
 * expression, a step that runs a workflow, or a request body is reported as an `arazzo.unsupported`
 * warning. Throws {@link OpenApiInvalidError} (`OPENAPI_INVALID`) for a document that is not Arazzo 1.x.
 */
export async function importArazzoLinks(input: string | Record<string, unknown>, warnings: GeneratorWarning[]): Promise<ImportedLink[]> {
  const location = typeof input === 'string' ? input : 'arazzo document';
  let document: unknown = input;
  if (typeof input === 'string') {
    let text: string;
    try {
      text = await readFile(input, 'utf8');
    } catch (error) {
      throw new OpenApiInvalidError(worded`the Arazzo document cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'}); check the path given to ${optionTerm('arazzo')}`, {
        location,
        option: 'arazzo',
      });
    }
    document = parseDocumentText(text, location);
  }
  // Arazzo 1.0 requires `workflows` (a non-empty list) and `steps` in each: a document without them is
  // refused, never read as "no links" (the generator would report success on a file it did not use).
  if (!isRecord(document) || typeof document['arazzo'] !== 'string' || !/^1\.\d+\.\d+/.test(document['arazzo']) || !Array.isArray(document['workflows']) || document['workflows'].length === 0) {
    throw new OpenApiInvalidError('is not an Arazzo 1.x document: it needs its version field ("arazzo": "1.0.x") and a non-empty `workflows` list', { location, option: 'arazzo' });
  }
  const imported: ImportedLink[] = [];
  for (const [workflowIndex, workflow] of document['workflows'].slice(0, MAX_WORKFLOWS).entries()) {
    if (!isRecord(workflow) || !Array.isArray(workflow['steps'])) {
      throw new OpenApiInvalidError(`/workflows/${workflowIndex} is not an Arazzo workflow: it needs a \`steps\` list`, { location, option: 'arazzo' });
    }
    const workflowId = nonEmptyString(workflow['workflowId']) ?? '?';
    const steps = new Map<string, { operation: string; outputs: Record<string, unknown> }>();
    for (const [stepIndex, step] of workflow['steps'].slice(0, MAX_STEPS).entries()) {
      if (!isRecord(step)) throw new OpenApiInvalidError(`/workflows/${workflowIndex}/steps/${stepIndex} is not an Arazzo step (an object with a stepId)`, { location, option: 'arazzo' });
      const stepId = nonEmptyString(step['stepId']) ?? '?';
      const where = `arazzo ${workflowId}.${stepId}`;
      const operation = stepOperation(step);
      if (operation === undefined) {
        warnings.push({ code: 'arazzo.unsupported', where, message: 'the step runs a workflow or names no operation (operationId or operationPath); links to it cannot be imported' });
        continue;
      }
      steps.set(stepId, { operation, outputs: isRecord(step['outputs']) ? step['outputs'] : {} });
      for (const [from, parameters] of linkedParameters(step, steps, where, warnings)) {
        imported.push({ from, link: { ...operationTarget(operation), parameters }, where });
      }
      if (step['requestBody'] !== undefined)
        warnings.push({ code: 'arazzo.unsupported', where, message: 'the step fills a request body; a link fills parameters only, so the body is left to the caller' });
    }
  }
  return imported;
}

/** The operation a step calls, as an `operationId` or `METHOD /path`. */
function stepOperation(step: Record<string, unknown>): string | undefined {
  const operationId = nonEmptyString(step['operationId']);
  // A qualified id (`$sourceDescriptions.accounts.findAccount`) names the operation after its source.
  if (operationId !== undefined) return operationId.startsWith('$sourceDescriptions.') ? operationId.split('.').slice(2).join('.') : operationId;
  const path = nonEmptyString(step['operationPath']);
  const fragment = path === undefined ? undefined : path.slice(path.indexOf('#') + 1);
  if (fragment === undefined || !fragment.startsWith('/paths/')) return undefined;
  const tokens = fromPointer(fragment);
  return tokens.length === 3 ? `${String(tokens[2]).toUpperCase()} ${tokens[1]}` : undefined;
}

function operationTarget(operation: string): Record<string, unknown> {
  const location = /^([A-Z]+) (\/.*)$/.exec(operation);
  if (!location) return { operationId: operation };
  const escaped = (location[2] ?? '').replaceAll('~', '~0').replaceAll('/', '~1');
  return { operationRef: `#/paths/${escaped}/${(location[1] ?? '').toLowerCase()}` };
}

/** The step's parameters that take exactly one earlier step's output, grouped by that step's operation. */
function linkedParameters(
  step: Record<string, unknown>,
  earlier: ReadonlyMap<string, { operation: string; outputs: Record<string, unknown> }>,
  where: string,
  warnings: GeneratorWarning[],
): Map<string, Record<string, string>> {
  const bySource = new Map<string, Record<string, string>>();
  for (const parameter of Array.isArray(step['parameters']) ? step['parameters'] : []) {
    if (!isRecord(parameter) || typeof parameter['name'] !== 'string' || typeof parameter['value'] !== 'string') continue;
    const reference = /^\{?\$steps\.([^.{}]+)\.outputs\.([^{}]+?)\}?$/.exec(parameter['value']);
    if (!reference) {
      if (parameter['value'].includes('$steps.'))
        warnings.push({
          code: 'arazzo.unsupported',
          where,
          message: `parameter ${JSON.stringify(parameter['name'])} is built from ${JSON.stringify(parameter['value'].slice(0, 200))}, not one step output; it was not imported`,
        });
      continue;
    }
    const source = earlier.get(reference[1] ?? '');
    const output = source?.outputs[reference[2] ?? ''];
    if (source === undefined || typeof output !== 'string' || !/^\$response\.body(?:#.*)?$/.test(output)) {
      warnings.push({
        code: 'arazzo.unsupported',
        where,
        message: `parameter ${JSON.stringify(parameter['name'])} takes ${JSON.stringify(parameter['value'].slice(0, 200))}, which is not a response-body output of an earlier step; it was not imported`,
      });
      continue;
    }
    const location = typeof parameter['in'] === 'string' ? `${parameter['in']}.` : '';
    const parameters = bySource.get(source.operation) ?? {};
    parameters[`${location}${parameter['name']}`] = output;
    bySource.set(source.operation, parameters);
  }
  return bySource;
}
