/** Terminal prompts for approvals and `${input:…}` values; only used when both ends are a TTY. */
import { createInterface } from 'node:readline';

export function canPrompt(): boolean {
  return Boolean(process.stdin.isTTY && process.stderr.isTTY);
}

export function askLine(question: string, hidden = false): Promise<string> {
  return new Promise((resolvePromise) => {
    const rl = createInterface({ input: process.stdin, output: process.stderr, terminal: true });
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
