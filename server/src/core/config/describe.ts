/**
 * A server definition in the two forms people see. ServerConfig holds resolved secrets because
 * the pool needs them; these are the only forms of it that may be shown or logged:
 *  - `describeServer`: one line for logs, list_servers and the dashboard: what runs (command
 *    and args) or where it connects (url), and only the NAMES of env vars and headers;
 *  - `approvalLines`: what an approval prompt shows, one field per line, every field there
 *    (command, each argument, cwd, env file, each env name with where its value comes from,
 *    removed names; url and headers), each escaped so that no name or value can add a line,
 *    move the cursor or hide the rest.
 * A value that came from `${env:…}`/`${input:…}` is shown as written (the variable, never its
 * value); a literal value after a secret-looking flag or under a secret-looking name is `***`.
 */
import { escapeForDisplay, quotedForDisplay } from '../../../../protocol/untrustedText';
import type { ServerConfig, StdioServerConfig } from './types';

/** Flags and names whose value is treated as a secret in summaries. */
const SECRET_NAME =
  /(token|secret|password|passwd|api[-_]?key|apikey|auth|credential|bearer|private[-_]?key|cookie|session)/i;

/** Each argument as it may be shown: the template where a variable went in, `***` after a secret-looking flag. */
function shownArgs(cfg: StdioServerConfig): string[] {
  const args = cfg.shown?.args ?? cfg.args;
  const fromVariables = new Set(cfg.secretArgs ?? []);
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    const prev = i > 0 ? args[i - 1]! : '';
    const eq = arg.indexOf('=');
    if (fromVariables.has(i) && !cfg.shown) out.push(arg.startsWith('-') && eq > 0 ? `${arg.slice(0, eq)}=***` : '***');
    else if (fromVariables.has(i)) out.push(arg);
    else if (/^--?[A-Za-z]/.test(prev) && !prev.includes('=') && SECRET_NAME.test(prev)) out.push('***');
    else if (arg.startsWith('-') && eq > 0 && SECRET_NAME.test(arg.slice(0, eq))) out.push(`${arg.slice(0, eq)}=***`);
    else out.push(arg);
  }
  return out;
}

/** Origin and path, with user info dropped and query values masked (tokens often live there). */
function describeUrl(raw: string): string {
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    // A template (`https://${env:HOST}/mcp`) is shown as written.
    return raw.includes('${') ? raw : '<invalid url>';
  }
  const query = [...u.searchParams.keys()].map((k) => `${k}=***`).join('&');
  return `${u.protocol}//${u.host}${u.pathname}${query ? `?${query}` : ''}`;
}

/** Escaped, and quoted when it is empty or holds whitespace or quotes. */
function shownWord(s: string): string {
  const escaped = escapeForDisplay(s);
  return escaped === '' || /[\s"']/.test(escaped) ? quotedForDisplay(s) : escaped;
}

/**
 * One line for logs and lists: `stdio: npx -y pkg --token *** (env: GITHUB_TOKEN; cwd: /w)`
 * or `http: https://host/mcp?key=*** (headers: Authorization)`. Env and header values never
 * appear, nor args that follow a secret-looking flag; args from variables appear as written.
 */
export function describeServer(cfg: ServerConfig): string {
  if (cfg.type === 'stdio') {
    const line = [cfg.shown?.command ?? cfg.command, ...shownArgs(cfg)].map(shownWord).join(' ');
    const extras: string[] = [];
    const envNames = Object.keys(cfg.env).sort().map(escapeForDisplay);
    if (envNames.length) extras.push(`env: ${envNames.join(', ')}`);
    if (cfg.removeEnv?.length) extras.push(`unset: ${[...cfg.removeEnv].sort().map(escapeForDisplay).join(', ')}`);
    if (cfg.cwd) extras.push(`cwd: ${escapeForDisplay(cfg.shown?.cwd ?? cfg.cwd)}`);
    if (cfg.shown?.envFile) extras.push(`envFile: ${escapeForDisplay(cfg.shown.envFile)}`);
    return `stdio: ${line}${extras.length ? ` (${extras.join('; ')})` : ''}`;
  }
  const headerNames = Object.keys(cfg.headers).sort().map(escapeForDisplay);
  return `${cfg.type}: ${escapeForDisplay(describeUrl(cfg.shown?.url ?? cfg.url))}${headerNames.length ? ` (headers: ${headerNames.join(', ')})` : ''}`;
}

/** How an env or header value is shown in a prompt: variables as written, secret-looking literals masked. */
function shownValue(name: string, written: string | undefined): string {
  if (written === undefined) return '(set)';
  if (written === 'envFile') return 'from the env file';
  if (written.includes('${')) return escapeForDisplay(written);
  return SECRET_NAME.test(name) ? '*** (written in the config)' : quotedForDisplay(written);
}

/**
 * Every field of a definition, one per line, escaped: what an approval prompt shows. The first
 * line names the server; `label: value` lines follow.
 */
export function approvalLines(cfg: ServerConfig): string[] {
  const lines = [`server: ${quotedForDisplay(cfg.name)}`];
  if (cfg.type === 'stdio') {
    lines.push(`command: ${escapeForDisplay(cfg.shown?.command ?? cfg.command)}`);
    shownArgs(cfg).forEach((a, i) => lines.push(`arg ${i + 1}: ${shownWord(a)}`));
    if (cfg.cwd) lines.push(`cwd: ${escapeForDisplay(cfg.shown?.cwd ?? cfg.cwd)}`);
    if (cfg.shown?.envFile) lines.push(`envFile: ${escapeForDisplay(cfg.shown.envFile)}`);
    for (const name of Object.keys(cfg.env).sort())
      lines.push(`env ${escapeForDisplay(name)}: ${shownValue(name, cfg.shown?.env[name])}`);
    for (const name of [...(cfg.removeEnv ?? [])].sort()) lines.push(`env ${escapeForDisplay(name)}: removed`);
  } else {
    lines.push(
      `${cfg.type === 'sse' ? 'SSE' : 'HTTP'} url: ${escapeForDisplay(describeUrl(cfg.shown?.url ?? cfg.url))}`,
    );
    for (const name of Object.keys(cfg.headers).sort())
      lines.push(`header ${escapeForDisplay(name)}: ${shownValue('auth', cfg.shown?.headers[name])}`);
    const oauth =
      cfg.shown?.oauth ??
      (cfg.oauth && {
        clientId: cfg.oauth.clientId,
        hasSecret: cfg.oauth.clientSecret !== undefined,
        scopes: cfg.oauth.scopes,
      });
    if (oauth) {
      lines.push(
        `OAuth client id: ${quotedForDisplay(oauth.clientId)}${oauth.hasSecret ? ' (with a client secret)' : ''}`,
      );
      if (oauth.scopes?.length) lines.push(`OAuth scopes: ${oauth.scopes.map(escapeForDisplay).join(' ')}`);
    }
  }
  return lines;
}
