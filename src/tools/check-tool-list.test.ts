import { describe, expect, it } from 'vitest';
import { catalogOf } from '../../test/helpers/catalog-of.js';
import { paymentsManifest } from '../../test/helpers/client-manifests.js';
import { createToolSearch } from './create-tool-search.js';
import { exportTools } from './export-tools.js';
import { scanToolsForModel } from './scan-tools-for-model.js';
import { selectTools } from './select-tools.js';
import { selectToolsWithEmbeddings } from './selection/select-tools-with-embeddings.js';
import { restoreSelectionIndex, serializeSelectionIndex } from './selection/serialize-selection-index.js';

// Every public function of aicap/tools that takes a tool list, called with what it was given.
const ENTRY_POINTS: Array<[string, (tools: unknown) => unknown]> = [
  ['selectTools', (tools) => selectTools(tools as never, 'refund a payment')],
  ['selectToolsWithEmbeddings', (tools) => selectToolsWithEmbeddings(tools as never, 'refund a payment', { embed: async (texts) => texts.map(() => [1, 0]) })],
  ['exportTools', (tools) => exportTools(tools as never, 'openai')],
  ['scanToolsForModel', (tools) => scanToolsForModel(tools as never)],
  ['serializeSelectionIndex', (tools) => serializeSelectionIndex(tools as never)],
  ['restoreSelectionIndex', (tools) => restoreSelectionIndex(tools as never, serializeSelectionIndex(catalogOf(paymentsManifest('https://api.example.com'))))],
];

async function errorOf(call: () => unknown): Promise<unknown> {
  try {
    await call();
  } catch (error) {
    return error;
  }
  return undefined;
}

describe('tool list checks of the aicap/tools entry points', () => {
  const manifest = paymentsManifest('https://api.example.com');

  it.each(ENTRY_POINTS)('%s refuses a manifest’s tool definitions with INVALID_ARGUMENT naming the element and how to build a catalog', async (name, call) => {
    const error = await errorOf(() => call(manifest.tools));
    expect(error).toMatchObject({ name: 'AicapError', code: 'INVALID_ARGUMENT' });
    const message = (error as Error).message;
    expect(message).toContain(`${name} needs an array of catalog tools`);
    expect(message).toContain(`tools[0] is a manifest tool definition (id ${JSON.stringify(manifest.tools[0]!.id)})`);
    expect(message).toContain('client.catalog().tools, or createCatalog(services).tools');
  });

  it.each(ENTRY_POINTS)('%s refuses a list with a null or a foreign object in it, naming its index', async (_name, call) => {
    const tools = catalogOf(manifest);
    expect(await errorOf(() => call([...tools, null]))).toMatchObject({ code: 'INVALID_ARGUMENT', message: expect.stringContaining(`tools[${tools.length}] is null`) });
    expect(await errorOf(() => call([{ name: 'x' }]))).toMatchObject({ code: 'INVALID_ARGUMENT', message: expect.stringContaining('tools[0] is an object without the fields of a catalog tool') });
  });

  it('still accepts catalog tools, also when checked a second time', () => {
    const tools = catalogOf(manifest);
    expect(selectTools(tools, 'refund a payment').length).toBeGreaterThan(0);
    expect(exportTools(tools, 'openai').tools).toHaveLength(tools.length);
  });

  it('createToolSearch refuses a manifest’s tool definitions as its `tools` option with INVALID_OPTION', () => {
    expect(() => createToolSearch({ tools: manifest.tools as never })).toThrow(
      expect.objectContaining({ code: 'INVALID_OPTION', option: 'tools', message: expect.stringContaining('tools[0] is a manifest tool definition') }),
    );
  });
});
