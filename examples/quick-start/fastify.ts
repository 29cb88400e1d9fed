import Fastify from 'fastify';
import { aicapPlugin } from 'aicap/fastify';

const app = Fastify();
await app.register(aicapPlugin, {
  manifest: { schema_version: '0.1.0', service: { name: 'Orders', base_url: 'https://orders.example.com' }, auth: { type: 'bearer' } },
  deriveTools: true, // every route with `config.ai` becomes a tool, parameters from its schema
});
const params = { type: 'object', properties: { id: { type: 'string' } } };
const ai = { id: 'get_order', description: 'Reads one order', scopes: ['read'] };
app.get('/orders/:id', { schema: { params }, config: { ai } }, async (request) => request.params);
await app.listen({ port: 3000 });
