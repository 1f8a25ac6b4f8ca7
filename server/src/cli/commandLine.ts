/**
 * A command's options, declared once: the parser (node:util parseArgs) and the `--help` text
 * are both made from the same table, so the help cannot say what the code does not do. Every
 * command gets `--help, -h`. A command line the table does not allow is a usage error: one
 * line saying what is wrong and how to see the options, exit code 2 (exitCodes.ts).
 */
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { EXIT } from './exitCodes';

/** One option. */
export interface CliOption {
  readonly short?: string;
  /** The placeholder of its value (`N`, `DIR`); absent: a switch. */
  readonly value?: string;
  /** May be given without its value (`--http` or `--http 8080`): then it is `true`. Only for `integer` options. */
  readonly optionalValue?: true;
  /** A whole number in this range; the parser checks it. */
  readonly integer?: { readonly min: number; readonly max: number };
  /** What it does, defaults included (taken from the constants the code uses); wrapped for the terminal. */
  readonly help: string;
}

export type CliOptions = Readonly<Record<string, CliOption>>;

/** The parsed values: a switch is a boolean, an integer option a number, any other a string; absent when not given. */
export type OptionValues<O extends CliOptions> = {
  -readonly [K in keyof O]?: O[K] extends { optionalValue: true }
    ? number | true
    : O[K] extends { integer: object }
      ? number
      : O[K] extends { value: string }
        ? string
        : boolean;
} & { help?: boolean };

export interface CommandSpec<O extends CliOptions> {
  readonly name: string;
  /** Its positional arguments as the usage line shows them (`QUERY`, `<server>`). */
  readonly args?: string;
  /** How many positional arguments it takes. */
  readonly positionals?: { readonly min: number; readonly max: number };
  readonly summary: string;
  /** The paragraph under the usage line. */
  readonly description: string;
  readonly options: O;
  /** Text after the options. */
  readonly notes?: string;
  /** Where `--help` goes: stdout, unless the command's stdout is a protocol's (`serve`). */
  readonly helpTo?: 'stderr';
}

export type ParsedCommand<O extends CliOptions> =
  | { values: OptionValues<O>; positionals: string[] }
  /** Done: the help was printed, or a usage error; return this exit code. */
  | { exit: number };

const HELP_OPTION: CliOption = { short: 'h', help: 'show this help' };

/** Width of the option column, and of the whole help text. */
const OPTION_COLUMN = 24;
const WIDTH = 100;

/** `search QUERY [--limit N] [--server NAME] …`; `brief`: `search QUERY [options]`. */
export function commandUsage<O extends CliOptions>(spec: CommandSpec<O>, brief = false): string {
  const options = brief ? ['[options]'] : Object.entries(spec.options).map(([name, o]) => `[--${name}${valueText(o)}]`);
  return [spec.name, ...(spec.args ? [spec.args] : []), ...options].join(' ');
}

export function commandHelp<O extends CliOptions>(spec: CommandSpec<O>): string {
  const lines = [`Usage: mcp-lens ${commandUsage(spec)}`, '', ...wrap(spec.description, WIDTH), '', 'Options:'];
  for (const [name, o] of [...Object.entries(spec.options), ['help', HELP_OPTION] as const]) {
    const flag = `  --${name}${o.short ? `, -${o.short}` : ''}${valueText(o)}`;
    const text = wrap(o.help, WIDTH - OPTION_COLUMN);
    const first =
      flag.length < OPTION_COLUMN ? [`${flag.padEnd(OPTION_COLUMN)}${text[0] ?? ''}`] : [flag, pad(text[0])];
    lines.push(...first, ...text.slice(1).map(pad));
  }
  if (spec.notes)
    lines.push('', ...spec.notes.split('\n\n').flatMap((p, i) => [...(i ? [''] : []), ...wrap(p, WIDTH)]));
  return lines.join('\n') + '\n';
}

/**
 * The command line against the table: values and positionals, or (`exit`) the help printed to
 * stdout (0) or a one-line usage error with a hint printed to stderr (2).
 */
export function parseCommand<O extends CliOptions>(spec: CommandSpec<O>, argv: readonly string[]): ParsedCommand<O> {
  const optional = takeOptionalValues(spec, argv);
  if ('error' in optional) return usageError(spec.name, optional.error);
  const options: NonNullable<ParseArgsConfig['options']> = { help: { type: 'boolean', short: 'h' } };
  for (const [name, o] of Object.entries(spec.options))
    if (!o.optionalValue)
      options[name] = { type: o.value ? 'string' : 'boolean', ...(o.short ? { short: o.short } : {}) };
  let parsed;
  try {
    parsed = parseArgs({
      args: optional.rest,
      options,
      allowPositionals: (spec.positionals?.max ?? 0) > 0,
      strict: true,
    });
  } catch (err) {
    return usageError(spec.name, firstSentence((err as Error).message));
  }
  const values: Record<string, unknown> = { ...parsed.values, ...optional.values };
  if (values.help) {
    (spec.helpTo === 'stderr' ? process.stderr : process.stdout).write(commandHelp(spec));
    return { exit: EXIT.ok };
  }
  for (const [name, o] of Object.entries(spec.options)) {
    const v = values[name];
    if (!o.integer || typeof v !== 'string') continue;
    const n = integerIn(v, o.integer);
    if (n === undefined)
      return usageError(
        spec.name,
        `--${name} wants a whole number from ${o.integer.min} to ${o.integer.max}, got "${v}"`,
      );
    values[name] = n;
  }
  const positionals = parsed.positionals;
  const range = spec.positionals ?? { min: 0, max: 0 };
  if (positionals.length < range.min) return usageError(spec.name, `missing ${spec.args ?? 'argument'}`);
  if (positionals.length > range.max) return usageError(spec.name, `unexpected argument "${positionals[range.max]}"`);
  return { values: values as OptionValues<O>, positionals };
}

/** Prints `mcp-lens NAME: MESSAGE` and the way to the options; the exit code of a usage error. */
export function usageError(command: string, message: string): { exit: number } {
  process.stderr.write(`mcp-lens ${command}: ${message}\nRun \`mcp-lens ${command} --help\` for its options.\n`);
  return { exit: EXIT.usage };
}

/** `--name`, `--name 8080`, `--name=8080` of options whose value may be left out; the rest for parseArgs. */
function takeOptionalValues(
  spec: CommandSpec<CliOptions>,
  argv: readonly string[],
): { values: Record<string, number | true>; rest: string[] } | { error: string } {
  const values: Record<string, number | true> = {};
  const rest: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--') {
      rest.push(...argv.slice(i));
      break;
    }
    const eq = arg.indexOf('=');
    const name = arg.startsWith('--') ? arg.slice(2, eq < 0 ? undefined : eq) : '';
    const o = spec.options[name];
    if (!o?.optionalValue || !o.integer) {
      rest.push(arg);
      continue;
    }
    const given = eq >= 0 ? arg.slice(eq + 1) : /^\d+$/.test(argv[i + 1] ?? '') ? argv[++i]! : undefined;
    const n = given === undefined ? true : integerIn(given, o.integer);
    if (n === undefined)
      return { error: `--${name} wants a whole number from ${o.integer.min} to ${o.integer.max}, got "${given}"` };
    values[name] = n;
  }
  return { values, rest };
}

function integerIn(text: string, range: { min: number; max: number }): number | undefined {
  const n = /^-?\d+$/.test(text.trim()) ? Number(text) : NaN;
  return Number.isInteger(n) && n >= range.min && n <= range.max ? n : undefined;
}

function valueText(o: CliOption): string {
  if (!o.value) return '';
  return o.optionalValue ? ` [${o.value}]` : ` ${o.value}`;
}

/** parseArgs's messages go on about '--' after their first sentence. */
function firstSentence(message: string): string {
  const end = message.search(/\.\s/);
  return end > 0 ? message.slice(0, end) : message.replace(/\.$/, '');
}

function pad(line: string | undefined): string {
  return line ? `${' '.repeat(OPTION_COLUMN)}${line}` : '';
}

/** Words into lines of at most `width` characters (a longer word has its own line); '\n' starts a new line. */
export function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  for (const paragraph of text.split('\n')) {
    let line = '';
    for (const word of paragraph.split(/ +/)) {
      if (line && line.length + 1 + word.length > width) {
        lines.push(line);
        line = word;
      } else line = line ? `${line} ${word}` : word;
    }
    lines.push(line);
  }
  return lines;
}
