/**
 * `mcp-lens forget`: forgets what search learned from a workspace's use
 * (mcpLens.search.learnFromUsage): deletes the learned file in the workspace's state folder
 * (adapters/workspaceState.ts, adapters/usage/learnedFile.ts), where `serve` and the other
 * commands keep it. A running `mcp-lens serve` of the workspace sees the file
 * gone at its next search and forgets too; in VS Code, the command "MCP Lens: Forget Learned
 * Search" does the same for the editor's own state.
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { plural } from '../../../protocol/figureText';
import { learnedFilePath, readLearnedFile, removeLearnedFile } from '../adapters/usage/learnedFile';
import { workspaceStateDir } from '../adapters/workspaceState';
import { errorMessage } from '../core/errorMessage';
import type { CliCommand } from './command';
import { commandUsage, parseCommand, type CliOptions, type CommandSpec } from './commandLine';
import { EXIT } from './exitCodes';
import { WORKSPACE_OPTIONS } from './lensFromArgs';

const SPEC = {
  name: 'forget',
  summary: "forget what search learned from this workspace's use",
  description:
    "Forgets what search learned from this workspace's find_tools requests (the words that led an agent to each tool; setting mcpLens.search.learnFromUsage). Servers are not started. A running `mcp-lens serve` of the workspace forgets too, at its next search.",
  options: {
    workspace: WORKSPACE_OPTIONS.workspace,
    json: { help: 'one JSON document: { file, forgotten: number of learned requests }' },
  },
} as const satisfies CommandSpec<CliOptions>;

export const forget: CliCommand = {
  usage: commandUsage(SPEC, true),
  summary: SPEC.summary,
  async run(argv) {
    const parsed = parseCommand(SPEC, argv);
    if ('exit' in parsed) return parsed.exit;
    const { values } = parsed;
    const workspace = resolve(values.workspace ?? process.cwd());
    if (!existsSync(workspace)) {
      process.stderr.write(`mcp-lens forget: workspace folder does not exist: ${workspace}\n`);
      return EXIT.usage;
    }
    const file = learnedFilePath(workspaceStateDir(workspace));
    const read = readLearnedFile(file);
    if ('refused' in read)
      process.stderr.write(`mcp-lens forget: ${file} is not a file MCP Lens wrote (${read.refused}); removing it\n`);
    const forgotten = 'examples' in read ? read.examples.length : 0;
    try {
      removeLearnedFile(file);
    } catch (err) {
      process.stderr.write(`mcp-lens forget: cannot delete ${file}: ${errorMessage(err)}\n`);
      return EXIT.failure;
    }
    if (values.json) process.stdout.write(`${JSON.stringify({ file, forgotten })}\n`);
    else
      process.stdout.write(
        forgotten > 0
          ? `Forgot ${plural(forgotten, 'learned request')} (${file}).\n`
          : `Nothing learned to forget for ${workspace}.\n`,
      );
    return 0;
  },
};
