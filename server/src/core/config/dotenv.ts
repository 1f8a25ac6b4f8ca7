/**
 * The dotenv format an `envFile` holds: `KEY=VALUE` lines, `#` comments, an optional
 * `export ` prefix, single quotes (literal), double quotes (with \n, \t, \", \\ escapes and
 * multi-line values), and unquoted values whose trailing ` # comment` is dropped.
 * No `${VAR}` expansion: the file's values are taken literally, as VS Code does.
 */

export interface DotenvResult {
  values: Record<string, string>;
  /** Lines that are not `KEY=VALUE` (1-based line number and what is wrong). */
  errors: { line: number; message: string }[];
}

const LINE = /^\s*(?:export\s+)?([A-Za-z_][A-Za-z0-9_.-]*)\s*=\s*(.*)$/;

export function parseDotenv(text: string): DotenvResult {
  const values: Record<string, string> = {};
  const errors: DotenvResult['errors'] = [];
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const raw = lines[i];
    if (raw.trim() === '' || raw.trim().startsWith('#')) continue;
    const m = LINE.exec(raw);
    if (!m) {
      errors.push({ line: i + 1, message: 'expected KEY=VALUE' });
      continue;
    }
    const [, key, rest] = m;
    const quote = rest[0];
    if (quote === '"' || quote === "'") {
      const parsed = readQuoted(lines, i, rest, quote);
      if (parsed === undefined) {
        errors.push({ line: i + 1, message: `unterminated ${quote === '"' ? 'double' : 'single'}-quoted value` });
        continue;
      }
      values[key] = parsed.value;
      i = parsed.lastLine;
    } else {
      values[key] = rest.replace(/\s+#.*$/, '').trim();
    }
  }
  return { values, errors };
}

/** Reads a quoted value that may span lines; returns the value and the index of its last line. */
function readQuoted(lines: string[], start: number, rest: string, quote: string): { value: string; lastLine: number } | undefined {
  let body = rest.slice(1);
  for (let line = start; line < lines.length; line++) {
    const end = closingQuote(body, quote);
    if (end >= 0) {
      const inner = body.slice(0, end);
      return { value: quote === '"' ? unescapeDouble(inner) : inner, lastLine: line };
    }
    if (line + 1 < lines.length) body += '\n' + lines[line + 1];
  }
  return undefined;
}

function closingQuote(body: string, quote: string): number {
  for (let i = 0; i < body.length; i++) {
    if (quote === '"' && body[i] === '\\') {
      i++;
      continue;
    }
    if (body[i] === quote) return i;
  }
  return -1;
}

function unescapeDouble(s: string): string {
  return s.replace(/\\([nrt"\\])/g, (_, c: string) => ({ n: '\n', r: '\r', t: '\t', '"': '"', '\\': '\\' })[c] ?? c);
}
