import { describe, expect, it } from 'vitest';
import { catalogOf } from '../../../test/helpers/catalog-of.js';
import { smallManifest } from '../../../test/helpers/client-manifests.js';
import { ORDER_TOOLS } from '../../../test/helpers/order-tools.js';
import type { Tool } from '../../manifest/manifest-v0.js';
import { parseRequest } from './parse-request.js';
import { scoreTools } from './score-tools.js';
import { indexFor } from './tool-index.js';

type ToolSpec = Partial<Tool> & { id: string; description: string };

function scorer(tools: ToolSpec[]): (request: string, avoidPenalty?: number) => Record<string, number> {
  const catalog = catalogOf(smallManifest('shop', 'https://api.example.com', tools));
  const index = indexFor(catalog);
  return (request, avoidPenalty = 0.6) => {
    const scores = scoreTools(index, parseRequest(request, index.vocabulary), avoidPenalty);
    return Object.fromEntries(catalog.map((tool, position) => [tool.id, scores[position]!]));
  };
}

describe('scoreTools', () => {
  const score = scorer([
    ...ORDER_TOOLS.filter((tool) => tool.id !== 'create_order'),
    { id: 'list_stargazers', description: 'Lists the users who starred a repository.', method: 'GET', path: '/repos/{repo}/stargazers', parameters: { repo: { type: 'string', required: true } } },
    {
      id: 'refund_payment',
      description: 'Refunds a card payment.',
      method: 'POST',
      path: '/payments/{payment_id}/refunds',
      parameters: { payment_id: { type: 'string', required: true } },
      intent: { when: 'The customer wants their money back.', avoid_when: 'The order has not shipped yet: cancel the order instead.' },
    },
  ]);

  it('gives 0 to a tool nothing in the request matches', () => {
    const scores = score('delete order 42');
    expect(scores['list_stargazers']).toBe(0);
    expect(Object.values(score('zzzz qqqq')).every((value) => value === 0)).toBe(true);
  });

  it('lifts the tool whose action class fits the verb: delete for "delete", read for "show"', () => {
    const deleting = score('delete order 42');
    expect(deleting['delete_order']).toBeGreaterThan(deleting['get_order']!);
    const reading = score('show me order 42');
    expect(reading['get_order']).toBeGreaterThan(reading['delete_order']!);
  });

  it('lowers the item endpoint for a plural, and lifts it relative to the collection for a reference with a value', () => {
    expect(score('list my orders')['get_order']).toBeLessThan(score('list my order')['get_order']!);
    expect(score('list my orders')['list_orders']).toBe(score('list my order')['list_orders']);
    const ratio = (scores: Record<string, number>): number => scores['get_order']! / scores['list_orders']!;
    expect(ratio(score('show order 42'))).toBeGreaterThan(ratio(score('show my order')));
  });

  it('matches a word that is a prefix of a tool’s word, below an exact match', () => {
    const scores = score('who starred my repository');
    expect(scores['list_stargazers']).toBeGreaterThan(0);
    const prefix = score('stargaze on my repository');
    expect(prefix['list_stargazers']).toBeGreaterThan(0);
  });

  it('lowers a tool whose avoid_when the request matches, by the penalty given, and not at all with 0', () => {
    const request = 'refund the order, it has not shipped yet';
    const penalised = score(request, 0.6)['refund_payment']!;
    const heavier = score(request, 5)['refund_payment']!;
    const unpenalised = score(request, 0)['refund_payment']!;
    expect(unpenalised).toBeGreaterThan(penalised);
    // A penalty larger than the match leaves the score below 0: selectTools then leaves the tool out.
    expect(heavier).toBeLessThan(penalised);
  });

  it('is deterministic: the same request gives the same scores to the last bit', () => {
    expect(score('delete order 42')).toEqual(score('delete order 42'));
  });

  it('scores an empty index without failing', () => {
    const index = indexFor([]);
    expect(scoreTools(index, parseRequest('anything', index.vocabulary), 0.6)).toEqual(new Float64Array(0));
  });
});
