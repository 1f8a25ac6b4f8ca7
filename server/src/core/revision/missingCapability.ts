/**
 * An upstream spoken to in 2026-07-28 refuses a request whose client lacks a capability it needs
 * (-32021 MissingRequiredClientCapability, naming them). MCP Lens passes that on as the same
 * protocol error, to any client: the client is the one that must declare it. Only the names of
 * the capabilities are kept of what the upstream sent.
 */
import { MODERN_ERROR } from './revisions';

/** The upstream error's required capabilities, as a capabilities object of empty ones; undefined when it is not -32021. */
export function requiredCapabilities(code: number | undefined, data: unknown): Record<string, object> | undefined {
  if (code !== MODERN_ERROR.missingClientCapability) return undefined;
  const required = (data as { requiredCapabilities?: unknown } | undefined)?.requiredCapabilities;
  const names =
    typeof required === 'object' && required !== null && !Array.isArray(required) ? Object.keys(required) : [];
  const safe = names.filter((n) => /^[A-Za-z][\w.-]{0,63}$/.test(n)).slice(0, 16);
  return Object.fromEntries(safe.map((n) => [n, {}]));
}

/** The message the refusal is passed on with. */
export function missingCapabilityMessage(what: string, required: Record<string, object>): string {
  const list = Object.keys(required).join(', ') || 'a capability';
  return `Missing client capability: ${what} needs the client to declare ${list}`;
}
