import { toPointer } from '../internal/json-pointer.js';

/** One secret-looking value found in a manifest. */
export interface SecretFinding {
  /** JSON Pointer of the value. */
  pointer: string;
  /** What it looks like, e.g. `a JSON Web Token`. */
  kind: string;
}

// Token shapes whose prefixes are specific enough that a match is almost never a false positive.
// Sources: the public formats documented by GitHub, Slack, AWS, Stripe, OpenAI and Google.
const TOKEN_PATTERNS: ReadonlyArray<readonly [RegExp, string]> = [
  [/-----BEGIN [A-Z ]*PRIVATE KEY-----/, 'a PEM private key'],
  [/\beyJ[\w-]{8,}\.eyJ[\w-]{8,}\.[\w-]{8,}/, 'a JSON Web Token'],
  [/\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/, 'an AWS access key id'],
  [/\bgh[pousr]_[A-Za-z0-9]{30,}\b/, 'a GitHub token'],
  [/\bgithub_pat_[A-Za-z0-9_]{40,}\b/, 'a GitHub token'],
  [/\bxox[abposr]-[A-Za-z0-9-]{10,}/, 'a Slack token'],
  [/\b(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{16,}\b/, 'a Stripe secret key'],
  [/\bsk-(?:proj-|ant-)?[A-Za-z0-9_-]{20,}\b/, 'an API secret key'],
  [/\bAIza[0-9A-Za-z_-]{35}\b/, 'a Google API key'],
  // A digit is required so that prose such as "Bearer tokens-are-rotated-daily" is not a finding.
  [/\b(?:Bearer|Basic)\s+(?=[A-Za-z0-9._~+/=-]*\d)[A-Za-z0-9._~+/=-]{16,}/, 'a credential in an Authorization value'],
  [/:\/\/[^/\s:@]+:[^/\s@]+@/, 'a URL with a password'],
];

// Parameter names whose example or default value is a credential whatever its shape.
const SECRET_NAME = /(?:^|[_-])(?:password|passwd|secret|token|api[_-]?key|apikey|authorization|credential|private[_-]?key|access[_-]?key)s?$/i;
// Pagination and sync tokens are opaque positions, not credentials.
const POSITION_TOKEN = /(?:^|[_-])(?:page|next|prev|previous|continuation|sync|cursor)[_-]?token$/i;
const SAMPLE_KEYS = new Set(['example', 'examples', 'default', 'const', 'enum']);
// Values that are obviously placeholders, not credentials.
const PLACEHOLDER = /^(?:|<[^>]*>|\$\{[^}]*\}|\{\{[^}]*\}\}|x+|\*+|\.+|(?:your|my|example|sample|dummy|redacted)[\w-]*)$/i;

/**
 * Finds values in a manifest that look like credentials: well-known token formats anywhere in the
 * document, and any non-placeholder `example`/`default`/`enum` of a parameter whose name says it is a
 * secret (`password`, `api_key`, `token`…). A manifest is public: such a value is a leak (spec section 10.5).
 */
export function findSecretValues(manifest: unknown): SecretFinding[] {
  const findings: SecretFinding[] = [];
  visit(manifest, [], undefined, findings);
  return findings;
}

function visit(value: unknown, path: Array<string | number>, secretParameter: string | undefined, findings: SecretFinding[]): void {
  if (typeof value === 'string') {
    for (const [pattern, kind] of TOKEN_PATTERNS) {
      if (pattern.test(value)) {
        findings.push({ pointer: toPointer(path), kind });
        return;
      }
    }
    if (secretParameter !== undefined && isSampleLocation(path) && !PLACEHOLDER.test(value.trim())) {
      findings.push({ pointer: toPointer(path), kind: `a sample value of the secret-looking parameter \`${secretParameter}\`` });
    }
    return;
  }
  if (Array.isArray(value)) {
    value.forEach((item, index) => visit(item, [...path, index], secretParameter, findings));
    return;
  }
  if (typeof value !== 'object' || value === null) return;
  const parentKey = path.at(-1);
  const inParameterMap = parentKey === 'parameters' || parentKey === 'properties';
  for (const [key, child] of Object.entries(value)) {
    const secretName = inParameterMap && SECRET_NAME.test(key) && !POSITION_TOKEN.test(key) ? key : secretParameter;
    visit(child, [...path, key], secretName, findings);
  }
}

function isSampleLocation(path: ReadonlyArray<string | number>): boolean {
  return path.some((token) => typeof token === 'string' && SAMPLE_KEYS.has(token));
}
