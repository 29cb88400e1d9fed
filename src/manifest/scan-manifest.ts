import { fromPointer, toPointer } from '../internal/json-pointer.js';
import type { Manifest } from './manifest-v0.js';
import { BARE_CARRIAGE_RETURN, CONTROL, ESCAPE_SEQUENCE, INSTRUCTION_RULES, INVISIBLE, LOOKALIKE_LETTER, MIXED_SCRIPT_WORD, TAG, type ScanSeverity } from './poisoning-rules.js';
import { isDataMember, parseDefinitionReference } from './reachable-definitions.js';

export type { ScanSeverity } from './poisoning-rules.js';

/** One finding of the poisoning scan (the client's `TrustFinding` has this shape). */
export interface ScanFinding {
  /** Stable code, e.g. `text.invisible_character`, `text.instruction`. */
  code: string;
  /** JSON Pointer of the string in the manifest scanned. */
  pointer: string;
  /** The offending text, in full (invisible characters made visible as `\u{…}`). */
  text: string;
  severity: ScanSeverity;
  /** What is wrong, in a sentence. */
  message: string;
  /** Tool, resource or prompt id the string belongs to, when it belongs to one. */
  toolId?: string;
}

/** Options of {@link scanManifest}. */
export interface ScanManifestOptions {
  /**
  Longest text before it is reported as oversize (a common way to bury instructions), in characters.

  @default 2_000
  */
  maxTextLength?: number;
  /**
  Tool ids declared by *other* services loaded in the same client. A text that names one of them is a
  cross-service reference (tool shadowing).

  @default []
  */
  foreignToolIds?: Iterable<string>;
}

// Length of a run of either base64 alphabet that holds a payload worth decoding.
const MIN_BASE64_RUN = 40;
// Printable ASCII, tabs and line feeds only: no tag, invisible or control character (the tab and the
// line feed are ordinary text), and no letter of a look-alike script. Descriptions hold line feeds.
const PLAIN_TEXT = /^[\x20-\x7e\t\n]*$/;
// Which rules each literal can trigger, as a bit set over INSTRUCTION_RULES.
const RULES_BY_LITERAL = new Map<string, number>();
for (const [index, rule] of INSTRUCTION_RULES.entries()) for (const literal of rule.literals) RULES_BY_LITERAL.set(literal, (RULES_BY_LITERAL.get(literal) ?? 0) | (1 << index));
// One-character literals (`@`) are found by a native `includes` of their own: in the expression they
// would make the shortest match one character, which stops the engine from skipping ahead.
const SINGLE_CHARACTERS = [...RULES_BY_LITERAL].filter(([literal]) => literal.length === 1);
// Any longer literal, case-insensitively (`/i` without `u` folds ASCII letters only, so a match
// lower-cased is the literal itself), written as one alternation per first character: the engine then
// tries one branch per position instead of every literal.
const INSTRUCTION_TRIGGER = new RegExp(alternationByFirstCharacter([...RULES_BY_LITERAL.keys()].filter((literal) => literal.length > 1)), 'gi');

/** `a(?:bc|d)|x(?:yz)` for `abc`, `ad`, `xyz`: the same matches as the plain alternation when no literal begins another. */
function alternationByFirstCharacter(literals: readonly string[]): string {
  const rests = new Map<string, string[]>();
  for (const literal of literals) {
    const first = literal[0]!;
    const list = rests.get(first);
    if (list === undefined) rests.set(first, [literal.slice(1)]);
    else list.push(literal.slice(1));
  }
  return [...rests].map(([first, rest]) => `${escapeRegExp(first)}(?:${rest.map(escapeRegExp).join('|')})`).join('|');
}

/**
 * The rules whose literals occur in the text, as a bit set: one search for all literals, then only
 * those rules run (most texts of an API description hold none, and most that do hold only `http`).
 * Each search resumes one character after the last match, and no literal begins another, so every
 * occurrence of every literal is seen.
 */
function rulesTriggeredBy(text: string): number {
  let rules = 0;
  for (const [character, bits] of SINGLE_CHARACTERS) if (text.includes(character)) rules |= bits;
  INSTRUCTION_TRIGGER.lastIndex = 0;
  for (let match = INSTRUCTION_TRIGGER.exec(text); match !== null; match = INSTRUCTION_TRIGGER.exec(text)) {
    rules |= RULES_BY_LITERAL.get(match[0].toLowerCase())!;
    INSTRUCTION_TRIGGER.lastIndex = match.index + 1;
  }
  return rules;
}

/** A finding of one text, before it is placed (pointer, owner). */
interface TextHit {
  code: string;
  severity: ScanSeverity;
  message: string;
}

/** What a text yields, wherever it occurs: hits before and after the length check (which depends on the place). */
interface TextVerdict {
  before: readonly TextHit[];
  after: readonly TextHit[];
  /** The homoglyph word, whose severity depends on whether the text is a member name. */
  mixed: string | undefined;
}

const CLEAN: TextVerdict = { before: [], after: [], mixed: undefined };

/** What {@link scanManifest} found. */
export interface ScanManifestResult {
  findings: ScanFinding[];
  /** Strings and member names checked (repeats included). */
  scannedStrings: number;
}

/**
 * The poisoning scan: checks every string leaf *and every member name* of a manifest (descriptions,
 * intent, parameter names, enums, defaults, examples, error contexts, job event texts, extensions) for
 * invisible, tag and control characters (a bare carriage return and terminal escape sequences
 * included), mixed-script (homoglyph) words, instruction-like phrases, encoded payloads, oversize
 * text, references to other services' tools and ids that look like theirs (tool paths that escape
 * `base_url` are refused earlier, by `validateManifest`). Heuristic: a lint and an early warning,
 * never the only boundary.
 *
 * Linear in the manifest: each distinct text is checked once (member names and enum values repeat
 * thousands of times in large manifests), printable ASCII skips the character classes, one trigger
 * search gates the instruction rules, and JSON Pointers are built only for findings.
 *
 * Findings carry the JSON Pointer, the full text (invisible characters made visible) and the id of the
 * tool, resource or prompt the string belongs to.
 * @internal
 */
export function scanManifest(manifest: Manifest, options: ScanManifestOptions = {}): ScanManifestResult {
  const maxTextLength = options.maxTextLength ?? 2_000;
  const foreign = [...new Set(options.foreignToolIds ?? [])].filter((id) => id.length >= 4);
  const ownIds = new Set([...manifest.tools, ...(manifest.resources ?? []), ...(manifest.prompts ?? [])].map((entry) => entry.id));
  const verdictOf = createTextChecker(foreign.filter((id) => !ownIds.has(id)));
  const findings: ScanFinding[] = [];
  let scannedStrings = 0;

  // The member names and indices from the root to the text being checked: a pointer is built from
  // them only for a finding.
  const path: Array<string | number> = [];
  // A member name is checked with its parent's path: its own token is added only for a finding.
  const scanText = (text: string, toolId: string | undefined, isName: boolean): void => {
    scannedStrings++;
    const verdict = verdictOf(text);
    const oversize = text.length > maxTextLength;
    if (verdict === CLEAN && !oversize) return;
    const pointer = isName ? toPointer([...path, text]) : toPointer(path);
    const shown = makeVisible(text);
    const add = (hit: TextHit): void => {
      const finding: ScanFinding = { code: hit.code, pointer, text: shown, severity: hit.severity, message: hit.message };
      findings.push(toolId === undefined ? finding : { ...finding, toolId });
    };
    verdict.before.forEach(add);
    if (verdict.mixed !== undefined)
      add({ code: 'text.homoglyph', severity: isName ? 'high' : 'medium', message: `the word "${verdict.mixed}" mixes Latin with look-alike letters of another script` });
    // Length alone is not poisoning (real APIs ship long upstream descriptions, such as Kubernetes'
    // `Quantity`): worth a look, never a quarantine. The whole text was checked by the other rules above.
    if (oversize) add({ code: 'text.oversize', severity: 'medium', message: `is ${text.length} characters long (limit ${maxTextLength}); long texts can bury instructions` });
    verdict.after.forEach(add);
  };

  // Depth first, recursively (the parser bounds the depth): an object's member names are checked in
  // order, then its values and an array's items last first, the order findings have always had. The
  // same walk collects the `$ref` strings of every entry and shared definition (what
  // `forEachReference` would find), which attributing definition findings needs.
  const references = manifest.definitions === undefined ? undefined : createReferenceIndex();
  const visit = (value: unknown, toolId: string | undefined, refs: string[] | undefined): void => {
    if (typeof value === 'string') {
      scanText(value, toolId, false);
    } else if (Array.isArray(value)) {
      const entries = path.length === 1 ? entryKindOf(path[0]) : undefined;
      for (let index = value.length - 1; index >= 0; index--) {
        path.push(index);
        if (entries === undefined) visit(value[index], toolId, refs);
        else visit(value[index], (value[index] as { id?: string } | undefined)?.id, references?.entry(entries, index));
        path.pop();
      }
    } else if (typeof value === 'object' && value !== null) {
      const record = value as Record<string, unknown>;
      const keys = Object.keys(record);
      for (let index = 0; index < keys.length; index++) scanText(keys[index]!, toolId, true);
      const definitions = references !== undefined && path.length === 1 && path[0] === 'definitions';
      const ownerKey = path.at(-1);
      for (let index = keys.length - 1; index >= 0; index--) {
        const key = keys[index]!;
        const child = record[key];
        path.push(key);
        if (refs !== undefined && key === '$ref' && typeof child === 'string') refs.push(child);
        // Values of data keywords are not schemas: a `$ref` member inside them is just a string.
        visit(child, toolId, definitions ? references.definition(key) : refs === undefined || isDataMember(key, ownerKey) ? undefined : refs);
        path.pop();
      }
    }
  };
  visit(manifest, undefined, undefined);
  if (references !== undefined) attributeDefinitionFindings(manifest, findings, references);
  // Look-alike ids across services (`send_emai1` next to `send_email`): a model picks by name.
  const foreignSkeletons = new Map(foreign.filter((id) => !ownIds.has(id)).map((id) => [skeleton(id), id]));
  for (const [index, tool] of foreignSkeletons.size === 0 ? [] : manifest.tools.entries()) {
    const lookalike = foreignSkeletons.get(skeleton(tool.id));
    if (lookalike !== undefined && lookalike !== tool.id) {
      findings.push({ code: 'tool.confusable_id', pointer: `/tools/${index}/id`, text: tool.id, severity: 'high', message: `looks like "${lookalike}", a tool of another service`, toolId: tool.id });
    }
  }
  return { findings, scannedStrings };
}

/** The `$ref` strings of each tool, resource and prompt and of each shared definition, as the scan's walk meets them. */
interface ReferenceIndex {
  entry(kind: EntryKind, index: number): string[];
  definition(name: string): string[];
  entries: Record<EntryKind, string[][]>;
  definitions: Map<string, string[]>;
}

type EntryKind = 'tools' | 'resources' | 'prompts';
const ENTRY_KINDS: readonly EntryKind[] = ['tools', 'resources', 'prompts'];

function createReferenceIndex(): ReferenceIndex {
  const entries: Record<EntryKind, string[][]> = { tools: [], resources: [], prompts: [] };
  const definitions = new Map<string, string[]>();
  return {
    entries,
    definitions,
    entry: (kind, index) => (entries[kind][index] ??= []),
    definition: (name) => {
      let list = definitions.get(name);
      if (list === undefined) definitions.set(name, (list = []));
      return list;
    },
  };
}

/** The entry list a root member holds (`tools`, `resources`, `prompts`), if it is one. */
function entryKindOf(key: string | number | undefined): EntryKind | undefined {
  return key === 'tools' || key === 'resources' || key === 'prompts' ? key : undefined;
}

/**
 * Text inside a shared definition (spec v0.2) reaches every tool, resource and prompt that refers to
 * it, directly or through other definitions: each of them gets a copy of the finding, so that a
 * poisoned definition quarantines the tools that would show it to the model.
 */
function attributeDefinitionFindings(manifest: Manifest, findings: ScanFinding[], references: ReferenceIndex): void {
  const orphans = findings.filter((finding) => finding.toolId === undefined && finding.pointer.startsWith('/definitions/'));
  if (orphans.length === 0 || manifest.definitions === undefined) return;
  const definitions = manifest.definitions;
  const names = new Map<string, string | undefined>();
  const directReferences = (list: readonly string[] | undefined): Set<string> => {
    const direct = new Set<string>();
    for (const reference of list ?? []) {
      let name = names.get(reference);
      if (!names.has(reference)) {
        const parsed = parseDefinitionReference(reference);
        name = parsed && Object.hasOwn(definitions, parsed.name) ? parsed.name : undefined;
        names.set(reference, name);
      }
      if (name !== undefined) direct.add(name);
    }
    return direct;
  };
  // Walked backwards from the few definitions that hold a finding: computing everything each tool
  // reaches costs tools × definitions on a densely linked description such as Stripe's.
  const referrers = new Map<string, string[]>();
  for (const [name, list] of references.definitions) {
    for (const target of directReferences(list)) {
      const referring = referrers.get(target);
      if (referring === undefined) referrers.set(target, [name]);
      else referring.push(name);
    }
  }
  const reachers = new Map<string, Set<string>>();
  for (const finding of orphans) {
    const name = fromPointer(finding.pointer)[1] ?? '';
    if (reachers.has(name)) continue;
    const reached = new Set<string>();
    const queue = [name];
    while (queue.length > 0) {
      const next = queue.pop()!;
      if (reached.has(next)) continue;
      reached.add(next);
      for (const referrer of referrers.get(next) ?? []) if (!reached.has(referrer)) queue.push(referrer);
    }
    reachers.set(name, reached);
  }
  const users = new Map<string, string[]>([...reachers.keys()].map((name) => [name, []]));
  for (const kind of ENTRY_KINDS) {
    for (const [index, entry] of (manifest[kind] ?? []).entries()) {
      const direct = [...directReferences(references.entries[kind][index])];
      for (const [name, reaching] of reachers) if (direct.some((reference) => reaching.has(reference))) users.get(name)!.push(entry.id);
    }
  }
  for (const finding of orphans) {
    for (const id of users.get(fromPointer(finding.pointer)[1] ?? '') ?? []) findings.push({ ...finding, toolId: id });
  }
}

/** The checks that depend on a text alone, memoised per distinct text for one scan. */
function createTextChecker(foreignIds: readonly string[]): (text: string) => TextVerdict {
  const foreignPatterns = foreignIds.map((id) => ({ id, pattern: new RegExp(`(^|[^A-Za-z0-9_-])${escapeRegExp(id)}($|[^A-Za-z0-9_-])`) }));
  // One search for any foreign id before the per-id patterns (a client may hold thousands of tools).
  const anyForeign = foreignIds.length === 0 ? undefined : new RegExp(`(^|[^A-Za-z0-9_-])(${foreignIds.map(escapeRegExp).join('|')})($|[^A-Za-z0-9_-])`);
  const verdicts = new Map<string, TextVerdict>();
  return (text) => {
    let verdict = verdicts.get(text);
    if (verdict === undefined) {
      verdict = checkText(text, anyForeign === undefined || !anyForeign.test(text) ? [] : foreignPatterns);
      verdicts.set(text, verdict);
    }
    return verdict;
  };
}

function checkText(text: string, foreignPatterns: ReadonlyArray<{ id: string; pattern: RegExp }>): TextVerdict {
  const before: TextHit[] = [];
  const after: TextHit[] = [];
  let mixed: string | undefined;
  if (!PLAIN_TEXT.test(text)) {
    if (TAG.test(text)) before.push({ code: 'text.tag_character', severity: 'high', message: 'contains Unicode tag characters (hidden ASCII smuggling)' });
    if (INVISIBLE.test(text)) before.push({ code: 'text.invisible_character', severity: 'high', message: 'contains invisible or bidirectional-control characters' });
    if (CONTROL.test(text)) before.push({ code: 'text.control_character', severity: 'high', message: controlMessage(text) });
    if (LOOKALIKE_LETTER.test(text)) mixed = MIXED_SCRIPT_WORD.exec(text)?.[0];
  }
  const triggered = rulesTriggeredBy(text);
  for (let index = 0; triggered !== 0 && index < INSTRUCTION_RULES.length; index++) {
    const rule = INSTRUCTION_RULES[index]!;
    if ((triggered & (1 << index)) !== 0 && rule.pattern.test(text)) after.push({ code: rule.code, severity: rule.severity, message: rule.message });
  }
  for (const run of hasBase64Run(text) ? base64Runs(text) : []) {
    const decoded = decodeBase64Text(run);
    if (decoded === undefined) continue;
    const hidden = INSTRUCTION_RULES.some((rule) => rule.severity === 'high' && rule.pattern.test(decoded));
    after.push({ code: 'text.encoded_payload', severity: hidden ? 'high' : 'medium', message: hidden ? 'carries base64-encoded instructions' : 'carries a base64-encoded text payload' });
  }
  for (const { id, pattern } of foreignPatterns) {
    if (pattern.test(text)) after.push({ code: 'text.cross_service_reference', severity: 'high', message: `names "${id}", a tool of another service (tool shadowing)` });
  }
  return before.length === 0 && after.length === 0 && mixed === undefined ? CLEAN : { before, after, mixed };
}

/**
 * True when the text holds {@link MIN_BASE64_RUN} characters of either base64 alphabet in a row
 * (`A-Z a-z 0-9 + / _ -`): every run {@link base64Runs} returns holds one, so the strings without
 * skip it. One pass with one class test per character, cheaper than `base64Runs` on the many texts
 * that fail it.
 */
function hasBase64Run(text: string): boolean {
  if (text.length < MIN_BASE64_RUN) return false;
  let run = 0;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    // a-z, A-Z, '/' and 0-9 (0x2f-0x39), '+', '-', '_'
    if ((code >= 0x61 && code <= 0x7a) || (code >= 0x41 && code <= 0x5a) || (code >= 0x2f && code <= 0x39) || code === 0x2b || code === 0x2d || code === 0x5f) {
      if (++run >= MIN_BASE64_RUN) return true;
    } else {
      run = 0;
    }
  }
  return false;
}

/**
 * The runs `/[A-Za-z0-9+/]{40,}={0,2}|[A-Za-z0-9_-]{40,}/g` matches, in one pass: at each position the
 * standard alphabet is tried first, then the URL-safe one, as the expression does, but the end of the
 * run of each alphabet is found once and reused for every position inside it (the expression scans a
 * run again from each position of a run that falls short of forty characters).
 */
function base64Runs(text: string): string[] {
  const runs: string[] = [];
  // Exclusive ends of the runs of each alphabet that start at or before `index` (only valid while `index` is below them).
  let standardEnd = 0;
  let urlSafeEnd = 0;
  for (let index = 0; index + MIN_BASE64_RUN <= text.length;) {
    if (index >= standardEnd) for (standardEnd = index; standardEnd < text.length && isBase64Character(text.charCodeAt(standardEnd), 0x2b, 0x2f);) standardEnd++;
    if (index >= urlSafeEnd) for (urlSafeEnd = index; urlSafeEnd < text.length && isBase64Character(text.charCodeAt(urlSafeEnd), 0x2d, 0x5f);) urlSafeEnd++;
    if (standardEnd - index >= MIN_BASE64_RUN) {
      let end = standardEnd;
      // `={0,2}`: the padding belongs to the run.
      while (end < text.length && end - standardEnd < 2 && text.charCodeAt(end) === 0x3d) end++;
      runs.push(text.slice(index, end));
      index = end;
    } else if (urlSafeEnd - index >= MIN_BASE64_RUN) {
      runs.push(text.slice(index, urlSafeEnd));
      index = urlSafeEnd;
    } else {
      index++;
    }
  }
  return runs;
}

/** A letter, a digit or one of the two extra characters of a base64 alphabet (`+ /` or `- _`). */
function isBase64Character(code: number, extra62: number, extra63: number): boolean {
  return (code >= 0x61 && code <= 0x7a) || (code >= 0x41 && code <= 0x5a) || (code >= 0x30 && code <= 0x39) || code === extra62 || code === extra63;
}

function controlMessage(text: string): string {
  if (ESCAPE_SEQUENCE.test(text)) return 'contains a terminal escape sequence (it can rewrite what a human sees on screen)';
  if (BARE_CARRIAGE_RETURN.test(text)) return 'contains a carriage return not followed by a line feed (it can overwrite a line on a terminal)';
  return 'contains control characters';
}

/** A comparison key that folds case, separators and the usual digit/letter look-alikes. */
function skeleton(id: string): string {
  return id
    .toLowerCase()
    .replace(/[-_]+/g, '')
    .replace(/rn/g, 'm')
    .replace(/vv/g, 'w')
    .replace(/[0o]/g, 'o')
    .replace(/[1li|]/g, 'l')
    .replace(/5/g, 's');
}

/** Shows invisible, tag and control characters as `\u{…}` so a human sees what a model reads. */
export function makeVisible(text: string): string {
  let result = '';
  for (const character of text) {
    if (TAG.test(character) || INVISIBLE.test(character) || CONTROL.test(character)) result += `\\u{${character.codePointAt(0)!.toString(16).toUpperCase()}}`;
    else result += character;
  }
  return result;
}

function decodeBase64Text(run: string): string | undefined {
  const decoded = Buffer.from(run.replaceAll('-', '+').replaceAll('_', '/'), 'base64').toString('latin1');
  if (decoded.length < 24) return undefined;
  let printable = 0;
  for (let index = 0; index < decoded.length; index++) {
    const code = decoded.charCodeAt(index);
    if ((code >= 0x20 && code < 0x7f) || code === 0x0a || code === 0x0d || code === 0x09) printable++;
  }
  // Hashes and random tokens decode to binary; only text-like payloads are reported.
  return printable / decoded.length > 0.9 && /[a-z]{3,}\s+[a-z]{2,}/i.test(decoded) ? decoded : undefined;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
