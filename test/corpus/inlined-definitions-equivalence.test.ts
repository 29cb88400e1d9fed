/**
 * The arguments schema with definitions reached once put in place of their reference accepts exactly
 * what the manifest's own parameters accept: for the tools the bench's queries pick in GitHub and
 * Stripe, arguments generated from the schema (and each broken in one member) get the same verdict
 * from it and from a schema built straight from the manifest, whose `#/definitions/…` references
 * resolve against the manifest's shared definitions placed at its root.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { argumentsSchema } from '../../src/manifest/arguments-schema.js';
import type { JsonSchema } from '../../src/manifest/manifest-v0.js';
import { createDefinitionGraph } from '../../src/manifest/reachable-definitions.js';
import { generateManifest } from '../../src/openapi/index.js';
import { arbitraryFromSchema } from '../helpers/json-schema-arbitrary.js';

const corpus = resolve(import.meta.dirname, '../../../shared/corpus/big');
const CASES = [
  { file: 'github-api.github.com-2020-07.json', ids: ['repos_create-using-template', 'repos_create-for-authenticated-user', 'repos_create-in-org', 'pulls_submit-review', 'repos_transfer'] },
  { file: 'stripe-spec3-2022-04.json', ids: ['PostChargesChargeRefund', 'PostCharges', 'PostChargesChargeRefunds', 'PostRefunds', 'PostChargesChargeCapture'] },
];
const VALUES_PER_TOOL = 40;
// What replaces one member of a generated value to break it (an array of arrays fits hardly any parameter).
const WRONG = [[null]];

describe.skipIf(!existsSync(corpus))('definitions inlined in corpus tools', () => {
  it.each(CASES)(
    '$file: the inlined schema accepts exactly what the manifest does',
    async ({ file, ids }) => {
      const { manifest } = await generateManifest({ input: JSON.parse(readFileSync(join(corpus, file), 'utf8')) as never });
      const graph = createDefinitionGraph(manifest.definitions ?? {});
      let [reached, hoisted] = [0, 0];
      for (const id of ids) {
        const tool = manifest.tools.find((entry) => entry.id === id)!;
        const schema = argumentsSchema(tool, { definitions: manifest.definitions });
        const straight: Record<string, unknown> = { ...schema, properties: { ...schema.properties }, definitions: manifest.definitions };
        delete straight['$defs'];
        for (const [name, parameter] of Object.entries(tool.parameters ?? {})) {
          if (parameter.json_schema !== undefined) (straight['properties'] as Record<string, JsonSchema>)[name] = parameter.json_schema;
        }
        const ajv = new Ajv2020({ strict: false });
        const [validate, validateStraight] = [ajv.compile(schema), ajv.compile(straight)];
        const values = fc.sample(arbitraryFromSchema(schema), { numRuns: VALUES_PER_TOOL, seed: 30 }) as Array<Record<string, unknown>>;
        const broken = values.flatMap((value) => Object.keys(value).map((key) => ({ ...value, [key]: WRONG })));
        let accepted = 0;
        for (const value of [...values, ...broken]) {
          expect(validate(value), `${id}: ${JSON.stringify(value)}`).toBe(validateStraight(value));
          if (validate(value)) accepted++;
        }
        // Both verdicts occur, so the comparison can fail.
        expect(accepted, id).toBeGreaterThan(0);
        expect(accepted, id).toBeLessThan(values.length + broken.length);
        reached += graph.reachableFrom({ parameters: tool.parameters }).length;
        hoisted += Object.keys(schema.$defs ?? {}).length;
      }
      // Some of the shared definitions these tools reach were put in place rather than hoisted.
      expect(hoisted).toBeLessThan(reached);
    },
    120_000,
  );
});
