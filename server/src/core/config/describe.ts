/**
 * A secret-free, one-line summary of a server definition for approval prompts and logs:
 * what runs (command and args) or where it connects (url), and only the NAMES of env vars
 * and headers. ServerConfig holds resolved secrets because the pool needs them; this is the
 * only form of it that may be shown or logged.
 */
import type { ServerConfig } from './types';

/** Flags whose next argument (or `=value`) is treated as a secret in summaries. */
const SECRET_FLAG = /(token|secret|password|passwd|api[-_]?key|apikey|auth|credential|bearer|private[-_]?key)/i;

function describeArgs(args: string[], secretArgs: readonly number[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    const flagged = i > 0 && /^--?[A-Za-z]/.test(args[i - 1]) && !args[i - 1].includes('=') && SECRET_FLAG.test(args[i - 1]);
    if (secretArgs.includes(i) || flagged) {
      const eq = arg.indexOf('=');
      out.push(arg.startsWith('-') && eq > 0 ? `${arg.slice(0, eq)}=***` : '***');
      continue;
    }
    const eq = arg.indexOf('=');
    if (arg.startsWith('-') && eq > 0 && SECRET_FLAG.test(arg.slice(0, eq))) out.push(`${arg.slice(0, eq)}=***`);
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
    return '<invalid url>';
  }
  const query = [...u.searchParams.keys()].map((k) => `${k}=***`).join('&');
  return `${u.protocol}//${u.host}${u.pathname}${query ? `?${query}` : ''}`;
}

function quoteIfNeeded(s: string): string {
  return s === '' || /[\s"']/.test(s) ? JSON.stringify(s) : s;
}

/**
 * One line for approval prompts and logs: `stdio: npx -y pkg --token *** (env: GITHUB_TOKEN; cwd: /w)`
 * or `http: https://host/mcp?key=*** (headers: Authorization)`. Env and header values never
 * appear, nor args that came from `${input:}`/`${env:}` or follow a secret-looking flag.
 */
export function describeServer(cfg: ServerConfig): string {
  if (cfg.type === 'stdio') {
    const line = [cfg.command, ...describeArgs(cfg.args, cfg.secretArgs ?? [])].map(quoteIfNeeded).join(' ');
    const extras: string[] = [];
    const envNames = Object.keys(cfg.env).sort();
    if (envNames.length) extras.push(`env: ${envNames.join(', ')}`);
    if (cfg.removeEnv?.length) extras.push(`unset: ${[...cfg.removeEnv].sort().join(', ')}`);
    if (cfg.cwd) extras.push(`cwd: ${cfg.cwd}`);
    return `stdio: ${line}${extras.length ? ` (${extras.join('; ')})` : ''}`;
  }
  const headerNames = Object.keys(cfg.headers).sort();
  return `${cfg.type}: ${describeUrl(cfg.url)}${headerNames.length ? ` (headers: ${headerNames.join(', ')})` : ''}`;
}
