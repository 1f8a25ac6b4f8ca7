/**
 * The `envFile` format, read exactly as VS Code reads it (microsoft/vscode
 * `src/vs/base/common/envfile.ts`, `parseEnvFile`), so one `.vscode/mcp.json` entry gives a
 * server the same environment whether VS Code or MCP Lens starts it:
 *  - one variable per line (no multi-line values); CRLF and lone CR end lines too; the line
 *    is trimmed; empty lines and lines starting with `#` are skipped;
 *  - an optional `export ` prefix; the key ends at the first `=` or `:` outside quotes
 *    (`KEY=value` and `KEY: value` alike), both sides trimmed;
 *  - a `#` outside quotes starts a comment, with or without a space before it (`a#b` is `a`);
 *  - a value wholly in '…', "…" or `…` loses its quotes; in double quotes `\n` and `\r` become
 *    a newline and a carriage return, every other backslash stays as written;
 *  - the last line that sets a key wins. No `${VAR}` expansion.
 * Node's `util.parseEnv` is no stand-in: on the table of test/unit/configDotenv.test.ts it
 * agrees with VS Code on 17 of 30 cases (Node 20.20: no `KEY: value`, quoted values across
 * lines, indented keys kept with their indentation). Pure: the caller reads the file.
 */

export interface DotenvResult {
  values: Record<string, string>;
  /**
   * Lines VS Code skips or reads in a way the author may not expect (1-based line number and
   * what happened). Never the value: an env file holds secrets.
   */
  warnings: { line: number; message: string }[];
}

const QUOTES = new Set(['"', "'", '`']);

export function parseDotenv(text: string): DotenvResult {
  const values: Record<string, string> = {};
  const warnings: DotenvResult['warnings'] = [];
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  for (let i = 0; i < lines.length; i++) {
    // trim() also drops a BOM (U+FEFF is white space to JavaScript), as in VS Code.
    let line = lines[i]!.trim();
    if (line === '' || line.startsWith('#')) continue;
    if (line.startsWith('export ')) line = line.slice('export '.length).trim();
    const sep = indexOutsideQuotes(line, (c) => c === '=' || c === ':');
    const key = sep < 0 ? '' : line.slice(0, sep).trim();
    if (key === '') {
      warnings.push({
        line: i + 1,
        message: sep < 0 ? 'expected KEY=VALUE or KEY: VALUE; line ignored' : 'no name before the = or :; line ignored',
      });
      continue;
    }
    let value = line.slice(sep + 1).trim();
    const comment = indexOutsideQuotes(value, (c) => c === '#');
    if (comment >= 0) value = value.slice(0, comment).trim();
    const quote = value[0];
    if (quote !== undefined && QUOTES.has(quote)) {
      if (value.length >= 2 && value.endsWith(quote)) {
        value = value.slice(1, -1);
        if (quote === '"') value = value.replace(/\\n/g, '\n').replace(/\\r/g, '\r');
      } else {
        warnings.push({
          line: i + 1,
          message: `the value of ${key} starts with ${quote} but does not end with it on this line; it is taken as written, quotes included (a value cannot span lines)`,
        });
      }
    }
    values[key] = value;
  }
  return { values, warnings };
}

/**
 * The first character `match` accepts that is not inside quotes: a quote opens at ', " or `
 * and closes at the same character unless a backslash precedes it. An unclosed quote runs to
 * the end of the line.
 */
function indexOutsideQuotes(text: string, match: (c: string) => boolean): number {
  let open: string | undefined;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (open !== undefined) {
      if (c === open && text[i - 1] !== '\\') open = undefined;
    } else if (QUOTES.has(c)) open = c;
    else if (match(c)) return i;
  }
  return -1;
}
