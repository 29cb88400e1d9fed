import { describe, expect, it } from 'vitest';
import type { Manifest, Tool } from '../../manifest/manifest-v0.js';
import { computeFollowUps, MAX_FOLLOW_UPS } from './compute-follow-ups.js';

const getAccount: Tool = {
  id: 'get_account',
  path: '/accounts/{account_id}',
  method: 'GET',
  description: 'One account.',
  parameters: { account_id: { type: 'string', required: true, json_schema: { type: 'string', pattern: '^acc_[a-z0-9]+$' } }, expand: { type: 'boolean' } },
};
const findAccounts: Tool = {
  id: 'find_accounts',
  path: '/accounts',
  method: 'GET',
  description: 'Search accounts.',
  parameters: { holder: { type: 'string' } },
  links: [
    { tool: 'get_account', parameters: { account_id: '$item#/id' } },
    { tool: 'find_accounts', parameters: { holder: '$arguments#/holder' }, description: 'Search again.' },
  ],
};
const manifest: Manifest = { schema_version: '0.3.0', service: { name: 'Bank', base_url: 'https://bank.example' }, tools: [findAccounts, getAccount] };

describe('computeFollowUps', () => {
  it('offers one follow-up per item and one from the arguments', () => {
    const items = [{ id: 'acc_1' }, { id: 'acc_2' }];
    const { next, refused } = computeFollowUps({ tool: findAccounts, manifest, data: { accounts: items }, items, args: { holder: 'Ada' } });
    expect(next).toEqual([
      { tool: 'get_account', arguments: { account_id: 'acc_1' } },
      { tool: 'get_account', arguments: { account_id: 'acc_2' } },
      { tool: 'find_accounts', arguments: { holder: 'Ada' }, description: 'Search again.' },
    ]);
    expect(refused).toEqual([]);
  });

  it('refuses a missing value and a value failing the target schema, saying which link and parameter', () => {
    const items = [{ name: 'no id' }, { id: 'ACC-1; DROP' }, { id: { $ne: null } }];
    const { next, refused } = computeFollowUps({ tool: findAccounts, manifest, data: items, items, args: {} });
    expect(next).toEqual([]);
    expect(refused).toEqual([
      expect.objectContaining({ tool: 'get_account', link: 0, parameter: 'account_id', expression: '$item#/id', reason: 'the item has no value at "/id"' }),
      expect.objectContaining({ link: 0, parameter: 'account_id', reason: expect.stringContaining("fails get_account's schema: /account_id must match pattern") }),
      expect.objectContaining({ link: 0, parameter: 'account_id', reason: expect.stringContaining('must be string') }),
      expect.objectContaining({ tool: 'find_accounts', link: 1, parameter: 'holder', reason: 'the arguments have no value at "/holder"' }),
    ]);
  });

  it(`never offers more than ${MAX_FOLLOW_UPS} follow-ups, whatever the page size`, () => {
    const items = Array.from({ length: 500 }, (_, index) => ({ id: `acc_${index}` }));
    const { next } = computeFollowUps({ tool: findAccounts, manifest, data: items, items, args: { holder: 'Ada' } });
    expect(next).toHaveLength(MAX_FOLLOW_UPS);
    expect(next.at(-1)).toEqual({ tool: 'get_account', arguments: { account_id: `acc_${MAX_FOLLOW_UPS - 1}` } });
  });

  it('reads own members only: a pointer never reaches a prototype', () => {
    const { next, refused } = computeFollowUps({
      tool: { id: 'x', links: [{ tool: 'get_account', parameters: { account_id: '$result#/constructor/name' } }] },
      manifest,
      data: {},
      items: undefined,
      args: {},
    });
    expect(next).toEqual([]);
    expect(refused[0]?.reason).toBe('the result has no value at "/constructor/name"');
  });
});
