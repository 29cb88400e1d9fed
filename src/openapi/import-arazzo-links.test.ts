import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { OpenApiInvalidError } from './openapi-invalid-error.js';
import { importArazzoLinks } from './import-arazzo-links.js';
import type { GeneratorWarning } from './transform/transform-context.js';

function arazzo(steps: unknown[]): Record<string, unknown> {
  return { arazzo: '1.0.1', info: { title: 't', version: '1' }, sourceDescriptions: [], workflows: [{ workflowId: 'buy', steps }] };
}

async function refusal(input: string | Record<string, unknown>): Promise<OpenApiInvalidError> {
  const error = await importArazzoLinks(input, []).then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(OpenApiInvalidError);
  return error as OpenApiInvalidError;
}

describe('importArazzoLinks', () => {
  it('turns a parameter taken from an earlier step output into a link between their operations', async () => {
    const warnings: GeneratorWarning[] = [];
    const links = await importArazzoLinks(
      arazzo([
        { stepId: 'find', operationId: '$sourceDescriptions.shop.findPet', outputs: { petId: '$response.body#/id' } },
        { stepId: 'buy', operationPath: '{$sourceDescriptions.shop.url}#/paths/~1pets~1{petId}~1orders/post', parameters: [{ name: 'petId', in: 'path', value: '$steps.find.outputs.petId' }] },
      ]),
      warnings,
    );
    expect(links).toEqual([{ from: 'findPet', link: { operationRef: '#/paths/~1pets~1{petId}~1orders/post', parameters: { 'path.petId': '$response.body#/id' } }, where: 'arazzo buy.buy' }]);
    expect(warnings).toEqual([]);
  });

  it('groups the parameters a step takes from one earlier step into one link, and accepts the {…} form', async () => {
    const links = await importArazzoLinks(
      arazzo([
        { stepId: 'a', operationId: 'getOrder', outputs: { id: '$response.body#/id', shop: '$response.body#/shop' } },
        {
          stepId: 'b',
          operationId: 'getInvoice',
          parameters: [
            { name: 'order', value: '{$steps.a.outputs.id}' },
            { name: 'shop', value: '$steps.a.outputs.shop' },
          ],
        },
      ]),
      [],
    );
    expect(links).toEqual([{ from: 'getOrder', link: { operationId: 'getInvoice', parameters: { order: '$response.body#/id', shop: '$response.body#/shop' } }, where: 'arazzo buy.b' }]);
  });

  it('warns about what a link cannot carry and imports nothing for it', async () => {
    const warnings: GeneratorWarning[] = [];
    const links = await importArazzoLinks(
      arazzo([
        { stepId: 'a', operationId: 'getOrder', outputs: { status: '$statusCode', id: '$response.body#/id' } },
        { stepId: 'sub', workflowId: 'other' },
        {
          stepId: 'b',
          operationId: 'pay',
          requestBody: { payload: {} },
          parameters: [
            { name: 'code', value: '$steps.a.outputs.status' },
            { name: 'mixed', value: 'order-{$steps.a.outputs.id}' },
            { name: 'later', value: '$steps.c.outputs.id' },
            { name: 'literal', value: 'fixed' },
          ],
        },
      ]),
      warnings,
    );
    expect(links).toEqual([]);
    expect(warnings.map((warning) => warning.where)).toEqual(['arazzo buy.sub', 'arazzo buy.b', 'arazzo buy.b', 'arazzo buy.b', 'arazzo buy.b']);
    expect(warnings.map((warning) => warning.message)).toEqual([
      expect.stringContaining('the step runs a workflow or names'),
      expect.stringContaining('parameter "code" takes'),
      expect.stringContaining('parameter "mixed" is built from'),
      expect.stringContaining('parameter "later" takes'),
      expect.stringContaining('the step fills a request body'),
    ]);
    expect(warnings.every((warning) => warning.code === 'arazzo.unsupported')).toBe(true);
  });

  it('refuses a document that is not Arazzo 1.x, naming the option', async () => {
    for (const document of [{ openapi: '3.1.0' }, { arazzo: '2.0.0', workflows: [{ steps: [] }] }, { arazzo: '1.0.0', workflows: [] }, { arazzo: '1.0.0' }]) {
      const error = await refusal(document);
      expect(error.code).toBe('OPENAPI_INVALID');
      expect(error.option).toBe('arazzo');
    }
  });

  it('refuses a malformed workflow or step with its JSON Pointer', async () => {
    expect((await refusal({ arazzo: '1.0.0', workflows: [{ workflowId: 'w' }] })).message).toContain('/workflows/0');
    expect((await refusal({ arazzo: '1.0.0', workflows: [{ steps: [{ stepId: 'ok', operationId: 'x' }, 'oops'] }] })).message).toContain('/workflows/0/steps/1');
  });

  it('reads a file, and refuses one that cannot be read with the error code and the option', async () => {
    const directory = await mkdtemp(join(tmpdir(), 'aicap-arazzo-'));
    try {
      const file = join(directory, 'flow.arazzo.yaml');
      await writeFile(file, 'arazzo: 1.0.1\ninfo: {title: t, version: "1"}\nworkflows:\n  - workflowId: w\n    steps:\n      - {stepId: a, operationId: getPet}\n');
      expect(await importArazzoLinks(file, [])).toEqual([]);
      const missing = await refusal(join(directory, 'nope.yaml'));
      expect(missing.message).toContain('ENOENT');
      expect(missing.option).toBe('arazzo');
    } finally {
      await rm(directory, { recursive: true, force: true });
    }
  });
});
