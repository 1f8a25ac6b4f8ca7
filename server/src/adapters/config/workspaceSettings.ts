/**
 * The CLI's stand-in for the editor's settings: reads `<workspace>/.vscode/settings.json`
 * (JSONC) and gathers every `mcpLens.*` key, flat (`"mcpLens.search.defaultLimit": 5`) or
 * nested (`"mcpLens": { "search": { ... } }`), into one object for `sanitizeSettings`.
 */
import * as path from 'node:path';
import { readConfigFile } from './configFileReader';
import { getNodeValue, parseTree, type ParseError } from 'jsonc-parser';
import { syntaxProblem } from '../../core/config/jsonPath';
import type { ConfigProblem } from '../../core/config/types';

export interface WorkspaceSettings {
  /** The gathered `mcpLens.*` values, unsanitized. */
  settings: unknown;
  /** The settings file (whether or not it exists). */
  file: string;
  problems: ConfigProblem[];
}

const PREFIX = 'mcpLens';
/** Keys that could reach Object.prototype through a dotted setting name. */
const UNSAFE = new Set(['__proto__', 'constructor', 'prototype']);

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Sets `value` at `segments`, merging objects so flat and nested keys combine. */
function setPath(target: Record<string, unknown>, segments: string[], value: unknown): void {
  if (segments.some((s) => UNSAFE.has(s) || s === '')) return;
  if (segments.length === 0) {
    if (isRecord(value)) for (const [k, v] of Object.entries(value)) setPath(target, [k], v);
    return;
  }
  const [head, ...rest] = segments;
  if (rest.length === 0) {
    if (isRecord(value) && isRecord(target[head]) && head !== 'servers')
      setPath(target[head] as Record<string, unknown>, [], value);
    else target[head] = value;
    return;
  }
  if (!isRecord(target[head])) target[head] = {};
  setPath(target[head] as Record<string, unknown>, rest, value);
}

/** Gathers the `mcpLens.*` keys of a parsed settings object, in file order (later wins). */
function gatherLensSettings(root: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(root)) {
    if (key === PREFIX) setPath(out, [], value);
    else if (key.startsWith(`${PREFIX}.`)) setPath(out, key.slice(PREFIX.length + 1).split('.'), value);
  }
  return out;
}

export function readWorkspaceSettings(workspaceFolder: string): WorkspaceSettings {
  const file = path.join(path.resolve(workspaceFolder), '.vscode', 'settings.json');
  const read = readConfigFile(file, [workspaceFolder]);
  if ('missing' in read) return { settings: {}, file, problems: [] };
  if ('refused' in read)
    return {
      settings: {},
      file,
      problems: [{ severity: 'error', file, path: '', message: `not read: ${read.refused}` }],
    };
  const text = read.text;
  if (text.trim() === '') return { settings: {}, file, problems: [] };
  const errors: ParseError[] = [];
  const root = parseTree(text, errors, { allowTrailingComma: true, disallowComments: false });
  if (errors.length > 0 || !root || root.type !== 'object') {
    const problem: ConfigProblem =
      errors.length > 0 || !root
        ? syntaxProblem(file, text, errors)
        : {
            severity: 'error',
            file,
            path: '',
            message: 'expected a JSON object at the top level',
            offset: 0,
            length: 0,
          };
    return { settings: {}, file, problems: [problem] };
  }
  // jsonc-parser builds null-prototype objects; hand on plain JSON like the editor does.
  const settings = JSON.parse(
    JSON.stringify(gatherLensSettings(getNodeValue(root) as Record<string, unknown>)),
  ) as unknown;
  return { settings, file, problems: [] };
}
