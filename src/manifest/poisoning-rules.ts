/**
 * The poisoning rules, as data: the character classes and phrases the scan (`scan-manifest.ts`, the
 * engine) looks for in every text that can reach a model. A rule changes here; how texts are walked,
 * memoised and attributed changes there. Not a public module: nothing outside `manifest/` imports it.
 * @module
 */
/** Severity of a finding. Only `high` quarantines what the text belongs to. */
export type ScanSeverity = 'low' | 'medium' | 'high';

// Zero-width and formatting characters that render as nothing, bidi overrides that reorder text, and
// the soft hyphen: text a human reviewer cannot see but a model reads.
// eslint-disable-next-line no-misleading-character-class -- the class lists combining and invisible code points on purpose
export const INVISIBLE: RegExp = /[\u00AD\u034F\u061C\u115F\u1160\u17B4\u17B5\u180B-\u180F\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u206F\u3164\uFE00-\uFE0F\uFEFF\uFFA0]/u;
// Unicode tag characters (ASCII smuggling) and the variation selectors supplement.
// eslint-disable-next-line no-misleading-character-class -- tag characters are matched one by one on purpose
export const TAG: RegExp = /[\u{E0000}-\u{E007F}\u{E0100}-\u{E01EF}]/u;
// C0 and C1 controls and DEL, except the tab and the line feed of ordinary text; a carriage return only
// when it is not part of a CRLF line end (a bare one returns the cursor and overwrites the line).
// eslint-disable-next-line no-control-regex -- finding control characters is the point
export const CONTROL: RegExp = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]|\r(?!\n)/u;
// ESC or CSI/OSC introducers (ESC [, ESC ], and their C1 forms): terminal commands, not text.
// eslint-disable-next-line no-control-regex -- finding escape sequences is the point
export const ESCAPE_SEQUENCE: RegExp = /\u001B[[\]PX^_]|[\u009B\u009D]/u;
export const BARE_CARRIAGE_RETURN: RegExp = /\r(?!\n)/;
// Latin mixed with a look-alike script inside one word: `pаyments` with a Cyrillic `а`.
export const MIXED_SCRIPT_WORD: RegExp = /(?=[\p{L}\p{N}_-]*\p{Script=Latin})(?=[\p{L}\p{N}_-]*[\p{Script=Cyrillic}\p{Script=Greek}\p{Script=Armenian}\p{Script=Cherokee}])[\p{L}\p{N}_-]+/u;
// A letter of one of those scripts: without one there is no such word, and this one search costs far
// less than the word expression's two look-aheads at every position (a curly quote is enough to get there).
export const LOOKALIKE_LETTER: RegExp = /[\p{Script=Cyrillic}\p{Script=Greek}\p{Script=Armenian}\p{Script=Cherokee}]/u;

/** One instruction rule: a phrase that addresses the model rather than describes the API. */
export interface PoisoningRule {
  code: string;
  pattern: RegExp;
  severity: ScanSeverity;
  message: string;
  /**
  Lower-case literals, one of which every match of `pattern` contains (case-insensitively): a text
  holding none of them cannot match. No literal may begin another one (the scan finds them all with one search).
  */
  literals: readonly string[];
}

// Phrases that address the model rather than describe the API. Sources: the Invariant Labs tool
// poisoning write-up, the mcp-scan issue codes and the tool-scan / mcp-scanner rule families.
export const INSTRUCTION_RULES: readonly PoisoningRule[] = [
  {
    code: 'text.instruction',
    pattern: /<\s*\/?\s*(important|system|instructions?|secret|hidden)\s*>/i,
    severity: 'high',
    message: 'contains a pseudo-tag that addresses the model',
    literals: ['important', 'system', 'instruction', 'secret', 'hidden'],
  },
  // "System" with a message is ordinary API prose ("Override the default system message of the
  // assistant", OpenAI); with instructions, prompts or rules it addresses the model.
  {
    code: 'text.instruction',
    pattern:
      /\b(ignore|disregard|forget|override)\b.{0,40}\b((previous|prior|above|earlier|all|other)\b.{0,30}\b(instructions?|prompts?|rules|guidelines|messages?)|system\b.{0,30}\b(instructions?|prompts?|rules|guidelines))\b/i,
    severity: 'high',
    message: 'tells the model to ignore its instructions',
    literals: ['ignore', 'disregard', 'forget', 'override'],
  },
  {
    code: 'text.instruction',
    pattern: /\b(do not|don't|never|without)\b.{0,20}\b(tell|telling|inform|informing|notify|notifying|mention|mentioning|reveal|revealing|show|showing|alert|alerting)\b.{0,20}\b(the )?users?\b/i,
    severity: 'high',
    message: 'asks the model to hide something from the user',
    literals: ['do not', "don't", 'never', 'without'],
  },
  { code: 'text.instruction', pattern: /\b(secretly|covertly|surreptitiously)\b/i, severity: 'high', message: 'asks for covert behaviour', literals: ['secret', 'covert', 'surreptitious'] },
  {
    code: 'text.instruction',
    pattern: /(~\/\.ssh|\bid_rsa\b|\bid_ed25519\b|\.aws\/credentials|\bmcp\.json\b|\.cursor\/|\/etc\/(passwd|shadow))/i,
    severity: 'high',
    message: 'refers to local secrets or configuration files',
    literals: ['.ssh', 'id_rsa', 'id_ed25519', '.aws/', 'mcp.json', '.cursor/', '/etc/'],
  },
  // A real key in an example or default leaks a secret, whatever the intent (an API about keys may still *mention* them).
  { code: 'text.secret', pattern: /-----BEGIN [A-Z ]*PRIVATE KEY-----/, severity: 'high', message: 'contains a private key', literals: ['private key'] },
  { code: 'text.instruction', pattern: /(^|[\s"'`(])\.env\b/i, severity: 'medium', message: 'refers to an environment file', literals: ['.env'] },
  {
    code: 'text.instruction',
    // `\b` only before the phrases: before `[` or `<` it needs a letter in front, and `[INST]` at the start of a line has none.
    pattern: /\b(?:system prompt|you are now|act as|pretend to be|new instructions)|\[INST\]|<\|im_start\|>/i,
    severity: 'high',
    message: "tries to redefine the model's role",
    literals: ['system', 'you are now', 'act as', 'pretend to be', 'instruction', '[inst]', 'im_start'],
  },
  {
    code: 'text.instruction',
    pattern: /\b(before|instead of|after) (using|calling|running) (this|any|the|other)\b.{0,40}\b(tool|function)s?\b/i,
    severity: 'medium',
    message: 'prescribes how the model uses other tools',
    literals: ['using', 'calling', 'running'],
  },
  {
    code: 'text.instruction',
    pattern: /\b(bcc|cc|forward|send|post|upload|exfiltrate)\b.{0,40}\b(to|at)\b.{0,10}\b(https?:\/\/|[\w.-]+@[\w-]+\.[\w.]+|webhook)/i,
    severity: 'high',
    message: 'asks to send data to an address',
    literals: ['http', '@', 'webhook'],
  },
  {
    code: 'text.suspicious_word',
    pattern: /\b(important|crucial|critical|must always|mandatory|urgent)\b/i,
    severity: 'low',
    message: 'uses emphatic wording common in injected instructions',
    literals: ['important', 'crucial', 'critical', 'must always', 'mandatory', 'urgent'],
  },
  {
    code: 'text.ssrf_literal',
    pattern: /\b(169\.254\.\d+\.\d+|metadata\.google\.internal|file:\/\/|gopher:\/\/)/i,
    severity: 'medium',
    message: 'names an internal address or a local scheme',
    literals: ['169.254.', 'metadata.google.internal', 'file://', 'gopher://'],
  },
];
