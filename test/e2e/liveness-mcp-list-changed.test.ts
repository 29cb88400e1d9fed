import { existsSync } from 'node:fs';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import { BUILT_CLI } from '../helpers/run-built-cli.js';
import { connectV1Host } from '../helpers/mcp-hosts.js';
import { feedManifest, startLivenessServer, type LivenessServer } from '../helpers/start-liveness-server.js';

let server: LivenessServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe.skipIf(!existsSync(BUILT_CLI))('aicap mcp forwarding manifest changes (run `npm run build` first)', () => {
  it('sends notifications/tools/list_changed to a connected host when the feed announces a removal, and the next list lacks the tool', async () => {
    server = await startLivenessServer('node:http', (origin) => feedManifest(origin, ['read_a', 'refund']));
    const { client } = await connectV1Host({ stdio: ['mcp', server.origin] });
    try {
      expect(client.getServerCapabilities()?.tools?.listChanged).toBe(true);
      const before = await client.listTools();
      expect(before.tools.map((tool) => tool.name).sort()).toEqual(['read_a', 'refund']);
      const deadline = Date.now() + 10_000;
      while (server.feed.subscriberCount === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
      const notified = new Promise<void>((resolve) => client.setNotificationHandler(ToolListChangedNotificationSchema, () => resolve()));
      await server.manifestHandler.update(feedManifest(server.origin, ['read_a']));
      await notified;
      const after = await client.listTools();
      expect(after.tools.map((tool) => tool.name)).toEqual(['read_a']);
      expect(server.hits.get('/refund')).toBeUndefined();
    } finally {
      await client.close();
    }
  }, 30_000);
});
