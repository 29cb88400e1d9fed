import { describe, expect, it } from 'vitest';
import { AicapError } from '../errors/aicap-error.js';
import { optionTerm } from '../errors/message-term.js';
import { OpenApiInvalidError } from './openapi-invalid-error.js';

describe('OpenApiInvalidError', () => {
  it('is an AicapError with code OPENAPI_INVALID that a caller can catch either way', () => {
    const error = new OpenApiInvalidError('the description is not OpenAPI 3.x or Swagger 2.0');
    expect(error).toBeInstanceOf(AicapError);
    expect(error).toBeInstanceOf(OpenApiInvalidError);
    expect(AicapError.isInstance(error)).toBe(true);
    expect(error.code).toBe('OPENAPI_INVALID');
    expect(error.name).toBe('OpenApiInvalidError');
  });

  it('starts the message with the file or URL concerned, and keeps it apart for programs', () => {
    const error = new OpenApiInvalidError('$ref "#/components/schemas/Missing" cannot be resolved', { location: 'specs/shop.yaml' });
    expect(error.message).toBe('specs/shop.yaml: $ref "#/components/schemas/Missing" cannot be resolved');
    expect(error.location).toBe('specs/shop.yaml');
  });

  it('lists every problem found, or the message alone when none are given (without the location)', () => {
    expect(new OpenApiInvalidError('bad', { location: 'a.json' }).problems).toEqual(['bad']);
    const problems = ['/paths/~1pets/get: responses is required', '/info: version is required'];
    expect(new OpenApiInvalidError(`${problems.length} problems`, { problems }).problems).toEqual(problems);
  });

  it('keeps the cause and the option it concerns, and omits them when not given', () => {
    const cause = new SyntaxError('Unexpected token } in JSON at position 12');
    const error = new OpenApiInvalidError('the description is not valid JSON', { cause, option: 'input' });
    expect(error.cause).toBe(cause);
    expect(error.option).toBe('input');
    const bare = new OpenApiInvalidError('x');
    expect(bare.cause).toBeUndefined();
    expect(bare.option).toBeUndefined();
    expect(bare.location).toBeUndefined();
  });

  it('keeps the terms of a worded message, prefixed by the location', () => {
    const error = new OpenApiInvalidError({ text: 'the `strict` option refused 3 problems', terms: [optionTerm('strict')] }, { location: 'shop.json' });
    expect(error.message).toBe('shop.json: the `strict` option refused 3 problems');
    expect(error.terms).toHaveLength(1);
    expect(error.option).toBe('strict');
  });
});
