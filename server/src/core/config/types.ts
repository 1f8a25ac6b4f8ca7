/**
 * What config loading produces: fully resolved server definitions (variables substituted)
 * plus every problem found, each naming its file and JSON path. A bad entry disables that
 * server only; problems are values, never exceptions.
 */
import type { ConfigFolder, FolderOrigin } from './folders';
import type { ConfigProblem, ConfigSourceKind } from '../../../../protocol/model';

export interface ServerSource {
  kind: ConfigSourceKind;
  /** Absolute path of the declaring file. */
  file: string;
  /** JSON path of the entry, e.g. `servers.github`. */
  path: string;
  /** Multi-root: the workspace folder that declared it (the server is named `<label>/<localName>`; see folders.ts). */
  folder?: FolderOrigin;
}

interface ServerBase {
  /**
   * Unique across sources; later sources do not override earlier ones silently (see problems).
   * In a multi-root workspace a folder's server is `<folder>/<name>` (folders.ts).
   */
  name: string;
  source: ServerSource;
  /**
   * Hash of everything that decides what runs or where it connects (command, args, env,
   * cwd, url, header names and values, env values). Approval is keyed on it: a change needs a fresh approval.
   */
  fingerprint: string;
}

/**
 * A definition as a person may see it (approval prompts, summaries, errors): each field as
 * resolved, except where it took in `${env:…}`/`${input:…}`, which is shown as written.
 */
export interface ShownStdio {
  command: string;
  args: string[];
  cwd?: string;
  /** The env file's path, as above. */
  envFile?: string;
  /** Env name → where its value comes from: the value as written, or `envFile` for names the env file sets. */
  env: Record<string, string>;
}

export interface ShownRemote {
  url: string;
  /** Header name → its value as written (`Bearer ${input:token}`). */
  headers: Record<string, string>;
  /** The OAuth client id as written; the secret is never shown, only whether there is one. */
  oauth?: { clientId: string; hasSecret: boolean; scopes?: string[] };
}

export interface StdioServerConfig extends ServerBase {
  type: 'stdio';
  command: string;
  args: string[];
  env: Record<string, string>;
  cwd?: string;
  /** Env names set to `null` in the config: removed from the environment the server inherits. */
  removeEnv?: string[];
  /**
   * Indexes of `args` whose value came from `${input:}` or `${env:}` (likely secrets);
   * `describeServer` masks them.
   */
  secretArgs?: number[];
  /** Set by config loading; absent in definitions built by hand (tests, benches). */
  shown?: ShownStdio;
}

/**
 * `oauth` on a remote server: a client registered with its authorization server beforehand
 * (no dynamic registration). `clientId` that is an https URL with a path is a Client ID Metadata
 * Document (the authorization server fetches it); any other is a pre-registered id.
 */
export interface OAuthClientConfig {
  clientId: string;
  /** A confidential client's secret (through `${input:…}`/`${env:…}`: never written in the file). */
  clientSecret?: string;
  /** Scopes to ask for when neither the server's challenge nor its metadata names any. */
  scopes?: string[];
}

export interface RemoteServerConfig extends ServerBase {
  /** 'http' is streamable HTTP, falling back to SSE as VS Code does. */
  type: 'http' | 'sse';
  url: string;
  headers: Record<string, string>;
  oauth?: OAuthClientConfig;
  shown?: ShownRemote;
}

export type ServerConfig = StdioServerConfig | RemoteServerConfig;

export type { ConfigProblem };

/** A server that was declared but cannot run; shown to the user with the reason. */
export interface DisabledServer {
  name: string;
  source: ServerSource;
  reason: string;
}

export interface InputDeclaration {
  id: string;
  type: string;
  description?: string;
  password?: boolean;
  /** File that declared it. */
  file: string;
}

export interface LoadedConfig {
  servers: ServerConfig[];
  disabled: DisabledServer[];
  problems: ConfigProblem[];
  inputs: InputDeclaration[];
  /** `${input:id}` ids referenced but not supplied by the caller. */
  missingInputs: string[];
  include: string[];
  exclude: string[];
  /** Files that were read (for watching). */
  files: string[];
  /** The workspace folders it was read from (labelled in a multi-root workspace). */
  folders: ConfigFolder[];
}
