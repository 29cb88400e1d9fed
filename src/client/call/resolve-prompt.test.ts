import { describe, expect, it } from 'vitest';
import type { Manifest, Prompt } from '../../manifest/manifest-v0.js';
import { thrownBy } from '../../../test/helpers/error-of.js';
import type { DiscoveredService } from '../shapes/client-types.js';
import { resolvePrompt } from './resolve-prompt.js';

const prompt = (id: string): Prompt => ({ id, description: `${id}.`, template: 'Hi.' }) as Prompt;
const service = (namespace: string, prompts: Prompt[]) => ({ namespace, manifest: { prompts } as unknown as Manifest }) as DiscoveredService;

const bank = service('bank', [prompt('summary'), prompt('audit')]);
const shop = service('shop', [prompt('summary')]);

describe('resolvePrompt', () => {
  it.each<[string, string, DiscoveredService, string]>([
    ['namespace__id', 'shop__summary', shop, 'summary'],
    ['an id only one service declares', 'audit', bank, 'audit'],
  ])('finds a prompt by %s', (_case, name, owner, id) => {
    expect(resolvePrompt([bank, shop], name)).toEqual({ service: owner, prompt: expect.objectContaining({ id }) });
  });

  it('refuses an id several services declare, listing the names to use', () => {
    expect(thrownBy(() => resolvePrompt([bank, shop], 'summary')).message).toBe('Prompt id "summary" is declared by several services; use one of: bank__summary, shop__summary.');
  });

  it.each(['nope', '__proto__', 'bank__nope', 'x'.repeat(10_000)])('refuses the unknown name %#, with a bounded message', (name) => {
    const error = thrownBy(() => resolvePrompt([bank, shop, service('empty', undefined as never)], name));
    expect(error.code).toBe('TOOL_NOT_FOUND');
    expect(error.message.length).toBeLessThan(200);
  });
});
