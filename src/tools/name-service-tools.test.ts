import { describe, expect, it } from 'vitest';
import type { Manifest } from '../manifest/manifest-v0.js';
import { nameServiceTools, serviceToolKey, type NamedService } from './name-service-tools.js';
import { TOOL_NAME_PATTERN } from './sanitize-tool-name.js';

function service(namespace: string, ids: string[], resourceIds: string[] = []): NamedService {
  return {
    manifestUrl: `https://${namespace}.example.com/.well-known/ai-capabilities`,
    namespace,
    manifest: { tools: ids.map((id) => ({ id })), resources: resourceIds.map((id) => ({ id })) } as unknown as Pick<Manifest, 'tools' | 'resources'>,
  };
}

describe('nameServiceTools', () => {
  it('uses the plain id when one service is loaded, tools and resources alike', () => {
    const payments = service('payments', ['create_payment'], ['payment_receipt']);
    const names = nameServiceTools([payments]);
    expect(names.get(serviceToolKey(payments, 'create_payment'))).toBe('create_payment');
    expect(names.get(serviceToolKey(payments, 'payment_receipt'))).toBe('payment_receipt');
  });

  it('prefixes the namespace when several are loaded, keeping equal ids of different services apart', () => {
    const payments = service('payments', ['search']);
    const mail = service('mail', ['search']);
    const names = nameServiceTools([payments, mail]);
    expect(names.get(serviceToolKey(payments, 'search'))).toBe('payments__search');
    expect(names.get(serviceToolKey(mail, 'search'))).toBe('mail__search');
  });

  it('gives every name the pattern all LLM APIs accept, at most 64 characters, all different', () => {
    const odd = service('ünïcode-api', ['a.b', 'a_b', '1st', 'x'.repeat(100), `${'x'.repeat(100)}y`, 'ok']);
    const names = [...nameServiceTools([odd, service('other', ['ok'])]).values()];
    for (const name of names) expect(name).toMatch(TOOL_NAME_PATTERN);
    expect(new Set(names).size).toBe(names.length);
  });

  it('depends on the services and their order only: the same input gives the same names', () => {
    const first = nameServiceTools([service('a', ['x.y', 'x_y']), service('b', ['z'])]);
    const second = nameServiceTools([service('a', ['x.y', 'x_y']), service('b', ['z'])]);
    expect([...first]).toEqual([...second]);
  });

  it('names nothing for no services', () => {
    expect(nameServiceTools([]).size).toBe(0);
  });
});
