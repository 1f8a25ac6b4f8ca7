/**
 * MCP Lens's version, named once: package.json's `version`, which esbuild writes into each
 * bundle at build time (only that field, not the file). The gateway's and the sidecar's
 * serverInfo, the upstream clientInfo and `mcp-lens --version` all say this.
 */
import { version } from '../../../package.json';

export const LENS_VERSION: string = version;
