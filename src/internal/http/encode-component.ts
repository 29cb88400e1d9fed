// RFC 3986 §2.3 unreserved characters stay as they are; everything else is percent-encoded (a space
// as `%20`, never `+`, which some servers read as a plus sign).
const EXTRA_RESERVED = /[!'()*]/g;
const UNRESERVED_ONLY = /^[\w.~-]*$/;
// Reserved characters that `allow_reserved` keeps; `&`, `=`, `#`, `+` and `%` would change the query's meaning.
const KEPT_WHEN_ALLOWED = /%(3A|2F|3F|5B|5D|40|21|24|27|28|29|2A|2C|3B)/gi;

/** Percent-encodes a name or value part (brackets of `a[b]` names stay literal, as Stripe and others write them). */
export function encodeComponent(text: string, allowReserved = false): string {
  // Most names and values are unreserved characters only, which every step below leaves as they are.
  if (UNRESERVED_ONLY.test(text)) return text;
  const encoded = encodeURIComponent(text).replace(EXTRA_RESERVED, (character) => `%${character.charCodeAt(0).toString(16).toUpperCase()}`);
  return allowReserved ? encoded.replace(KEPT_WHEN_ALLOWED, (escape) => decodeURIComponent(escape)) : encoded;
}
