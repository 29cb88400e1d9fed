import type { Tool } from '../../src/manifest/manifest-v0.js';

/** Four tools on one resource (list, read, delete, create orders), for unit tests of the selection stages. */
export const ORDER_TOOLS: ReadonlyArray<Partial<Tool> & { id: string; description: string }> = [
  { id: 'list_orders', description: 'Lists the orders of the shop.', method: 'GET', path: '/orders', parameters: { status: { type: 'string' } } },
  {
    id: 'get_order',
    description: 'Reads one order.',
    method: 'GET',
    path: '/orders/{order_id}',
    parameters: { order_id: { type: 'string', required: true } },
    intent: { when: 'The user asks about one order.', avoid_when: 'The user wants a refund.' },
  },
  { id: 'delete_order', description: 'Cancels and deletes an order.', method: 'DELETE', path: '/orders/{order_id}', parameters: { order_id: { type: 'string', required: true } } },
  { id: 'create_order', description: 'Places a new order.', method: 'POST', path: '/orders' },
];
