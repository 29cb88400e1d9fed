import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { validateManifest } from '../../manifest/validate-manifest.js';
import { generateManifest } from '../generate-manifest.js';

const fixture = fileURLToPath(new URL('../../../test/fixtures/links/accounts.openapi.yaml', import.meta.url));

describe('response links become manifest links', () => {
  it('maps operationId and local operationRef links, body and request expressions, and reports what it cannot map', async () => {
    const { manifest, warnings } = await generateManifest({ input: fixture });
    expect(validateManifest(manifest).valid).toBe(true);
    const find = manifest.tools.find((tool) => tool.id === 'findAccount');
    expect(find?.links).toEqual([
      { tool: 'listTransactions', parameters: { account_id: '$result#/id' }, description: "The account's transactions" },
      { tool: 'listTransactions', parameters: { account_id: '$result#/id', since: '$arguments#/holder' } },
    ]);
    const findings = warnings.filter((warning) => warning.code === 'link.unsupported').map((warning) => `${warning.where}: ${warning.message}`);
    expect(findings).toEqual([
      expect.stringMatching(/^GET \/accounts responses\.200\.links\.HeaderBased: cannot map "account_id" \("\$response\.header\.Location" is not .*; the link was left out$/),
      expect.stringMatching(/^GET \/accounts responses\.200\.links\.Missing: operationId "closeAccount" names no mapped operation; the link was left out$/),
      expect.stringMatching(/^GET \/accounts: the link to listTransactions was left out: "\$result#\/account_id" names "account_id", which returns\.schema does not declare$/),
    ]);
  });

  it('lets an overlay add links to the generated ones', async () => {
    const overlay = {
      tools: {
        listTransactions: { links: [{ tool: 'findAccount', parameters: { holder: '$arguments#/account_id' } }] },
        findAccount: { links: [{ tool: 'findAccount', parameters: { holder: '$result#/holder' }, description: 'Again.' }] },
      },
    };
    const { manifest } = await generateManifest({ input: fixture, overlay });
    expect(manifest.tools.find((tool) => tool.id === 'listTransactions')?.links).toEqual(overlay.tools.listTransactions.links);
    expect(manifest.tools.find((tool) => tool.id === 'findAccount')?.links?.map((link) => link.description)).toEqual(["The account's transactions", undefined, 'Again.']);
  });
});

describe('Arazzo steps become links', () => {
  const arazzo = fileURLToPath(new URL('../../../test/fixtures/links/accounts.arazzo.yaml', import.meta.url));

  it('links a step to the one its output feeds, one to one, and reports the rest', async () => {
    // The description without its own response links: what remains comes from the workflow.
    const description = parse(await readFile(fixture, 'utf8')) as { paths: Record<string, { get: { responses: Record<string, { links?: unknown }> } }> };
    delete description.paths['/accounts']!.get.responses['200']!.links;
    const { manifest, warnings } = await generateManifest({ input: description, arazzo });
    expect(manifest.tools.find((tool) => tool.id === 'findAccount')?.links).toEqual([{ tool: 'listTransactions', parameters: { account_id: '$result#/id' } }]);
    const arazzoFindings = warnings.filter((warning) => warning.code === 'arazzo.unsupported').map((warning) => `${warning.where}: ${warning.message}`);
    expect(arazzoFindings).toEqual([
      'arazzo reviewAccount.transactions: parameter "since" takes "$steps.find.outputs.location", which is not a response-body output of an earlier step; it was not imported',
      'arazzo reviewAccount.again: the step runs a workflow or names no operation (operationId or operationPath); links to it cannot be imported',
    ]);
  });

  it('refuses a document that is not Arazzo, and a bad option, naming it', async () => {
    await expect(generateManifest({ input: fixture, arazzo: fixture })).rejects.toMatchObject({ code: 'OPENAPI_INVALID', message: expect.stringContaining('is not an Arazzo 1.x document') });
    await expect(generateManifest({ input: fixture, arazzo: 42 as never })).rejects.toMatchObject({ code: 'INVALID_OPTION', option: 'arazzo' });
    await expect(generateManifest({ input: fixture, arazzo: `${arazzo}.missing` })).rejects.toMatchObject({
      code: 'OPENAPI_INVALID',
      option: 'arazzo',
      message: expect.stringContaining('cannot be read (ENOENT)'),
    });
  });

  it('refuses an Arazzo document whose workflows or steps are malformed instead of importing nothing', async () => {
    const malformed = async (document: Record<string, unknown>) => generateManifest({ input: fixture, arazzo: { arazzo: '1.0.1', ...document } });
    await expect(malformed({ workflows: 'x' })).rejects.toMatchObject({ code: 'OPENAPI_INVALID', option: 'arazzo', message: expect.stringContaining('non-empty `workflows` list') });
    await expect(malformed({ workflows: [] })).rejects.toMatchObject({ code: 'OPENAPI_INVALID', option: 'arazzo' });
    await expect(malformed({ workflows: [{ workflowId: 'w' }] })).rejects.toMatchObject({ code: 'OPENAPI_INVALID', message: expect.stringContaining('/workflows/0 is not an Arazzo workflow') });
    await expect(malformed({ workflows: [{ workflowId: 'w', steps: ['x'] }] })).rejects.toMatchObject({ code: 'OPENAPI_INVALID', message: expect.stringContaining('/workflows/0/steps/0') });
  });
});
