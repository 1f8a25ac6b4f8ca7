/**
 * One server entry → a resolved `ServerConfig`, or a `DisabledServer` with the reason.
 * The same shape is read from `.vscode/mcp.json` `servers`, `mcpServers` files and
 * `mcpLens.servers`: type omitted with `command` is stdio, with `url` http.
 */
import * as path from 'node:path';
import { parseDotenv } from './dotenv';
import { EntryReader, isRecord } from './entryReader';
import { fingerprintServer } from './fingerprint';
import { readOAuth } from './oauthEntry';
import { qualifiedName, type ConfigFolder } from './folders';
import { formatJsonPath, type JsonPath, type Locator } from './jsonPath';
import type { VariableScope } from './variables';
import type { ConfigProblem, DisabledServer, ServerConfig, ServerSource, ShownStdio } from './types';
import type { ConfigSourceKind } from '../../../../protocol/model';
import { RESTRICTED_APPROVAL_NAME, TOOL_FILTER_APPROVAL_NAME } from '../../../../protocol/settings';
import { escapeForDisplay, hasHiddenCharacters, quotedForDisplay } from '../../../../protocol/untrustedText';

export interface EntryInput {
  name: string;
  raw: unknown;
  kind: ConfigSourceKind;
  file: string;
  /** Path of the entry, e.g. `['servers', 'github']` or `['mcpLens', 'servers', 'github']`. */
  jsonPath: JsonPath;
  locate: Locator;
  /**
   * The workspace folder whose file or settings declared it: `${workspaceFolder}` and relative
   * paths resolve against it, and in a multi-root workspace (a labelled folder) the server is
   * named `<label>/<name>` and its fingerprint covers the folder (folders.ts).
   */
  folder?: ConfigFolder;
}

export interface EntryScope extends VariableScope {
  /** Text of an env file, or undefined when it does not exist. */
  /** An `envFile`'s text; undefined when there is none; `refused` with the reason when it cannot be read as one (adapters/config/configFileReader.ts). */
  readEnvFile(path: string): string | { refused: string } | undefined;
}

export interface EntryResult {
  server?: ServerConfig;
  disabled?: DisabledServer;
  problems: ConfigProblem[];
  missingInputs: string[];
  /** Env files that were read (for watching). */
  envFiles: string[];
}

const TYPES = ['stdio', 'http', 'sse'] as const;
type Transport = (typeof TYPES)[number];
/** Spellings other tools write for streamable HTTP. */
const TYPE_ALIASES: Record<string, Transport> = { 'streamable-http': 'http', streamableHttp: 'http' };

export function readEntry(input: EntryInput, entryScope: EntryScope): EntryResult {
  const folder = input.folder;
  const scope: EntryScope = folder ? { ...entryScope, workspaceFolder: folder.path } : entryScope;
  const qualified = qualifiedName(folder, input.name);
  const name = shownServerName(qualified);
  const source: ServerSource = { kind: input.kind, file: input.file, path: formatJsonPath(input.jsonPath) };
  if (folder?.label !== undefined)
    source.folder = { path: folder.path, label: folder.label, localName: shownServerName(input.name) };
  const raw = isRecord(input.raw) ? input.raw : {};
  const r = new EntryReader(name, raw, input.file, input.jsonPath, input.locate, scope);
  const envFiles: string[] = [];
  let server: ServerConfig | undefined;
  if (input.name.trim() === '') r.report('error', [], 'server name must not be empty');
  if (name !== qualified) r.report('error', [], hiddenCharactersMessage(input.name, qualified));
  // Approvals of restricted settings and of the tool filter are recorded under these names beside server approvals.
  if (input.name === RESTRICTED_APPROVAL_NAME || input.name === TOOL_FILTER_APPROVAL_NAME)
    r.report('error', [], `the server name "${input.name}" is reserved by MCP Lens; rename the server`);
  if (!isRecord(input.raw)) {
    r.report('error', [], 'expected an object with "command" or "url"');
  } else {
    const type = transportOf(r);
    if (type === 'stdio' && input.raw.oauth !== undefined)
      r.report('warning', ['oauth'], '"oauth" applies to http and sse servers only; ignored');
    if (type === 'stdio') server = readStdio(r, source, scope, envFiles);
    else if (type) server = readRemote(r, source, type);
  }
  const base = { problems: r.problems, missingInputs: r.missingInputs, envFiles };
  if (r.hasErrors || !server) {
    const reason = r.problems
      .filter((p) => p.severity === 'error')
      .map((p) => `${p.path}: ${p.message}`)
      .join('; ');
    return { ...base, disabled: { name, source, reason } };
  }
  return { ...base, server };
}

/**
 * A server's name as everything downstream sees it. Names come from a repository's files and are
 * shown to agents and people everywhere (list_servers, find_tools, tools/list, prompts, the
 * dashboard, the CLI, logs), so they are made safe here, once: a name holding a control, bidi or
 * invisible character (protocol/untrustedText.ts hasHiddenCharacters) is refused (readEntry
 * disables the server) and goes by its escaped form, `evil\u{202e}txt`, which shows what is there.
 */
export function shownServerName(name: string): string {
  return hasHiddenCharacters(name) ? escapeForDisplay(name) : name;
}

function hiddenCharactersMessage(localName: string, qualified: string): string {
  if (hasHiddenCharacters(localName))
    return 'this server name has control, bidi or invisible characters (written out in the path); rename the server';
  return `the workspace folder name in ${quotedForDisplay(qualified)} has control, bidi or invisible characters (written out here); rename the folder in the workspace`;
}

function transportOf(r: EntryReader): Transport | undefined {
  const t = r.raw.type;
  if (t !== undefined) {
    if (typeof t === 'string' && (TYPES as readonly string[]).includes(t)) return t as Transport;
    if (typeof t === 'string' && TYPE_ALIASES[t]) return TYPE_ALIASES[t];
    const shown = typeof t === 'string' ? `"${t}"` : JSON.stringify(t);
    r.report('error', ['type'], `unknown type ${shown} (expected "stdio", "http" or "sse")`);
    return undefined;
  }
  const hasCommand = r.raw.command !== undefined;
  const hasUrl = r.raw.url !== undefined;
  if (hasCommand && hasUrl) {
    r.report('error', [], 'has both "command" and "url"; set "type" to say which');
    return undefined;
  }
  if (hasCommand) return 'stdio';
  if (hasUrl) return 'http';
  r.report('error', [], 'missing "command" (for a stdio server) or "url" (for an http server)');
  return undefined;
}

/** A path the user wrote relative to the workspace folder, made absolute. */
function fromWorkspace(scope: EntryScope, p: string): string {
  return path.isAbsolute(p) ? p : path.resolve(scope.workspaceFolder, p);
}

function readStdio(
  r: EntryReader,
  source: ServerSource,
  scope: EntryScope,
  envFiles: string[],
): ServerConfig | undefined {
  const commandField = r.requiredString('command', 'missing "command" for a stdio server');
  let command = commandField?.value;
  // A bare name (`npx`) is looked up on PATH; one with a slash is a path into the workspace.
  if (command !== undefined && (command.includes('/') || command.includes(path.sep)))
    command = fromWorkspace(scope, command);
  const args = r.stringArray('args');
  const cwdField = r.optionalString('cwd');
  const cwd = cwdField === undefined || cwdField.value === '' ? undefined : fromWorkspace(scope, cwdField.value);
  const envFile = readEnvFile(r, scope, envFiles);
  const env = r.stringMap('env');
  // `env` wins over the env file; `null` removes a name from both and from the inherited env.
  const merged: Record<string, string> = { ...envFile.values, ...env.values };
  const shownEnv: Record<string, string> = {};
  for (const name of Object.keys(envFile.values)) shownEnv[name] = 'envFile';
  Object.assign(shownEnv, env.shown);
  for (const name of env.removed) {
    delete merged[name];
    delete shownEnv[name];
  }
  if (command === undefined || commandField === undefined) return undefined;
  const removeEnv = env.removed.length ? [...env.removed] : undefined;
  const fingerprint = fingerprintServer({
    type: 'stdio',
    command,
    args: args.values,
    env: merged,
    cwd,
    removeEnv,
    folder: source.folder?.path,
  });
  const shown: ShownStdio = {
    command: commandField.secret ? commandField.shown : command,
    args: args.shown,
    env: shownEnv,
    ...(cwd !== undefined ? { cwd: cwdField?.secret ? cwdField.shown : cwd } : {}),
    ...(envFile.shown !== undefined ? { envFile: envFile.shown } : {}),
  };
  return {
    type: 'stdio',
    name: r.name,
    source,
    fingerprint,
    command,
    args: args.values,
    env: merged,
    ...(cwd !== undefined ? { cwd } : {}),
    ...(removeEnv ? { removeEnv } : {}),
    ...(args.secret.length ? { secretArgs: args.secret } : {}),
    shown,
  };
}

/**
 * The env file's values, and its path as it may be shown. A path built from `${env:…}` or
 * `${input:…}` is named by its template in every message: its value may be the secret.
 */
function readEnvFile(
  r: EntryReader,
  scope: EntryScope,
  envFiles: string[],
): { values: Record<string, string>; shown?: string } {
  const field = r.optionalString('envFile');
  if (field === undefined || field.value === '') return { values: {} };
  const file = fromWorkspace(scope, field.value);
  const shown = field.secret ? field.shown : file;
  const text = scope.readEnvFile(file);
  if (text === undefined) {
    r.report('error', ['envFile'], `env file not found: ${shown}`);
    return { values: {}, shown };
  }
  if (typeof text !== 'string') {
    r.report('error', ['envFile'], `env file refused: ${shown}: ${text.refused}`);
    return { values: {}, shown };
  }
  envFiles.push(file);
  const parsed = parseDotenv(text);
  for (const w of parsed.warnings) r.report('warning', ['envFile'], `${shown} line ${w.line}: ${w.message}`);
  return { values: parsed.values, shown };
}

function readRemote(r: EntryReader, source: ServerSource, type: 'http' | 'sse'): ServerConfig | undefined {
  const urlField = r.requiredString('url', `missing "url" for an ${type === 'http' ? 'http' : 'sse'} server`);
  const headerMap = r.stringMap('headers');
  const headers = headerMap.values;
  if (urlField === undefined) return undefined;
  const url = urlField.value;
  // Never echo the URL: after substitution it may hold a token.
  let parsed: URL | undefined;
  try {
    parsed = new URL(url);
  } catch {
    r.report('error', ['url'], '"url" is not a valid URL');
    return undefined;
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    r.report('error', ['url'], `"url" must use http: or https:, not ${parsed.protocol}`);
    return undefined;
  }
  const oauth = readOAuth(r);
  const fingerprint = fingerprintServer({ type, url, headers, oauth: oauth?.config, folder: source.folder?.path });
  const shown = {
    url: urlField.secret ? urlField.shown : url,
    headers: headerMap.shown,
    ...(oauth && { oauth: oauth.shown }),
  };
  return { type, name: r.name, source, fingerprint, url, headers, ...(oauth && { oauth: oauth.config }), shown };
}
