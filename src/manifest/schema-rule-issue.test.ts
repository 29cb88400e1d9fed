import type { ErrorObject } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { schemaRuleIssue } from './schema-rule-issue.js';

function error(keyword: string, schemaPath: string, instancePath: string, params: Record<string, unknown> = {}): ErrorObject {
  return { keyword, schemaPath, instancePath, params } as ErrorObject;
}

describe('schemaRuleIssue', () => {
  it('names an insecure or credential-bearing base_url by its own code', () => {
    expect(schemaRuleIssue(error('pattern', '#/properties/service/properties/base_url/allOf/0/pattern', '/service/base_url'))).toMatchObject({
      code: 'service.base_url_insecure',
      pointer: '/service/base_url',
    });
    expect(schemaRuleIssue(error('pattern', '#/$defs/service/properties/base_url/allOf/1/pattern', '/service/base_url'))).toMatchObject({ code: 'service.base_url_invalid' });
    expect(schemaRuleIssue(error('pattern', '#/$defs/url/allOf/1/pattern', '/service/base_url'))).toMatchObject({ code: 'service.base_url_credentials' });
  });

  it('says url.invalid for the same URL rules elsewhere in the manifest', () => {
    expect(schemaRuleIssue(error('pattern', '#/$defs/url/allOf/0/pattern', '/service/docs_url'))).toMatchObject({ code: 'url.invalid', pointer: '/service/docs_url' });
    expect(schemaRuleIssue(error('pattern', '#/$defs/url/allOf/1/pattern', '/auth/token_url'))).toMatchObject({ code: 'url.invalid', message: expect.stringContaining('user name or password') });
  });

  it('maps dot segments, forbidden headers and a GET body_parameter', () => {
    expect(schemaRuleIssue(error('not', '#/$defs/path/not', '/tools/0/path'))).toMatchObject({ code: 'path.dot_segment', pointer: '/tools/0/path' });
    expect(schemaRuleIssue(error('not', '#/$defs/parameters/patternProperties/%5E(%3Fi)host%24/not', '/tools/0/parameters/Host'))).toMatchObject({ code: 'parameter.forbidden_header' });
    expect(schemaRuleIssue(error('false schema', '#/$defs/tool/then/properties/body_parameter/false schema', '/tools/2/body_parameter'))).toMatchObject({ code: 'tool.body_parameter_location' });
  });

  it('points a missing api_key at the member it wants, and leaves other then/required errors to the generic message', () => {
    expect(schemaRuleIssue(error('required', '#/properties/auth/then/required', '/auth', { missingProperty: 'api_key' }))).toMatchObject({ code: 'auth.api_key_required', pointer: '/auth/api_key' });
    expect(schemaRuleIssue(error('required', '#/properties/auth/then/required', '/auth', { missingProperty: 'flows' }))).toBeUndefined();
  });

  it('ignores the if keyword and returns nothing for errors no rule names', () => {
    expect(schemaRuleIssue(error('if', '#/$defs/tool/if', '/tools/0'))).toBe('ignore');
    expect(schemaRuleIssue(error('type', '#/$defs/tool/properties/id/type', '/tools/0/id'))).toBeUndefined();
  });
});
