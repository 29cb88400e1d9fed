import { describe, expect, it } from 'vitest';
import { ManifestValidationError } from './manifest-validation-error.js';
import type { ValidationIssue } from './validation-issue.js';

const issue = (pointer: string, code: string, severity: ValidationIssue['severity'] = 'error'): ValidationIssue => ({ pointer, code, message: `${code} at ${pointer || 'root'}`, severity });

describe('ManifestValidationError', () => {
  it.each([
    {
      name: 'one error with its pointer, code and message',
      issues: [issue('/tools/0/id', 'schema.pattern')],
      expected: 'Manifest is invalid: /tools/0/id schema.pattern: schema.pattern at /tools/0/id',
    },
    { name: '(root) for the whole document', issues: [issue('', 'schema.type')], expected: 'Manifest is invalid: (root) schema.type: schema.type at root' },
    {
      name: 'errors only, warnings left out of the message',
      issues: [issue('/a', 'style.long', 'warning'), issue('/b', 'id.duplicate')],
      expected: 'Manifest is invalid: /b id.duplicate: id.duplicate at /b',
    },
    {
      name: 'the first five errors and how many more',
      issues: Array.from({ length: 8 }, (_, index) => issue(`/tools/${index}`, 'schema.required')),
      expected: `Manifest is invalid: ${Array.from({ length: 5 }, (_, index) => `/tools/${index} schema.required: schema.required at /tools/${index}`).join('; ')} (and 3 more)`,
    },
  ])('lists $name', ({ issues, expected }) => {
    expect(new ManifestValidationError(issues).message).toBe(expected);
  });

  it('keeps every finding, warnings included, for the caller', () => {
    const issues = [issue('/a', 'style.long', 'warning'), ...Array.from({ length: 7 }, (_, index) => issue(`/t/${index}`, 'x'))];
    expect(new ManifestValidationError(issues).issues).toEqual(issues);
  });

  it.each([
    { context: 'Manifest from https://api.example.com/.well-known/ai-capabilities', code: undefined, expectedCode: 'MANIFEST_INVALID' },
    { context: 'Manifest', code: 'MANIFEST_UNSUPPORTED_VERSION' as const, expectedCode: 'MANIFEST_UNSUPPORTED_VERSION' },
  ])('names the document ($context) and carries $expectedCode', ({ context, code, expectedCode }) => {
    const error = new ManifestValidationError([issue('/schema_version', 'version.major')], context, code);
    expect(error.message.startsWith(`${context} is invalid: /schema_version`)).toBe(true);
    expect(error).toMatchObject({ code: expectedCode, name: 'ManifestValidationError' });
  });
});
