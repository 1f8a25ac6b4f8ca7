/**
 * The catalog's tools as search learning keys them (key → server and fingerprint), with each
 * fingerprint made only when it is asked for. A fingerprint hashes a tool's description and
 * whole input schema (toolFingerprint.ts): hashing every tool would weigh on a warm start's
 * first find_tools while servers spawn, yet only the tools with learned examples (reconcile) and
 * the tools called (a lesson) ever need theirs. Read-only over one
 * catalog: a new catalog makes a new one.
 */
import type { CatalogTool } from '../catalog';
import type { ListedFingerprints } from './learnedExamples';
import { toolFingerprint } from './toolFingerprint';

export class CatalogFingerprints implements ListedFingerprints {
  private readonly byKey = new Map<string, CatalogTool>();
  /** Servers that listed at least one tool: the ones whose examples are held to the catalog. */
  private readonly servers = new Map<string, { get(key: string): string | undefined }>();
  private readonly made = new Map<string, string>();

  constructor(tools: readonly CatalogTool[]) {
    for (const t of tools) {
      this.byKey.set(t.key, t);
      if (!this.servers.has(t.server)) this.servers.set(t.server, { get: (key) => this.fingerprintOn(t.server, key) });
    }
  }

  /** How many tools (distinct keys) the catalog has. */
  get size(): number {
    return this.byKey.size;
  }

  /** A tool's server and fingerprint, by key; undefined when the catalog has no such tool. */
  tool(key: string): { server: string; fingerprint: string } | undefined {
    const t = this.byKey.get(key);
    return t && { server: t.server, fingerprint: this.fingerprint(t) };
  }

  /** One server's tools, key → fingerprint; undefined when the server listed none. */
  get(server: string): { get(key: string): string | undefined } | undefined {
    return this.servers.get(server);
  }

  private fingerprintOn(server: string, key: string): string | undefined {
    const t = this.byKey.get(key);
    return t?.server === server ? this.fingerprint(t) : undefined;
  }

  private fingerprint(t: CatalogTool): string {
    let f = this.made.get(t.key);
    if (f === undefined) this.made.set(t.key, (f = toolFingerprint(t)));
    return f;
  }
}
