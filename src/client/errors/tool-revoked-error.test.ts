import { describe, expect, it } from 'vitest';
import { AicapError } from '../../errors/aicap-error.js';
import { ToolRevokedError, type ToolRevocation } from './tool-revoked-error.js';

const revocation: ToolRevocation = {
  toolId: 'deletePayment',
  exposedName: 'payments__deletePayment',
  origin: 'https://api.example.test',
  manifestUrl: 'https://api.example.test/.well-known/ai-capabilities',
  previousDigest: 'sha256-before',
  digest: 'sha256-after',
  revokedAtInMs: Date.UTC(2026, 11, 4, 12, 0, 0),
  reason: 'HTTP 410 from the endpoint of "deletePayment"',
};

describe('ToolRevokedError', () => {
  it('is a typed TOOL_REVOKED error that says which tool, which digests, when, why and what to do', () => {
    const error = new ToolRevokedError(revocation);
    expect(AicapError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ name: 'ToolRevokedError', code: 'TOOL_REVOKED', revocation });
    expect(error.message).toBe(
      'Tool "deletePayment" of https://api.example.test was revoked at 2026-12-04T12:00:00.000Z: the manifest https://api.example.test/.well-known/ai-capabilities changed from sha256-before to sha256-after and no longer lists it (revalidated after HTTP 410 from the endpoint of "deletePayment"). Pick another tool; discover the service again if it should come back.',
    );
  });

  it('tells the user the name the model saw, not the internal id', () => {
    expect(new ToolRevokedError(revocation).userMessage).toBe(
      'The tool "payments__deletePayment" was withdrawn by https://api.example.test at 2026-12-04T12:00:00.000Z; it can no longer be called. Pick another tool.',
    );
  });
});
