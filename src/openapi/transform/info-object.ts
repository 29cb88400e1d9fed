import type { Service, Versioning } from '../../manifest/manifest-v0.js';
import { clampText } from './text.js';
import { isRecord, nonEmptyString } from './transform-context.js';

/** What the Info Object contributes. */
export interface InfoMapping {
  /** `service` without `base_url`. */
  service: Omit<Service, 'base_url'>;
  /** From `info.version` when it is (or can be read as) a semantic version. */
  versioning?: Versioning;
}

/**
 * Maps the Info Object (and the root `externalDocs`) to `service`: `title` → `name`, `summary` or
 * the first paragraph of `description` → `description`, `externalDocs.url` → `documentation_url`,
 * the contact's e-mail (else URL) → `contact`; `version` → `versioning.current` when semver-like.
 */
export function transformInfoObject(info: unknown, externalDocs: unknown): InfoMapping {
  const record = isRecord(info) ? info : {};
  const service: Omit<Service, 'base_url'> = { name: clampText(nonEmptyString(record['title']) ?? 'API', 200) };
  const description = nonEmptyString(record['summary']) ?? firstParagraph(record['description']);
  if (description) service.description = clampText(description);
  const documentation = isRecord(externalDocs) ? nonEmptyString(externalDocs['url']) : undefined;
  if (documentation && /^https?:\/\//i.test(documentation) && documentation.length <= 2048) service.documentation_url = documentation;
  const contact = isRecord(record['contact']) ? (nonEmptyString(record['contact']['email']) ?? nonEmptyString(record['contact']['url'])) : undefined;
  if (contact) service.contact = contact.slice(0, 512);
  const mapping: InfoMapping = { service };
  const version = semverOf(record['version']);
  if (version) mapping.versioning = { current: version };
  return mapping;
}

function firstParagraph(value: unknown): string | undefined {
  const text = nonEmptyString(value);
  return text?.split(/\n\s*\n/)[0]?.trim();
}

/** `1`, `v1.2` and `1.2.3-beta` read as semantic versions; dates and names do not. @internal */
export function semverOf(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const full = /^v?((?:0|[1-9]\d*)\.(?:0|[1-9]\d*)\.(?:0|[1-9]\d*)(?:-[0-9A-Za-z.-]+)?(?:\+[0-9A-Za-z.-]+)?)$/.exec(value.trim());
  if (full) return full[1];
  const short = /^v?(0|[1-9]\d*)(?:\.(0|[1-9]\d*))?$/.exec(value.trim());
  return short ? `${short[1]}.${short[2] ?? '0'}.0` : undefined;
}
