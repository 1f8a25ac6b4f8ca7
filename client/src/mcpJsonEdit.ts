/**
 * Takes server entries out of a .vscode/mcp.json text with jsonc-parser edits, so comments,
 * formatting and every other entry stay exactly as they were. Pure (unit-tested).
 */
import { applyEdits, modify, parse, type ParseError } from 'jsonc-parser';

export interface Extraction {
  /** The file's text without the named servers. */
  text: string;
  /** The removed entries by name, as they were in the file. */
  entries: Record<string, Record<string, unknown>>;
  /** Requested names that the file does not declare. */
  missing: string[];
}

export function extractServers(text: string, names: readonly string[]): Extraction {
  const errors: ParseError[] = [];
  const root: unknown = parse(text, errors, { allowTrailingComma: true, disallowComments: false });
  if (errors.length > 0 || !isRecord(root))
    throw new Error('mcp.json is not valid JSON with comments; fix it before moving servers');
  const servers = isRecord(root.servers) ? root.servers : {};
  const entries: Record<string, Record<string, unknown>> = {};
  const missing: string[] = [];
  let out = text;
  const fmt = { formattingOptions: { insertSpaces: true, tabSize: 2, eol: text.includes('\r\n') ? '\r\n' : '\n' } };
  for (const name of names) {
    const entry = servers[name];
    if (!isRecord(entry)) {
      missing.push(name);
      continue;
    }
    entries[name] = entry;
    out = applyEdits(out, modify(out, ['servers', name], undefined, fmt));
  }
  return { text: out, entries, missing };
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
