/**
 * What the audit keeps instead of a call's argument values: the first 16 hex digits of the
 * sha256 of their canonical JSON (keys sorted at every depth), so the same arguments give the
 * same fingerprint whatever order a client wrote them in, and none of their values can be read
 * back from it (adapters/audit/auditSink.ts).
 */
import { createHash } from 'node:crypto';

export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortKeys(value));
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (typeof value !== 'object' || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(value).sort()) out[k] = sortKeys((value as Record<string, unknown>)[k]);
  return out;
}

export function argsFingerprint(args: unknown): string {
  return createHash('sha256')
    .update(canonicalJson(args ?? {}))
    .digest('hex')
    .slice(0, 16);
}
