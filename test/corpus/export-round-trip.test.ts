/**
 * Round trip of every export: for every tool of every corpus manifest (generated here from the
 * OpenAPI descriptions in ../shared/corpus/big and medium) and every export format, arguments valid
 * for the EXPORTED schema (strict-mode nulls, Gemini's renamed parameters…) are generated with
 * fast-check, mapped back with toManifestArguments, and checked with the client's own argument
 * validator. A rejection is allowed only when every failing rule is a keyword the export reported
 * dropping for that tool (the export is lossy there, and says so).
 */
import { existsSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { createClient } from '../../src/client/index.js';
import { InvalidArgumentsError } from '../../src/client/call/invalid-arguments-error.js';
import { validateToolArguments } from '../../src/client/call/validate-tool-arguments.js';
import { generateManifest } from '../../src/openapi/index.js';
import { EXPORT_FORMATS, exportTools, toManifestArguments, type CatalogTool, type ExportFormat } from '../../src/tools/index.js';
import { arbitraryFromSchema } from '../helpers/json-schema-arbitrary.js';

const corpus = resolve(import.meta.dirname, '../../../shared/corpus');
const available = existsSync(join(corpus, 'big'));
const RUNS_PER_TOOL = 2;
// Compiling two validators per tool and format is what this costs: every tool of Stripe alone takes
// minutes on two cores. By default an even spread of at most this many tools per description is
// checked (all of them in the smaller ones); AICAP_ROUND_TRIP_TOOLS=all checks every tool.
const TOOLS_PER_DESCRIPTION = process.env['AICAP_ROUND_TRIP_TOOLS'] === 'all' ? Number.POSITIVE_INFINITY : Number(process.env['AICAP_ROUND_TRIP_TOOLS'] ?? 60);
// Decides what "valid for the exported schema" means: the generator is approximate (oneOf, formats),
// so a generated value the exported schema itself refuses is skipped, not counted.
const addFormatsTo = ((addFormats as unknown as { default?: unknown }).default ?? addFormats) as (ajv: Ajv2020) => Ajv2020;
const exportedValidator = addFormatsTo(new Ajv2020({ strict: false, allErrors: false, validateFormats: true, logger: false }));
// Keywords whose failure is a consequence of a dropped keyword below them.
const COMBINATORS = new Set(['anyOf', 'oneOf', 'allOf', 'not', 'if', 'then', 'else']);

function files(): string[] {
  if (!available) return [];
  return ['big', 'medium'].flatMap((folder) =>
    readdirSync(join(corpus, folder))
      .filter((name) => /\.(json|ya?ml)$/.test(name))
      .map((name) => join(folder, name)),
  );
}

/** The arguments schema a model sees in each format. */
function exportedSchemas(format: ExportFormat, tools: readonly CatalogTool[]): { schemas: unknown[]; dropped: Map<string, Set<string>>; strictCount: number } {
  const exported = exportTools(tools, format);
  const dropped = new Map<string, Set<string>>();
  for (const entry of exported.dropped) dropped.set(entry.tool, (dropped.get(entry.tool) ?? new Set()).add(entry.keyword));
  const list = exported.tools as unknown as Array<Record<string, unknown>>;
  let strictCount = 0;
  const schemas = list.map((tool) => {
    const fn = tool['function'] as Record<string, unknown> | undefined;
    if (tool['strict'] === true || fn?.['strict'] === true) strictCount++;
    return fn?.['parameters'] ?? tool['parameters'] ?? tool['input_schema'] ?? tool['inputSchema'] ?? tool['parametersJsonSchema'] ?? { type: 'object', properties: {} };
  });
  return { schemas, dropped, strictCount };
}

const summary: string[] = [];
afterAll(() => {
  if (summary.length > 0) console.info(`export round trip:\n${summary.join('\n')}`);
});

describe.skipIf(!available)('export round trip over the corpus', () => {
  if (!available) it.skip('needs ../shared/corpus (absent)', () => {});
  it.each(files())('%s: arguments valid for each exported schema are accepted once mapped back', { timeout: 600_000 }, async (file) => {
    let manifest;
    try {
      ({ manifest } = await generateManifest({ input: join(corpus, file), strict: false, refRoot: corpus }));
    } catch (error) {
      summary.push(`${file}: not generated (${(error as Error).message.slice(0, 80)})`);
      return;
    }
    const client = createClient({ cache: false });
    try {
      await client.load(manifest, { maxSizeInBytes: 256 * 1024 * 1024 });
      const tools = client.catalog({ includeDeprecated: true }).tools;
      const counts: string[] = [];
      const stride = Math.max(1, Math.ceil(tools.length / TOOLS_PER_DESCRIPTION));
      for (const format of EXPORT_FORMATS) {
        const { schemas, dropped, strictCount } = exportedSchemas(format, tools);
        let accepted = 0;
        let lossy = 0;
        tools.forEach((tool, index) => {
          if (index % stride !== 0) return;
          const allowed = dropped.get(tool.name) ?? new Set<string>();
          let validExported: (value: unknown) => boolean;
          try {
            validExported = exportedValidator.compile(schemas[index] as object) as (value: unknown) => boolean;
          } catch {
            validExported = () => true;
          }
          fc.assert(
            fc.property(arbitraryFromSchema(schemas[index]), (args) => {
              if (!validExported(args)) return;
              const mapped = toManifestArguments(format, tool, args);
              try {
                validateToolArguments(tool.definition, mapped, manifest);
                accepted++;
              } catch (error) {
                if (!(error instanceof InvalidArgumentsError)) throw error;
                // Under a combinator, ajv also reports why every other branch failed: when a dropped
                // keyword explains one failure there, the branch noise is its consequence.
                const combinatorFailed = error.problems.some((problem) => COMBINATORS.has(problem.rule)) && error.problems.some((problem) => allowed.has(problem.rule));
                const unexplained = combinatorFailed ? [] : error.problems.filter((problem) => !allowed.has(problem.rule) && !(COMBINATORS.has(problem.rule) && allowed.size > 0));
                if (unexplained.length > 0) throw new Error(`${format} ${tool.name}: ${JSON.stringify(args)} → ${JSON.stringify(mapped)} rejected: ${error.message}`, { cause: error });
                lossy++;
              }
            }),
            { numRuns: RUNS_PER_TOOL, seed: 16, endOnFailure: true },
          );
        });
        if (tools.length > 0) expect(accepted).toBeGreaterThan(0);
        const strict = format.includes('strict') ? `, strict ${strictCount}/${tools.length}` : '';
        counts.push(`${format} ${accepted}✔ ${lossy}~${strict}`);
      }
      summary.push(`${file} (${tools.length} tools, every ${stride === 1 ? '' : `${stride}th `}one checked): ${counts.join('; ')}`);
    } finally {
      await client.close();
    }
  });
});
