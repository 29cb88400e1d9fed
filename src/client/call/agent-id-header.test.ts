import { describe, expect, it } from 'vitest';
import type { Manifest } from '../../manifest/manifest-v0.js';
import { agentIdHeader } from './agent-id-header.js';

const manifest = (agent_identification?: object): Manifest =>
  ({ schema_version: '0.1.0', service: { name: 'A', base_url: 'https://a.example' }, tools: [], ...(agent_identification ? { auth: { type: 'none', agent_identification } } : {}) }) as Manifest;

describe('agentIdHeader', () => {
  it('sends the id in the declared header, X-Agent-ID by default when required', () => {
    expect(agentIdHeader(manifest({ requires_agent_id: true }), 'https://a.example', 'bot-1')).toEqual({ name: 'X-Agent-ID', value: 'bot-1' });
    expect(agentIdHeader(manifest({ requires_agent_id: false, id_header: 'X-Bot' }), 'https://a.example', 'bot-1')).toEqual({ name: 'X-Bot', value: 'bot-1' });
    expect(agentIdHeader(manifest(), 'https://a.example', 'bot-1')).toBeUndefined();
  });

  it('refuses before sending when the service requires an id and none is set, naming the option', () => {
    expect(() => agentIdHeader(manifest({ requires_agent_id: true }), 'https://a.example', undefined)).toThrow(/pass the `agentId` option of `createClient`/);
  });
});
