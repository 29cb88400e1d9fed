import { describe, expect, it } from 'vitest';
import { isEventStream, isJsonMediaType, mediaTypeOf, parseMediaType } from './parse-media-type.js';

describe('parseMediaType', () => {
  it.each([
    ['application/json', { essence: 'application/json', parameters: {} }],
    ['Application/JSON ; Charset=UTF-8', { essence: 'application/json', parameters: { charset: 'UTF-8' } }],
    ['multipart/form-data; boundary="a;b\\"c"', { essence: 'multipart/form-data', parameters: { boundary: 'a;b"c' } }],
    ['text/plain; charset="utf-8"; charset=latin1; flag', { essence: 'text/plain', parameters: { charset: 'utf-8' } }],
    ['', { essence: '', parameters: {} }],
  ])('takes %j apart', (given, want) => {
    expect(parseMediaType(given)).toEqual(want);
  });

  it('reads an absent header as the empty essence', () => {
    expect(parseMediaType(null)).toEqual({ essence: '', parameters: {} });
    expect(parseMediaType(undefined).essence).toBe('');
  });
});

describe('mediaTypeOf', () => {
  it.each([
    ['Application/JSON ; charset=utf-8', 'application/json'],
    ['  text/event-stream', 'text/event-stream'],
    [null, ''],
    [undefined, ''],
  ])('reads %j as %j', (given, want) => {
    expect(mediaTypeOf(given)).toBe(want);
  });
});

describe('isJsonMediaType', () => {
  it.each([
    ['application/json', true],
    ['application/problem+json', true],
    ['application/ai-capabilities+json', true],
    ['application/jsonp', false],
    ['text/json-seq', false],
    ['', false],
  ])('%j → %j', (given, want) => {
    expect(isJsonMediaType(given)).toBe(want);
  });
});

describe('isEventStream', () => {
  it.each([
    ['text/event-stream', true],
    ['Text/Event-Stream; charset=utf-8', true],
    ['text/event-stream-x', false],
    ['application/json', false],
    [null, false],
  ])('%j → %j', (given, want) => {
    expect(isEventStream(given)).toBe(want);
  });
});
