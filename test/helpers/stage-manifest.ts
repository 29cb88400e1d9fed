import type { Manifest } from '../../src/manifest/manifest-v0.js';

/** A small manifest for the unit tests of the flow stages: a paginated read, a consequential write and a resource. */
export function stageManifest(): Manifest {
  return {
    schema_version: '0.1',
    service: { name: 'Payments', description: 'Payments for stage tests.', base_url: 'https://api.example.test/v1' },
    tools: [
      {
        id: 'listPayments',
        path: '/payments',
        method: 'GET',
        description: 'Lists payments, newest first.',
        parameters: { limit: { type: 'integer', in: 'query' }, cursor: { type: 'string', in: 'query' } },
        returns: { type: 'object', pagination: { style: 'cursor', parameter: 'cursor', next_field: 'next', items_field: 'data' } },
      },
      {
        id: 'createPayment',
        path: '/payments',
        method: 'POST',
        description: 'Creates a payment.',
        parameters: { amount: { type: 'integer', required: true, in: 'body' } },
        idempotency_key_header: 'Idempotency-Key',
      },
      { id: 'deletePayment', path: '/payments/{id}', method: 'DELETE', description: 'Deletes a payment.', parameters: { id: { type: 'string', required: true, in: 'path' } }, idempotent: false },
    ],
    resources: [{ id: 'terms', path: '/terms', description: 'The terms of service.' }],
    policy: { human_approval_required: ['createPayment'], max_actions_per_session: 2 },
  } as unknown as Manifest;
}
