/**
 * One config file's text → its server entries (with JSON paths and a locator for
 * diagnostics) and `inputs` declarations. Unparsable JSONC is one problem for the file and
 * yields no servers: starting half of a broken file could run something the user did not mean.
 */
import { getNodeValue, parseTree, type Node, type ParseError } from 'jsonc-parser';
import { isRecord } from './entryReader';
import { formatJsonPath, syntaxProblem, treeLocator, type Locator } from './jsonPath';
import { serverKeys } from './sources';
import type { EntryInput } from './entry';
import type { ConfigProblem, InputDeclaration } from './types';
import type { ConfigSourceKind } from '../../../../protocol/model';

export interface ParsedConfigFile {
  entries: EntryInput[];
  inputs: InputDeclaration[];
  problems: ConfigProblem[];
}

export function parseConfigFile(file: string, kind: ConfigSourceKind, fileText: string): ParsedConfigFile {
  // Windows editors may save a byte-order mark; the editor's document has none, so offsets
  // (and line/column) are counted without it. CRLF needs nothing: JSONC treats it as whitespace.
  const text = fileText.charCodeAt(0) === 0xfeff ? fileText.slice(1) : fileText;
  const out: ParsedConfigFile = { entries: [], inputs: [], problems: [] };
  if (text.trim() === '') return out;
  const errors: ParseError[] = [];
  const root = parseTree(text, errors, { allowTrailingComma: true, disallowComments: false });
  if (errors.length > 0 || !root) {
    out.problems.push(syntaxProblem(file, text, errors));
    return out;
  }
  const locate = treeLocator(root);
  if (root.type !== 'object') {
    out.problems.push({
      severity: 'error',
      file,
      path: '',
      message: 'expected a JSON object at the top level',
      offset: root.offset,
      length: root.length,
    });
    return out;
  }
  const value = getNodeValue(root) as Record<string, unknown>;
  const keys = serverKeys(kind).filter((k) => value[k] !== undefined);
  for (const key of keys) readServers(root, key, file, kind, locate, out);
  if (keys.length === 0) noServersKey(value, file, kind, out);
  if (kind === 'vscode-mcp-json' || kind === 'cli-config') readInputs(value.inputs, file, locate, out);
  return out;
}

function readServers(
  root: Node,
  key: string,
  file: string,
  kind: ConfigSourceKind,
  locate: Locator,
  out: ParsedConfigFile,
): void {
  const property = root.children?.find((p) => p.children?.[0]?.value === key);
  const node = property?.children?.[1];
  if (!node || node.type !== 'object') {
    out.problems.push({
      severity: 'error',
      file,
      path: key,
      message: `"${key}" must be an object mapping server names to definitions`,
      ...locate([key]),
    });
    return;
  }
  for (const entry of node.children ?? []) {
    const [nameNode, valueNode] = entry.children ?? [];
    if (!nameNode || !valueNode) continue;
    const name = String(nameNode.value);
    out.entries.push({ name, raw: getNodeValue(valueNode), kind, file, jsonPath: [key, name], locate });
  }
}

function noServersKey(
  value: Record<string, unknown>,
  file: string,
  kind: ConfigSourceKind,
  out: ParsedConfigFile,
): void {
  if (kind === 'cli-config') {
    out.problems.push({ severity: 'error', file, path: '', message: 'no "servers" or "mcpServers" object found' });
  } else if (kind === 'vscode-mcp-json' && value.mcpServers !== undefined) {
    out.problems.push({
      severity: 'warning',
      file,
      path: 'mcpServers',
      message: 'VS Code\'s mcp.json lists servers under "servers", not "mcpServers"; these entries are ignored',
    });
  }
}

function readInputs(raw: unknown, file: string, locate: Locator, out: ParsedConfigFile): void {
  if (raw === undefined) return;
  if (!Array.isArray(raw)) {
    out.problems.push({
      severity: 'warning',
      file,
      path: 'inputs',
      message: '"inputs" must be an array',
      ...locate(['inputs']),
    });
    return;
  }
  raw.forEach((item, i) => {
    if (!isRecord(item) || typeof item.id !== 'string' || item.id === '') {
      out.problems.push({
        severity: 'warning',
        file,
        path: formatJsonPath(['inputs', i]),
        message: 'expected an object with a string "id"',
        ...locate(['inputs', i]),
      });
      return;
    }
    out.inputs.push({
      id: item.id,
      type: typeof item.type === 'string' ? item.type : 'promptString',
      ...(typeof item.description === 'string' ? { description: item.description } : {}),
      ...(typeof item.password === 'boolean' ? { password: item.password } : {}),
      file,
    });
  });
}
