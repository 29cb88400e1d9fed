import { describe, expect, it } from 'vitest';
import { redactUrl } from './redact-url.js';

describe('redactUrl', () => {
  it.each([
    ['https://a.example/x?token=abc123&api_key=xyz&page=2', 'https://a.example/x?token=[REDACTED]&api_key=[REDACTED]&page=2'],
    ['https://user:secret@a.example/x', 'https://a.example/x'],
    ['https://a.example/x?access_token=a&apikey=b&sig=c&q=hello', 'https://a.example/x?access_token=[REDACTED]&apikey=[REDACTED]&sig=[REDACTED]&q=hello'],
    ['https://a.example/x#fragment-token', 'https://a.example/x'],
    ['https://a.example/x?cursor=abc', 'https://a.example/x?cursor=abc'],
    ['https://user@a.example/x', 'https://a.example/x'],
    ['https://:secret@a.example/x', 'https://a.example/x'],
    ['https://user:secret@a.example/x?token=abc#fragment', 'https://a.example/x?token=[REDACTED]'],
    ['HTTPS://A.example:443/x/../y', 'https://a.example/y'],
    ['not a url', '[invalid URL]'],
  ])('%s → %s', (input, expected) => {
    expect(redactUrl(input)).toBe(expected);
  });
});
