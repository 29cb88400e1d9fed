import { describe, expect, it } from 'vitest';
import { pageBridgeTools } from './page-bridge-tools.js';

const tools = Array.from({ length: 7 }, (_, index) => `tool${index}`);

function refusal(cursor: unknown, entries: readonly string[] = tools): { code?: string; message: string } {
  try {
    pageBridgeTools(entries, cursor, 3);
  } catch (error) {
    return error as { code?: string; message: string };
  }
  throw new Error('expected INVALID_ARGUMENT');
}

describe('pageBridgeTools', () => {
  it('lists everything in one page without a page size', () => {
    expect(pageBridgeTools(tools, undefined, undefined)).toEqual({ tools });
  });

  it('walks the list page by page with the cursors it issued, ending without a cursor', () => {
    const seen: string[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < 10; page++) {
      const result = pageBridgeTools(tools, cursor, 3);
      seen.push(...result.tools);
      cursor = result.nextCursor;
      if (cursor === undefined) break;
    }
    expect(seen).toEqual(tools);
    expect(cursor).toBeUndefined();
  });

  it('gives no cursor when the last page is exactly full', () => {
    expect(pageBridgeTools(tools.slice(0, 6), pageBridgeTools(tools.slice(0, 6), undefined, 3).nextCursor, 3)).toEqual({ tools: ['tool3', 'tool4', 'tool5'] });
  });

  it('refuses a cursor it did not issue, a forged or oversized one, and one of another type', () => {
    for (const cursor of [
      'garbage',
      Buffer.from('tools-offset:-1').toString('base64url'),
      Buffer.from('tools-offset:1e3').toString('base64url'),
      Buffer.from(`tools-offset:${'9'.repeat(10)}`).toString('base64url'),
      'A'.repeat(65),
      3,
      null,
    ]) {
      expect(refusal(cursor).code).toBe('INVALID_ARGUMENT');
    }
  });

  it('refuses a cursor past the end after the list shrank, and accepts one at the end', () => {
    const cursor = pageBridgeTools(tools, undefined, 6).nextCursor;
    expect(refusal(cursor, tools.slice(0, 5)).message).toContain('list again without a cursor');
    expect(pageBridgeTools(tools.slice(0, 6), cursor, 3)).toEqual({ tools: [] });
  });
});
