import { describe, expect, it } from 'vitest';
import type { CatalogTool } from '../tools/create-catalog.js';
import { callNeedsApproval, type AgentToolOptions } from './agent-tool-options.js';

// Which calls an agent framework must get approved by its user: the manifest's and caller's marks
// always, the adapter's `needsApproval` only to add more, and only a `true` from it counts.

const tool = (requiresApproval: boolean) => ({ name: 'bank__transfer', requiresApproval }) as CatalogTool;
const options = (needsApproval?: AgentToolOptions['needsApproval']) => ({ client: {} as AgentToolOptions['client'], ...(needsApproval ? { needsApproval } : {}) });

describe('callNeedsApproval', () => {
  it.each<[string, boolean, AgentToolOptions['needsApproval'], boolean]>([
    ['a marked tool, no predicate', true, undefined, true],
    ['a marked tool the predicate waves through (it cannot lift a mark)', true, () => false, true],
    ['an unmarked tool, no predicate', false, undefined, false],
    ['an unmarked tool the predicate adds', false, () => true, true],
    ['an unmarked tool the predicate answers truthy but not true', false, (() => 'yes') as never, false],
  ])('%s → %s', (_case, marked, needsApproval, expected) => {
    expect(callNeedsApproval(options(needsApproval), tool(marked), { amount: 5 })).toBe(expected);
  });

  it('hands the predicate the arguments, or an empty object for anything that is not one', () => {
    const seen: unknown[] = [];
    const predicate = (_tool: CatalogTool, args: Record<string, unknown>) => (seen.push(args), false);
    for (const args of [{ amount: 5 }, null, [1], 'amount=5', undefined]) callNeedsApproval(options(predicate), tool(false), args);
    expect(seen).toEqual([{ amount: 5 }, {}, {}, {}, {}]);
  });

  it('does not ask the predicate about a tool that needs approval anyway', () => {
    let asked = 0;
    callNeedsApproval(
      options(() => (asked++, false)),
      tool(true),
      {},
    );
    expect(asked).toBe(0);
  });
});
