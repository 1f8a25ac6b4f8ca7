/**
 * `serve --http --team FILE`: one MCP Lens for a team. People sign in with the team's identity
 * provider (gateway/teamDoor.ts), each is a principal of their own, sees what the team's policy
 * lets them see (gateway/toolView.ts), and every tool call is audited. Also where the listening
 * address is decided: loopback unless the team signs in and the traffic is encrypted (TLS here,
 * or a TLS-terminating proxy in front, which the operator states with --behind-tls-proxy).
 */
import { readFileSync } from 'node:fs';
import type { Lens } from '../app/lens';
import type { Logger } from '../core/logger';
import type { TeamConfig } from '../core/team/teamConfig';
import { policyFor } from '../core/team/policy';
import { introspectionVerifier, jwtVerifier, type AccessTokenVerifier } from '../adapters/auth/accessTokens';
import type { GatewayHttpOptions } from '../gateway/httpOptions';
import { TeamDoor } from '../gateway/teamDoor';
import { toolView } from '../gateway/toolView';

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '::1']);

export interface ListenOptions {
  host: string;
  team: boolean;
  tls: boolean;
  behindTlsProxy: boolean;
}

/** Why MCP Lens must not listen as asked, or undefined. */
export function listenProblem(o: ListenOptions): string | undefined {
  if (LOOPBACK.has(o.host)) return undefined;
  if (!o.team)
    return `listening on ${o.host} (not this machine only) needs people to sign in: --team FILE, with --tls-cert/--tls-key or --behind-tls-proxy. The single-user token is for 127.0.0.1 only.`;
  if (!o.tls && !o.behindTlsProxy)
    return `listening on ${o.host} needs TLS: --tls-cert FILE --tls-key FILE, or --behind-tls-proxy when a proxy in front terminates TLS (tokens must never cross a network in the clear).`;
  return undefined;
}

export interface TeamServing {
  config: TeamConfig;
  team: NonNullable<GatewayHttpOptions['team']>;
}

/** The team's door and views from its configuration file; throws with every problem named. */
export function teamServing(
  config: TeamConfig,
  lens: Pick<Lens, 'servers'>,
  log: Logger,
  env = process.env,
): TeamServing {
  const door = new TeamDoor({ config, verifier: verifierFor(config, env), log });
  const shared = (server: string) => config.servers[server]?.shared === true;
  return {
    config,
    team: { door, viewFor: (groups) => toolView(policyFor(config, groups), lens, shared) },
  };
}

/** The servers the team marked `shared` (one process for everyone). */
export function sharedServersOf(config: TeamConfig): ReadonlySet<string> {
  return new Set(Object.entries(config.servers).flatMap(([name, rule]) => (rule.shared ? [name] : [])));
}

function verifierFor(config: TeamConfig, env: NodeJS.ProcessEnv): AccessTokenVerifier {
  const signIn = config.signIn;
  if (signIn.tokens === 'jwt') return jwtVerifier(signIn);
  const name = signIn.introspection!.clientSecretEnv;
  const secret = env[name];
  if (!secret)
    throw new Error(`team sign-in by introspection needs the client secret in the environment variable ${name}`);
  return introspectionVerifier(signIn, secret);
}

/** The certificate and key for HTTPS, read once at start. */
export function tlsFiles(cert: string | undefined, key: string | undefined): { cert: Buffer; key: Buffer } | undefined {
  if (cert === undefined && key === undefined) return undefined;
  if (cert === undefined || key === undefined) throw new Error('TLS needs both --tls-cert FILE and --tls-key FILE');
  const read = (file: string, what: string) => {
    try {
      return readFileSync(file);
    } catch (err) {
      throw new Error(`${what} ${file} cannot be read: ${(err as NodeJS.ErrnoException).code ?? String(err)}`);
    }
  };
  return { cert: read(cert, 'TLS certificate'), key: read(key, 'TLS key') };
}
