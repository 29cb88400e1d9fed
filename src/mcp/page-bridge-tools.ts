import { AicapError } from '../errors/aicap-error.js';

const CURSOR_PREFIX = 'tools-offset:';

/**
 * One page of `tools/list` (MCP pagination): `cursor` is the opaque `nextCursor` of the page before,
 * absent for the first page. A cursor this bridge did not issue is refused (the caller answers
 * `InvalidParams`); without `pageSize` everything is one page.
 * @internal
 */
export function pageBridgeTools<Entry>(entries: readonly Entry[], cursor: unknown, pageSize: number | undefined): { tools: Entry[]; nextCursor?: string } {
  const offset = cursor === undefined ? 0 : decodeCursor(cursor);
  if (offset > entries.length) throw new AicapError('INVALID_ARGUMENT', 'The tools/list cursor points past the end of the list (the tools changed since): list again without a cursor.');
  if (pageSize === undefined) return { tools: entries.slice(offset) };
  const end = offset + pageSize;
  return { tools: entries.slice(offset, end), ...(end < entries.length ? { nextCursor: Buffer.from(`${CURSOR_PREFIX}${end}`).toString('base64url') } : {}) };
}

function decodeCursor(cursor: unknown): number {
  const text = typeof cursor === 'string' && cursor.length <= 64 ? Buffer.from(cursor, 'base64url').toString('utf8') : '';
  const match = /^tools-offset:(\d{1,9})$/.exec(text);
  if (!match) throw new AicapError('INVALID_ARGUMENT', 'The tools/list cursor is not one this bridge issued: pass the nextCursor of the previous page, or no cursor for the first page.');
  return Number(match[1]);
}
