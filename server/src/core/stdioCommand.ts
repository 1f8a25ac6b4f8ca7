/**
 * How a stdio upstream's `command` + `args` are spawned on each platform, always with
 * `shell: false`. Pure: the platform, environment and a file check come in as values, so the
 * Windows rules are tested on any machine.
 *
 * POSIX: spawned as written; execvp searches PATH and runs scripts through their shebang.
 * Windows: CreateProcess neither searches PATHEXT nor runs batch files, and `npx`, `npm`, `pnpm`
 * and most `node_modules/.bin` shims are `.cmd` files — `"command": "npx"` would fail with
 * ENOENT, and Node (since the 2024 BatBadBut fix) refuses to spawn a `.cmd` directly. So the
 * command is looked up on PATH with PATHEXT's extensions (`npx` → `C:\Program Files\nodejs\npx.cmd`);
 * an `.exe`/`.com` runs directly, a `.cmd`/`.bat` runs as `cmd.exe /d /s /c "<line>"` with every
 * part quoted and cmd's metacharacters escaped (cross-spawn's rules, which npm itself relies
 * on), so an argument such as `a&calc` stays one argument and never a second command.
 * The current folder is not searched (Windows itself would): a workspace must not be able to
 * shadow `npx` with an `npx.cmd` of its own.
 */
import * as path from 'node:path';

export interface SpawnCommand {
  command: string;
  args: string[];
  /** Windows only: pass `args` to CreateProcess as written (they are already quoted for cmd.exe). */
  windowsVerbatimArguments: boolean;
}

export interface StdioCommandContext {
  platform: string;
  env: Record<string, string | undefined>;
  /** True when `file` exists and is a regular file. */
  isFile: (file: string) => boolean;
}

const DEFAULT_PATHEXT = '.COM;.EXE;.BAT;.CMD';
/** cmd.exe's special characters, each escaped with `^` (cross-spawn's set). */
const CMD_META = /([()\][%!^"`<>&|;, *?])/g;

export function resolveStdioCommand(command: string, args: readonly string[], ctx: StdioCommandContext): SpawnCommand {
  if (ctx.platform !== 'win32') return { command, args: [...args], windowsVerbatimArguments: false };
  const file = findOnWindows(command, ctx);
  if (!file || !/\.(cmd|bat)$/i.test(file))
    return { command: file ?? command, args: [...args], windowsVerbatimArguments: false };
  // A shim in node_modules/.bin re-reads its arguments through cmd once more: escape twice.
  const shim = /node_modules[\\/]\.bin[\\/][^\\/]+\.cmd$/i.test(file);
  const line = [escapeCommand(path.win32.normalize(file)), ...args.map((a) => escapeArgument(a, shim))].join(' ');
  return {
    command: envValue(ctx.env, 'ComSpec') ?? 'cmd.exe',
    args: ['/d', '/s', '/c', `"${line}"`],
    windowsVerbatimArguments: true,
  };
}

/** The file `command` names on Windows: as given when it has a PATHEXT extension, else with one; bare names on PATH. */
export function findOnWindows(command: string, ctx: StdioCommandContext): string | undefined {
  const exts = (envValue(ctx.env, 'PATHEXT') ?? DEFAULT_PATHEXT).split(';').filter((e) => e.startsWith('.'));
  const hasExt = exts.some((e) => command.toLowerCase().endsWith(e.toLowerCase()));
  const names = hasExt ? [command] : exts.map((e) => command + e.toLowerCase());
  const dirs =
    /[\\/]/.test(command) || path.win32.isAbsolute(command)
      ? ['']
      : (envValue(ctx.env, 'PATH') ?? '').split(';').filter(Boolean);
  for (const dir of dirs) {
    for (const name of names) {
      const candidate = dir ? path.win32.join(dir.replace(/^"(.*)"$/, '$1'), name) : name;
      if (ctx.isFile(candidate)) return candidate;
    }
  }
  return undefined;
}

/** Windows environment names are case-insensitive (`Path`, `PATH`). */
function envValue(env: Record<string, string | undefined>, name: string): string | undefined {
  const key = Object.keys(env).find((k) => k.toUpperCase() === name.toUpperCase());
  return key === undefined ? undefined : env[key];
}

function escapeCommand(command: string): string {
  return command.replace(CMD_META, '^$1');
}

/** MSVCRT quoting (backslashes before a quote doubled, the quote escaped), then cmd's escapes. */
export function escapeArgument(arg: string, doubleEscape = false): string {
  let quoted = arg.replace(/(\\*)"/g, '$1$1\\"').replace(/(\\*)$/, '$1$1');
  quoted = `"${quoted}"`.replace(CMD_META, '^$1');
  return doubleEscape ? quoted.replace(CMD_META, '^$1') : quoted;
}
