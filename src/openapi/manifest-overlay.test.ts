import { describe, expect, it } from 'vitest';
import type { Manifest } from '../manifest/manifest-v0.js';
import { applyManifestOverlay, parseManifestOverlay } from './manifest-overlay.js';
import type { GeneratorWarning } from './transform/transform-context.js';

function manifest(): Manifest {
  return {
    schema_version: '0.1.0',
    service: { name: 'S', base_url: 'https://s.example.com' },
    tools: [
      { id: 'pay', path: '/pay', method: 'POST', description: 'Pay', parameters: { amount: { type: 'number', required: true } }, errors: { bad_request: { status: 400 } } },
      { id: 'list', path: '/list', method: 'GET', description: 'List' },
    ],
    auth: { type: 'oauth2', scopes: { write: ['pay'], read: ['list'] } },
    policy: { human_approval_required: ['pay'] },
  };
}

describe('applyManifestOverlay', () => {
  const cases: Array<[string, { overlay: string; want: (result: Manifest) => unknown; expected: unknown }]> = [
    ['sets a tool intent', { overlay: 'tools:\n  pay:\n    intent: { when: User pays }\n', want: (result) => result.tools[0]!.intent, expected: { when: 'User pays' } }],
    [
      'merges parameter fields by name',
      {
        overlay: 'tools:\n  pay:\n    parameters:\n      amount: { description: In cents }\n',
        want: (result) => result.tools[0]!.parameters,
        expected: { amount: { type: 'number', required: true, description: 'In cents' } },
      },
    ],
    [
      'merges and adds error contracts',
      {
        overlay: 'tools:\n  pay:\n    errors:\n      bad_request: { context: Check the amount }\n      declined: { status: 402 }\n',
        want: (result) => result.tools[0]!.errors,
        expected: { bad_request: { status: 400, context: 'Check the amount' }, declined: { status: 402 } },
      },
    ],
    ['removes approval for a tool', { overlay: 'tools:\n  pay:\n    human_approval_required: false\n', want: (result) => result.policy, expected: undefined }],
    [
      'excludes a tool and its scope entries',
      {
        overlay: 'tools:\n  pay:\n    exclude: true\n',
        want: (result) => [result.tools.map((tool) => tool.id), result.auth?.scopes, result.policy?.human_approval_required],
        expected: [['list'], { read: ['list'] }, undefined],
      },
    ],
    [
      'adds policy limits and redactions',
      {
        overlay: 'policy:\n  max_actions_per_session: 10\n  redact_from_logs: [card]\n',
        want: (result) => result.policy,
        expected: { human_approval_required: ['pay'], max_actions_per_session: 10, redact_from_logs: ['card'] },
      },
    ],
    [
      'sets service fields and versioning',
      { overlay: 'service: { description: Better }\nversioning: { current: 1.0.0 }\n', want: (result) => [result.service.description, result.versioning], expected: ['Better', { current: '1.0.0' }] },
    ],
    ['adds prompts', { overlay: 'prompts:\n  - { id: p, description: D, template: T }\n', want: (result) => result.prompts, expected: [{ id: 'p', description: 'D', template: 'T' }] }],
  ];
  it.each(cases)('%s', (_name, { overlay, want, expected }) => {
    const result = manifest();
    const warnings: GeneratorWarning[] = [];
    applyManifestOverlay(result, parseManifestOverlay(overlay), warnings);
    expect(want(result)).toEqual(expected);
    expect(warnings).toEqual([]);
  });

  it('warns about ids the manifest does not have', () => {
    const warnings: GeneratorWarning[] = [];
    applyManifestOverlay(manifest(), parseManifestOverlay('tools:\n  renamed: { description: X }\n'), warnings);
    expect(warnings).toEqual([expect.objectContaining({ code: 'overlay.unknown_id', where: 'overlay tools.renamed' })]);
  });
});

describe('parseManifestOverlay', () => {
  const cases: Array<[string, string, RegExp]> = [
    ['an unknown top-level key', 'tool:\n  pay: {}\n', /unknown overlay key "tool"/],
    ['tools that are not a mapping', 'tools: [1]\n', /`tools` must map ids to entries/],
    ['a tool entry that is not a mapping', 'tools:\n  pay: 3\n', /`tools.pay` must be a mapping/],
    ['broken YAML', 'tools: {\n', /not valid YAML/],
    ['a tool entry that moves the path', 'tools:\n  pay: { path: /elsewhere }\n', /`tools.pay.path` cannot be set by an overlay/],
  ];
  it.each(cases)('rejects %s with a clear error', (_name, text, message) => {
    expect(() => parseManifestOverlay(text, 'ai.overlay.yaml')).toThrow(expect.objectContaining({ code: 'OPENAPI_INVALID', message: expect.stringMatching(message) }));
  });
});
