import { ManifestParseError } from '../errors/manifest-parse-error.js';
import { toPointer } from '../internal/json-pointer.js';

// With the `u` flag a well-formed surrogate pair is one code point, so this matches only lone halves.
const LONE_SURROGATE = /[\uD800-\uDFFF]/u;
// Sticky, so it matches exactly at the current index without copying the rest of the text.
const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;

const ESCAPES: Record<string, string> = { '"': '"', '\\': '\\', '/': '/', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };

/**
 * The reference reader of untrusted JSON: every check of `parseJsonDocument`, one character at a time,
 * with the line, column and JSON Pointer of the first problem. `parseJsonDocument` builds values with
 * `JSON.parse` and comes here only when its cheaper checks see a problem, for this parser's message.
 * @internal
 */
export class StrictJsonParser {
  private index = 0;
  private readonly path: Array<string | number> = [];

  constructor(
    private readonly text: string,
    private readonly maxDepth: number,
  ) {}

  parseDocument(): unknown {
    this.skipWhitespace();
    if (this.index >= this.text.length) this.fail('Document is empty: expected a JSON value');
    const value = this.parseValue(0);
    this.skipWhitespace();
    if (this.index < this.text.length) this.fail('Unexpected content after the JSON value');
    return value;
  }

  private parseValue(depth: number): unknown {
    const character = this.text[this.index];
    switch (character) {
      case '{':
        return this.parseObject(depth + 1);
      case '[':
        return this.parseArray(depth + 1);
      case '"':
        return this.parseString();
      case 't':
        return this.parseLiteral('true', true);
      case 'f':
        return this.parseLiteral('false', false);
      case 'n':
        return this.parseLiteral('null', null);
      default:
        if (character === '-' || (character !== undefined && character >= '0' && character <= '9')) return this.parseNumber();
        return this.fail(character === undefined ? 'Unexpected end of input' : `Unexpected character ${JSON.stringify(character)}`);
    }
  }

  private checkDepth(depth: number): void {
    if (depth > this.maxDepth) this.fail(`Nesting is deeper than ${this.maxDepth} levels. Flatten the document or raise \`maxDepth\``, undefined, 'json.too_deep');
  }

  private parseObject(depth: number): Record<string, unknown> {
    this.checkDepth(depth);
    this.index++;
    const result: Record<string, unknown> = {};
    this.skipWhitespace();
    if (this.text[this.index] === '}') {
      this.index++;
      return result;
    }
    for (;;) {
      this.skipWhitespace();
      if (this.text[this.index] !== '"') this.fail('Expected a double-quoted property name');
      const keyStart = this.index;
      const key = this.parseString();
      if (key === '__proto__') {
        this.index = keyStart;
        this.fail('Property name "__proto__" is not allowed (prototype pollution)', key, 'json.forbidden_key');
      }
      if (Object.prototype.hasOwnProperty.call(result, key)) {
        this.index = keyStart;
        this.fail(`Duplicate property name ${JSON.stringify(key)}`, key, 'json.duplicate_key');
      }
      this.skipWhitespace();
      if (this.text[this.index] !== ':') this.fail('Expected ":" after the property name');
      this.index++;
      this.skipWhitespace();
      this.path.push(key);
      const valueStart = this.index;
      const value = this.parseValue(depth);
      if (key === 'constructor' && typeof value === 'object' && value !== null) {
        this.index = valueStart;
        this.fail('Property "constructor" holding an object is not allowed (prototype pollution)', undefined, 'json.forbidden_key');
      }
      this.path.pop();
      result[key] = value;
      this.skipWhitespace();
      const next = this.text[this.index];
      if (next === ',') {
        this.index++;
        continue;
      }
      if (next === '}') {
        this.index++;
        return result;
      }
      this.fail('Expected "," or "}" after a property value');
    }
  }

  private parseArray(depth: number): unknown[] {
    this.checkDepth(depth);
    this.index++;
    const result: unknown[] = [];
    this.skipWhitespace();
    if (this.text[this.index] === ']') {
      this.index++;
      return result;
    }
    for (;;) {
      this.skipWhitespace();
      this.path.push(result.length);
      result.push(this.parseValue(depth));
      this.path.pop();
      this.skipWhitespace();
      const next = this.text[this.index];
      if (next === ',') {
        this.index++;
        continue;
      }
      if (next === ']') {
        this.index++;
        return result;
      }
      this.fail('Expected "," or "]" after an array element');
    }
  }

  private parseString(): string {
    const text = this.text;
    let index = this.index + 1;
    let chunkStart = index;
    let result = '';
    for (;;) {
      const code = text.charCodeAt(index);
      if (Number.isNaN(code)) {
        this.index = index;
        this.fail('Unterminated string');
      }
      if (code === 0x22) {
        result += text.slice(chunkStart, index);
        if (LONE_SURROGATE.test(result)) {
          this.fail('String holds a lone UTF-16 surrogate (an unpaired \\uD800-\\uDFFF); such text cannot be encoded as UTF-8', undefined, 'json.invalid_unicode');
        }
        this.index = index + 1;
        return result;
      }
      if (code < 0x20) {
        this.index = index;
        this.fail('Control character in a string must be escaped');
      }
      if (code === 0x5c) {
        result += text.slice(chunkStart, index);
        const escape = text[index + 1];
        if (escape === 'u') {
          const hex = text.slice(index + 2, index + 6);
          if (!/^[0-9a-fA-F]{4}$/.test(hex)) {
            this.index = index;
            this.fail('Invalid \\u escape');
          }
          result += String.fromCharCode(Number.parseInt(hex, 16));
          index += 6;
        } else {
          const replacement = escape === undefined ? undefined : ESCAPES[escape];
          if (replacement === undefined) {
            this.index = index;
            this.fail('Invalid escape sequence');
          }
          result += replacement;
          index += 2;
        }
        chunkStart = index;
        continue;
      }
      index++;
    }
  }

  private parseNumber(): number {
    NUMBER.lastIndex = this.index;
    const match = NUMBER.exec(this.text);
    if (!match) this.fail('Invalid number');
    const value = Number(match[0]);
    // 1e309 and friends would silently become Infinity, which JSON cannot represent again.
    if (!Number.isFinite(value)) this.fail('Number is out of range of a double (IEEE 754 binary64)');
    this.index += match[0].length;
    return value;
  }

  private parseLiteral<T>(literal: string, value: T): T {
    if (this.text.startsWith(literal, this.index)) {
      this.index += literal.length;
      return value;
    }
    // Name what was found: a document that starts with "not json" is not a misspelt `null`.
    const found = /^[^\s,:{}[\]"]{1,20}/.exec(this.text.slice(this.index))?.[0] ?? this.text.slice(this.index, this.index + 1);
    return this.fail(`Unexpected token ${JSON.stringify(found)}: expected a JSON value (an object, array, string, number, true, false or null)`);
  }

  private skipWhitespace(): void {
    const text = this.text;
    let index = this.index;
    for (;;) {
      const code = text.charCodeAt(index);
      if (code === 0x20 || code === 0x0a || code === 0x0d || code === 0x09) index++;
      else break;
    }
    this.index = index;
  }

  private fail(reason: string, key?: string, issueCode = 'json.syntax'): never {
    const before = this.text.slice(0, this.index);
    const line = before.split('\n').length;
    const column = this.index - before.lastIndexOf('\n');
    const pointer = toPointer(key === undefined ? this.path : [...this.path, key]);
    throw new ManifestParseError(`Invalid JSON at line ${line}, column ${column}${pointer ? ` (${pointer})` : ''}: ${reason}.`, {
      pointer,
      position: { line, column },
      issueCode,
    });
  }
}
