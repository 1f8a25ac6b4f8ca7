/** Terminal prompts for approvals and `${input:…}` values; only used when both ends are a TTY. */
import { createInterface } from 'node:readline';
import { escapeForDisplay, quotedForDisplay } from '../../../protocol/untrustedText';

export function canPrompt(): boolean {
  return Boolean(process.stdin.isTTY && process.stderr.isTTY);
}

export function askLine(question: string, hidden = false): Promise<string> {
  return new Promise((resolvePromise) => {
    const rl = createInterface({ input: process.stdin, output: process.stderr, terminal: true });
    // Ctrl+C at a prompt stops the command as it would anywhere else (serve shuts down cleanly).
    rl.once('SIGINT', () => {
      rl.close();
      process.kill(process.pid, 'SIGINT');
    });
    if (hidden) {
      // Echo nothing while a secret is typed.
      (rl as unknown as { _writeToOutput: (s: string) => void })._writeToOutput = (s: string) => {
        if (s.includes(question)) process.stderr.write(question);
      };
    }
    rl.question(question, (answer) => {
      rl.close();
      if (hidden) process.stderr.write('\n');
      resolvePromise(answer.trim());
    });
  });
}

export async function askYesNo(question: string): Promise<boolean> {
  return /^y(es)?$/i.test(await askLine(question));
}

/**
 * What the terminal approval prompt shows for one server: every field on its own line, escaped
 * (core/config/describe); for a wider tool filter (`kind: 'tool-filter'`), each change.
 */
export interface PendingServer {
  kind?: 'tool-filter';
  name: string;
  sourceFile: string;
  details: string[];
}

export function approvalQuestion(p: PendingServer): string {
  if (p.kind === 'tool-filter') {
    return [
      `MCP Lens: the tool filter (mcpLens.include / mcpLens.exclude) in ${escapeForDisplay(p.sourceFile)} changed so that hidden tools could be found and called:`,
      ...p.details.map((line) => `  ${line}`),
      "Allow only a change you made yourself: an agent's file tools can write this file.",
      'Apply it? [y/N] ',
    ].join('\n');
  }
  return [
    `MCP Lens: a server declared in ${escapeForDisplay(p.sourceFile)} wants to start. Allow only what you trust: it runs on your machine.`,
    ...p.details.map((line) => `  ${line}`),
    'Allow? [y/N] ',
  ].join('\n');
}

/** The prompt for a workspace's restricted settings (values that send data out or change what runs). */
export function restrictedQuestion(values: Record<string, string>, file: string): string {
  return [
    `MCP Lens: ${escapeForDisplay(file)} sets settings that send data out or change what runs:`,
    ...Object.entries(values).map(([k, v]) => `  mcpLens.${k}: ${quotedForDisplay(v)}`),
    '(mcpLens.ollama.host receives every tool description and every search query.)',
    'Use them? [y/N] ',
  ].join('\n');
}
