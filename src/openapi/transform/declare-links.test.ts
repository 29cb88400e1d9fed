import { fileURLToPath } from 'node:url';
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
    const overlay = { tools: { listTransactions: { links: [{ tool: 'findAccount', parameters: { holder: '$arguments#/account_id' } }] }, findAccount: { links: [{ tool: 'findAccount', parameters: { holder: '$result#/holder' }, description: 'Again.' }] } } };
    const { manifest } = await generateManifest({ input: fixture, overlay });
    expect(manifest.tools.find((tool) => tool.id === 'listTransactions')?.links).toEqual(overlay.tools.listTransactions.links);
    expect(manifest.tools.find((tool) => tool.id === 'findAccount')?.links?.map((link) => link.description)).toEqual(["The account's transactions", undefined, 'Again.']);
  });
});
