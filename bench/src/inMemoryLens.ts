/**
 * A LensApp as the benches and the in-process tests open one: trusted, every server approved,
 * silent, a keyword index in memory and embeddings off, so what they measure is MCP Lens and
 * not an Ollama they may not have.
 */
import { join } from 'node:path';
import { sanitizeSettings } from '../../protocol/settings';
import type { LensAppOptions } from '../../server/src/app/lensAppOptions';
import { silentLogger } from '../../server/src/core/logger';
import { MemoryToolIndex } from '../../server/src/index/memoryIndex';

/** `settings`: raw mcpLens settings (embeddings stay off whatever they say). */
export function inMemoryLensOptions(workspace: string, settings: Record<string, unknown> = {}): LensAppOptions {
  return {
    workspaceFolder: workspace,
    storageDir: join(workspace, '.mcp-lens'),
    settings: sanitizeSettings({ ...settings, embedding: { enabled: false } }),
    trusted: true,
    approvals: {},
    autoApprove: true,
    inputs: {},
    log: silentLogger,
    index: new MemoryToolIndex('keyword only: in-memory index'),
  };
}
