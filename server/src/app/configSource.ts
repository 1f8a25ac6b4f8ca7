/**
 * The workspace's MCP configuration as a live source: loads it (keeping the last good text of
 * a file that stops parsing), reports each problem once when it appears (syntax errors as
 * errors, with file, line and column), and, when asked to watch, says when any file it read or
 * would read — config files, `envFile`s, the CLI's settings and approvals — changes on disk.
 */
import { formatProblem } from '../core/config/resolve';
import type { FolderInput } from '../core/config/folders';
import type { LoadedConfig } from '../core/config/types';
import type { Logger } from '../core/logger';
import type { McpLensSettings } from '../../../protocol/settings';
import { ConfigWatcher } from '../adapters/config/configWatcher';
import { configFilesToWatch, loadWorkspaceConfig, type LoadConfigOptions } from '../adapters/config/loadConfig';

export interface ConfigSourceOptions {
  workspaceFolder: string;
  configFile?: string;
  env?: Record<string, string | undefined>;
  log: Logger;
  /** Watch the files and fire onDidChange. */
  watch: boolean;
  /** Other files whose change should reload (the CLI's settings and approvals). */
  extraFiles?: string[];
}

export class ConfigSource {
  private readonly lastGood = new Map<string, string>();
  private readonly watcher: ConfigWatcher | undefined;
  private reported = new Set<string>();

  constructor(private readonly o: ConfigSourceOptions) {
    this.watcher = o.watch ? new ConfigWatcher(o.log) : undefined;
  }

  /** Fires when a watched file changed on disk. */
  onDidChange(listener: () => void): { dispose(): void } {
    return this.watcher?.onDidChange(() => listener()) ?? { dispose: () => undefined };
  }

  /** `folders`: a multi-root workspace's folders, each read as its own (core/config/folders.ts). */
  load(settings: McpLensSettings, inputs: Record<string, string>, folders?: readonly FolderInput[]): LoadedConfig {
    const options: LoadConfigOptions = {
      workspaceFolder: this.o.workspaceFolder,
      settings,
      inputs,
      lastGood: this.lastGood,
    };
    if (folders) options.folders = folders;
    if (this.o.configFile) options.configFile = this.o.configFile;
    if (this.o.env) options.env = this.o.env;
    const config = loadWorkspaceConfig(options);
    this.report(config);
    this.watcher?.setFiles([...configFilesToWatch(options), ...config.files, ...(this.o.extraFiles ?? [])]);
    return config;
  }

  close(): void {
    this.watcher?.close();
  }

  /** Logs the problems that are new since the last load. */
  private report(config: LoadedConfig): void {
    const now = new Set<string>();
    for (const p of config.problems) {
      const line = formatProblem(p, config.folders);
      now.add(line);
      if (this.reported.has(line)) continue;
      // A file that does not parse is an error the user must fix; the rest are warnings.
      if (p.severity === 'error' && p.path === '') this.o.log.error(line);
      else this.o.log.warn(line);
    }
    this.reported = now;
  }
}
