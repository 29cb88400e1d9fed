import { createClient } from 'aicap/client';
import { createTransformersEmbedder, selectToolsWithEmbeddings } from 'aicap/tools';

const client = createClient();
await client.discover('https://api.example.com');
const tools = client.catalog().tools; // keep the array: tool vectors are computed once per array
const embed = createTransformersEmbedder({ modelDirectory: '/opt/models' });
const best = await selectToolsWithEmbeddings(tools, 'stop the nightly export', { embed, limit: 5 });
console.log(best.map((selected) => selected.tool.name));
