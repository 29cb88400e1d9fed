import { describe, expect, it } from 'vitest';
import { acceptsEventStream } from './accepts-event-stream.js';

describe('acceptsEventStream', () => {
  it.each([
    ['text/event-stream', true],
    ['application/json, Text/Event-Stream;q=0.5', true],
    ['text/event-stream;q=0', false],
    ['text/event-stream; q = 0.0', false],
    ['application/json', false],
    ['*/*', false],
    ['', false],
  ])('%j → %s', (accept, expected) => {
    expect(acceptsEventStream(new Request('http://localhost/', { headers: { Accept: accept } }))).toBe(expected);
  });
});
