import type { ErrorObject } from 'ajv/dist/2020.js';

/** A schema failure named by the validator's own issue code. */
export interface SchemaRuleIssue {
  code: string;
  pointer: string;
  message: string;
}

interface SchemaRule {
  /**
  Matches the end of the failing keyword's `schemaPath`: the compiled validators inline the
  definitions of the document's parts, so only the end is stable.
  */
  schemaPath: RegExp;
  /** The issue for a failure at `pointer`. */
  issue(pointer: string): SchemaRuleIssue;
}

const BASE_URL = '/service/base_url';

/**
 * The spec's MUSTs that the JSON Schema carries (so that a schema-only validator enforces them too)
 * and that the reference validator also checks in code with a clearer message. Each maps the schema
 * keyword back to the code and pointer a user sees in section 9.1, so a finding reads the same
 * whichever check made it.
 */
const RULES: readonly SchemaRule[] = [
  {
    schemaPath: /\/\$defs\/url\/allOf\/0\/pattern$/,
    issue: (pointer) =>
      pointer === BASE_URL
        ? { code: 'service.base_url_insecure', pointer, message: 'must use https (http is allowed for loopback hosts only)' }
        : { code: 'url.invalid', pointer, message: 'is not an absolute http(s) URL' },
  },
  {
    schemaPath: /\/\$defs\/url\/allOf\/1\/pattern$/,
    issue: (pointer) =>
      pointer === BASE_URL
        ? { code: 'service.base_url_credentials', pointer, message: 'must not embed a user name or password; credentials travel in headers, never in the manifest' }
        : { code: 'url.invalid', pointer, message: 'must not embed a user name or password' },
  },
  {
    schemaPath: /\/properties\/base_url\/allOf\/0\/pattern$/,
    issue: (pointer) => ({ code: 'service.base_url_insecure', pointer, message: 'must use https (http is allowed for loopback hosts only)' }),
  },
  {
    schemaPath: /\/properties\/base_url\/allOf\/1\/pattern$/,
    issue: (pointer) => ({ code: 'service.base_url_invalid', pointer, message: 'must not have a query or fragment: tool paths are appended to it' }),
  },
  {
    schemaPath: /\/\$defs\/path\/not$/,
    issue: (pointer) => ({ code: 'path.dot_segment', pointer, message: 'has a "." or ".." segment, which would resolve outside service.base_url' }),
  },
  {
    schemaPath: /\/patternProperties\/[^/]*\/not$/,
    issue: (pointer) => ({ code: 'parameter.forbidden_header', pointer, message: 'cannot be a header parameter: the HTTP client sets it, or it carries credentials or cookies declared elsewhere' }),
  },
  {
    schemaPath: /\/then\/properties\/body_parameter\/false schema$/,
    issue: (pointer) => ({ code: 'tool.body_parameter_location', pointer, message: 'a GET or HEAD tool has no request body, so it cannot name a body_parameter' }),
  },
  {
    schemaPath: /\/then\/required$/,
    issue: (pointer) => ({
      code: 'auth.api_key_required',
      pointer: `${pointer}/api_key`,
      message: 'is required when type is "api_key": say where the key goes, for example {"in": "header", "name": "X-API-Key"}',
    }),
  },
];

/**
 * The issue a schema failure stands for when the spec names it (section 9.1), or undefined for a
 * plain `schema.<keyword>` failure. `if` failures are never findings of their own: the `then`
 * failure they come with says what is wrong.
 * @internal
 */
export function schemaRuleIssue(error: ErrorObject): SchemaRuleIssue | 'ignore' | undefined {
  if (error.keyword === 'if') return 'ignore';
  if (error.keyword === 'required' && (error.params as { missingProperty?: string }).missingProperty !== 'api_key' && error.schemaPath.endsWith('/then/required')) return undefined;
  const rule = RULES.find((candidate) => candidate.schemaPath.test(error.schemaPath));
  return rule?.issue(error.instancePath);
}
