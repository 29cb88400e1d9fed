// The poisoning scan as it was before it was made linear (kept for tests only): the fast scan must
// report the same findings, in the same order, plus the control characters it newly flags.
import type { Manifest } from '../../src/manifest/manifest-v0.js';
import { escapePointerToken } from '../../src/internal/json-pointer.js';
import type { TrustFinding, TrustSeverity } from '../../src/client/shapes/client-types.js';

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

// Zero-width and formatting characters that render as nothing, bidi overrides that reorder text, and
// the soft hyphen: text a human reviewer cannot see but a model reads.
// eslint-disable-next-line no-misleading-character-class -- the class lists combining and invisible code points on purpose
const INVISIBLE = /[\u00AD\u034F\u061C\u115F\u1160\u17B4\u17B5\u180B-\u180F\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u206F\u3164\uFE00-\uFE0F\uFEFF\uFFA0]/u;
// Unicode tag characters (ASCII smuggling) and the variation selectors supplement.
// eslint-disable-next-line no-misleading-character-class -- tag characters are matched one by one on purpose
const TAG = /[\u{E0000}-\u{E007F}\u{E0100}-\u{E01EF}]/u;
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/u;
// Latin mixed with a look-alike script inside one word: `pаyments` with a Cyrillic `а`.
const MIXED_SCRIPT_WORD = /(?=[\p{L}\p{N}_-]*\p{Script=Latin})(?=[\p{L}\p{N}_-]*[\p{Script=Cyrillic}\p{Script=Greek}\p{Script=Armenian}\p{Script=Cherokee}])[\p{L}\p{N}_-]+/u;

interface Rule {
  code: string;
  pattern: RegExp;
  severity: TrustSeverity;
  message: string;
}

// Phrases that address the model rather than describe the API. Sources: the Invariant Labs tool
// poisoning write-up, the mcp-scan issue codes and the tool-scan / mcp-scanner rule families.
const INSTRUCTION_RULES: Rule[] = [
  { code: 'text.instruction', pattern: /<\s*\/?\s*(important|system|instructions?|secret|hidden)\s*>/i, severity: 'high', message: 'contains a pseudo-tag that addresses the model' },
  {
    code: 'text.instruction',
    pattern:
      /\b(ignore|disregard|forget|override)\b.{0,40}\b((previous|prior|above|earlier|all|other)\b.{0,30}\b(instructions?|prompts?|rules|guidelines|messages?)|system\b.{0,30}\b(instructions?|prompts?|rules|guidelines))\b/i,
    severity: 'high',
    message: 'tells the model to ignore its instructions',
  },
  {
    code: 'text.instruction',
    pattern: /\b(do not|don't|never|without)\b.{0,20}\b(tell|telling|inform|informing|notify|notifying|mention|mentioning|reveal|revealing|show|showing|alert|alerting)\b.{0,20}\b(the )?users?\b/i,
    severity: 'high',
    message: 'asks the model to hide something from the user',
  },
  { code: 'text.instruction', pattern: /\b(secretly|covertly|surreptitiously)\b/i, severity: 'high', message: 'asks for covert behaviour' },
  {
    code: 'text.instruction',
    pattern: /(~\/\.ssh|\bid_rsa\b|\bid_ed25519\b|\.aws\/credentials|\bmcp\.json\b|\.cursor\/|\/etc\/(passwd|shadow))/i,
    severity: 'high',
    message: 'refers to local secrets or configuration files',
  },
  // A real key in an example or default leaks a secret, whatever the intent (an API about keys may still *mention* them).
  { code: 'text.secret', pattern: /-----BEGIN [A-Z ]*PRIVATE KEY-----/, severity: 'high', message: 'contains a private key' },
  { code: 'text.instruction', pattern: /(^|[\s"'`(])\.env\b/i, severity: 'medium', message: 'refers to an environment file' },
  {
    code: 'text.instruction',
    pattern: /\b(?:system prompt|you are now|act as|pretend to be|new instructions)|\[INST\]|<\|im_start\|>/i,
    severity: 'high',
    message: "tries to redefine the model's role",
  },
  {
    code: 'text.instruction',
    pattern: /\b(before|instead of|after) (using|calling|running) (this|any|the|other)\b.{0,40}\b(tool|function)s?\b/i,
    severity: 'medium',
    message: 'prescribes how the model uses other tools',
  },
  {
    code: 'text.instruction',
    pattern: /\b(bcc|cc|forward|send|post|upload|exfiltrate)\b.{0,40}\b(to|at)\b.{0,10}\b(https?:\/\/|[\w.-]+@[\w-]+\.[\w.]+|webhook)/i,
    severity: 'high',
    message: 'asks to send data to an address',
  },
  { code: 'text.suspicious_word', pattern: /\b(important|crucial|critical|must always|mandatory|urgent)\b/i, severity: 'low', message: 'uses emphatic wording common in injected instructions' },
  { code: 'text.ssrf_literal', pattern: /\b(169\.254\.\d+\.\d+|metadata\.google\.internal|file:\/\/|gopher:\/\/)/i, severity: 'medium', message: 'names an internal address or a local scheme' },
];

const BASE64_RUN = /[A-Za-z0-9+/]{40,}={0,2}|[A-Za-z0-9_-]{40,}/g;
// The same pattern without `g`: `matchAll` clones its regular expression on every call, which made
// this one check most of the scan's time; a plain `test` first skips the strings without a run.
const HAS_BASE64_RUN = new RegExp(BASE64_RUN.source);

/**
 * The poisoning scan: checks every string leaf *and every member name* of a manifest (descriptions,
 * intent, parameter names, enums, defaults, examples, error contexts, job event texts, extensions) for
 * invisible, tag and control characters, mixed-script (homoglyph) words, instruction-like phrases,
 * encoded payloads, oversize text, references to other services' tools and ids that look like theirs (tool paths that escape
 * `base_url` are refused earlier, by `validateManifest`). Heuristic: a lint and an early warning, never the only boundary.
 *
 * Findings carry the JSON Pointer, the full text (invisible characters made visible) and the id of the
 * tool, resource or prompt the string belongs to.
 * @internal
 */
export function referenceScanManifest(manifest: Manifest, options: ScanManifestOptions = {}): { findings: TrustFinding[]; scannedStrings: number } {
  const maxTextLength = options.maxTextLength ?? 2_000;
  const foreign = [...new Set(options.foreignToolIds ?? [])].filter((id) => id.length >= 4);
  const ownIds = new Set([...manifest.tools, ...(manifest.resources ?? []), ...(manifest.prompts ?? [])].map((entry) => entry.id));
  const foreignPatterns = foreign.filter((id) => !ownIds.has(id)).map((id) => ({ id, pattern: new RegExp(`(^|[^A-Za-z0-9_-])${escapeRegExp(id)}($|[^A-Za-z0-9_-])`) }));
  const findings: TrustFinding[] = [];
  let scannedStrings = 0;

  const add = (finding: Omit<TrustFinding, 'toolId'>, toolId: string | undefined): void => {
    findings.push(toolId === undefined ? finding : { ...finding, toolId });
  };

  const scanText = (text: string, pointer: string, toolId: string | undefined, isName: boolean): void => {
    scannedStrings++;
    // Made visible only for a finding: most strings have none, and this walks every character.
    let visible: string | undefined;
    const shown = (): string => (visible ??= makeVisible(text));
    if (TAG.test(text)) add({ code: 'text.tag_character', pointer, text: shown(), severity: 'high', message: 'contains Unicode tag characters (hidden ASCII smuggling)' }, toolId);
    if (INVISIBLE.test(text)) add({ code: 'text.invisible_character', pointer, text: shown(), severity: 'high', message: 'contains invisible or bidirectional-control characters' }, toolId);
    if (CONTROL.test(text)) add({ code: 'text.control_character', pointer, text: shown(), severity: 'high', message: 'contains control characters' }, toolId);
    const mixed = MIXED_SCRIPT_WORD.exec(text);
    if (mixed)
      add({ code: 'text.homoglyph', pointer, text: shown(), severity: isName ? 'high' : 'medium', message: `the word "${mixed[0]}" mixes Latin with look-alike letters of another script` }, toolId);
    // Response schemas never reach the model's tool list, so a long example there is only worth a look.
    if (text.length > maxTextLength)
      add({ code: 'text.oversize', pointer, text: shown(), severity: 'medium', message: `is ${text.length} characters long (limit ${maxTextLength}); long texts can bury instructions` }, toolId);
    for (const rule of INSTRUCTION_RULES) {
      if (rule.pattern.test(text)) add({ code: rule.code, pointer, text: shown(), severity: rule.severity, message: rule.message }, toolId);
    }
    for (const run of HAS_BASE64_RUN.test(text) ? text.matchAll(BASE64_RUN) : []) {
      const decoded = decodeBase64Text(run[0]);
      if (decoded === undefined) continue;
      const hidden = INSTRUCTION_RULES.some((rule) => rule.severity === 'high' && rule.pattern.test(decoded));
      add(
        {
          code: 'text.encoded_payload',
          pointer,
          text: shown(),
          severity: hidden ? 'high' : 'medium',
          message: hidden ? 'carries base64-encoded instructions' : 'carries a base64-encoded text payload',
        },
        toolId,
      );
    }
    for (const { id, pattern } of foreignPatterns) {
      if (pattern.test(text)) add({ code: 'text.cross_service_reference', pointer, text: shown(), severity: 'high', message: `names "${id}", a tool of another service (tool shadowing)` }, toolId);
    }
  };

  // An explicit stack: the manifest is bounded (1 MiB, depth 64) but recursion is not needed.
  const stack: Array<{ value: unknown; pointer: string; toolId: string | undefined }> = [{ value: manifest, pointer: '', toolId: undefined }];
  while (stack.length > 0) {
    const { value, pointer, toolId } = stack.pop()!;
    if (typeof value === 'string') {
      scanText(value, pointer, toolId, false);
    } else if (Array.isArray(value)) {
      value.forEach((item, index) => stack.push({ value: item, pointer: `${pointer}/${index}`, toolId: toolId ?? ownerOf(manifest, pointer, index) }));
    } else if (typeof value === 'object' && value !== null) {
      for (const [key, child] of Object.entries(value)) {
        const childPointer = `${pointer}/${escapePointerToken(key)}`;
        scanText(key, childPointer, toolId, true);
        stack.push({ value: child, pointer: childPointer, toolId });
      }
    }
  }
  // Look-alike ids across services (`send_emai1` next to `send_email`): a model picks by name.
  const foreignSkeletons = new Map(foreign.filter((id) => !ownIds.has(id)).map((id) => [skeleton(id), id]));
  for (const [index, tool] of manifest.tools.entries()) {
    const lookalike = foreignSkeletons.get(skeleton(tool.id));
    if (lookalike !== undefined && lookalike !== tool.id) {
      add({ code: 'tool.confusable_id', pointer: `/tools/${index}/id`, text: tool.id, severity: 'high', message: `looks like "${lookalike}", a tool of another service` }, tool.id);
    }
  }
  return { findings, scannedStrings };
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

/** The id of the tool, resource or prompt at `/tools/N` (or resources, prompts); undefined elsewhere. */
function ownerOf(manifest: Manifest, arrayPointer: string, index: number): string | undefined {
  if (arrayPointer === '/tools') return manifest.tools[index]?.id;
  if (arrayPointer === '/resources') return manifest.resources?.[index]?.id;
  if (arrayPointer === '/prompts') return manifest.prompts?.[index]?.id;
  return undefined;
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
