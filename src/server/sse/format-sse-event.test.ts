import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { describe, expect, it } from 'vitest';
import { formatSseComment, formatSseEvent, formatSseRetry } from './format-sse-event.js';

function parse(text: string): { events: EventSourceMessage[]; retry: number | undefined } {
  const events: EventSourceMessage[] = [];
  let retry: number | undefined;
  const parser = createParser({ onEvent: (event) => events.push(event), onRetry: (value) => (retry = value) });
  parser.feed(text);
  return { events, retry };
}

describe('formatSseEvent', () => {
  it('round-trips through an SSE parser with id, name and JSON data, line breaks in strings included', () => {
    const data = { message: 'two\nlines\r\nand \u2028 more', nested: [1, { a: null }] };
    const { events } = parse(formatSseEvent(7, 'warning', data) + formatSseEvent(8, 'status', 'done'));
    expect(events.map((event) => [event.id, event.event, JSON.parse(event.data) as unknown])).toEqual([
      ['7', 'warning', data],
      ['8', 'status', 'done'],
    ]);
  });

  it('writes comments readers ignore, even with line breaks in them, and a retry hint', () => {
    const { events, retry } = parse(formatSseComment('heart\nbeat') + formatSseRetry(1500.7) + formatSseEvent(1, 'status', {}));
    expect(events).toHaveLength(1);
    expect(retry).toBe(1500);
    expect(formatSseComment('heart\nbeat')).toBe(': heart beat\n\n');
  });
});
