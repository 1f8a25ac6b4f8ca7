/**
 * Loads LanceDB (and apache-arrow, which only it needs) on first use, and turns a load failure
 * into one clear reason. LanceDB is a native module: a platform without a build of it (an
 * npm install where the optional native package was skipped, a VSIX for a target no binary
 * exists for), the wrong libc or the wrong architecture make it fail to load. That must never
 * take the sidecar down: the index goes keyword-only and says why (LanceUnavailableError).
 *
 * Nothing here runs until the tool index has an embedder that answers, so a sidecar without
 * Ollama never maps LanceDB or apache-arrow (bench-results.md, "LanceDB's load cost").
 */
import type * as Arrow from 'apache-arrow';
import type * as LanceDb from '@lancedb/lancedb';
import { createRequire } from 'node:module';
import { errorMessage } from '../../core/errorMessage';
import { StoreUnavailableError } from './toolStore';

/**
 * `require`, not `import()`: apache-arrow's package exports an ESM build to `import` and a CJS
 * one to `require`, and LanceDB requires the CJS one — classes from the other copy would fail
 * its (and our) instanceof checks. The VSIX ships only the CJS build.
 */
const nodeRequire = createRequire(__filename);

/** The two libraries the LanceDB store uses, loaded together. */
export interface LanceModules {
  lancedb: typeof LanceDb;
  arrow: typeof Arrow;
}

/** LanceDB cannot be used in this process; `reason` completes "keyword only: …". */
export class LanceUnavailableError extends StoreUnavailableError {
  override readonly name = 'LanceUnavailableError';
}

/**
 * Environment LanceDB reads once, when its native module loads; a user's own values win.
 * LANCEDB_LOG: at its default `warn` it prints a line to stderr for every table it creates.
 * The thread caps: by default Lance sizes its CPU pool and Tokio runtime to the machine's
 * cores, and every thread brings its own stack and malloc arena — on a 16-core laptop that
 * is dozens of threads for a table of a few thousand rows that is read once per start.
 */
const LANCE_ENV: Record<string, string> = {
  LANCEDB_LOG: 'error',
  LANCE_CPU_THREADS: '2',
  LANCE_IO_THREADS: '4',
  TOKIO_WORKER_THREADS: '2',
};

let loading: Promise<LanceModules> | undefined;

/** LanceDB and apache-arrow, loaded once per process; rejects with LanceUnavailableError. */
export function lanceModules(): Promise<LanceModules> {
  loading ??= load();
  return loading;
}

/**
 * Why LanceDB is known to be missing without loading anything (a keyword-only build ships
 * no `@lancedb/lancedb` at all), or undefined when it may load. Resolving costs no memory.
 */
export function lanceMissing(resolve: (id: string) => string = nodeRequire.resolve): string | undefined {
  try {
    resolve('@lancedb/lancedb');
    return undefined;
  } catch {
    return `this build has no LanceDB for ${platformName()}`;
  }
}

async function load(): Promise<LanceModules> {
  const ours = Object.keys(LANCE_ENV).filter((k) => process.env[k] === undefined);
  for (const k of ours) process.env[k] = LANCE_ENV[k];
  try {
    const lancedb = nodeRequire('@lancedb/lancedb') as typeof LanceDb;
    const arrow = nodeRequire('apache-arrow') as typeof Arrow;
    return { lancedb, arrow };
  } catch (err) {
    throw unavailable(err);
  } finally {
    // Upstream servers inherit our environment; they should not inherit these.
    for (const k of ours) delete process.env[k];
  }
}

/** The reason a failed load gives the user, from the error LanceDB's loader threw. */
export function unavailable(err: unknown, platform = platformName()): LanceUnavailableError {
  const causes = causeChain(err);
  const missingModule = (name: RegExp) => causes.some((e) => e.code === 'MODULE_NOT_FOUND' && name.test(e.message));
  const dlopen = causes.find(
    (e) =>
      e.code === 'ERR_DLOPEN_FAILED' ||
      /invalid ELF header|wrong ELF class|not a valid Win32|mach-o|GLIBC_[\d.]+' not found/i.test(e.message),
  );
  if (dlopen)
    return new LanceUnavailableError(`LanceDB's native module does not load on ${platform}`, firstLine(dlopen.message));
  if (missingModule(/['"]@lancedb\/lancedb['"]/))
    return new LanceUnavailableError(`this build has no LanceDB for ${platform}`, firstLine(causes[0].message));
  if (missingModule(/@lancedb\/lancedb-/) || /Cannot find native binding/.test(causes[0].message)) {
    // The loader's own words blame npm; the missing package's name says more.
    const named =
      causes.find((e) => e.code === 'MODULE_NOT_FOUND' && /@lancedb\/lancedb-/.test(e.message)) ?? causes[0];
    return new LanceUnavailableError(`no LanceDB native module for ${platform}`, firstLine(named.message));
  }
  if (missingModule(/['"]apache-arrow['"]/))
    return new LanceUnavailableError('apache-arrow is missing (LanceDB needs it)', firstLine(causes[0].message));
  return new LanceUnavailableError(`LanceDB failed to load on ${platform}`, firstLine(errorMessage(err)));
}

/** e.g. `linux-x64 (glibc)`, `linux-x64 (musl)`, `darwin-arm64`. */
function platformName(): string {
  const base = `${process.platform}-${process.arch}`;
  if (process.platform !== 'linux') return base;
  const report = process.report?.getReport() as { header?: { glibcVersionRuntime?: string } } | undefined;
  return `${base} (${report?.header?.glibcVersionRuntime ? 'glibc' : 'musl'})`;
}

function causeChain(err: unknown): { message: string; code?: string }[] {
  const out: { message: string; code?: string }[] = [];
  for (let e: unknown = err; e && out.length < 20; e = (e as { cause?: unknown }).cause) {
    const code = (e as NodeJS.ErrnoException).code;
    out.push({ message: errorMessage(e), ...(typeof code === 'string' ? { code } : {}) });
  }
  if (out.length === 0) out.push({ message: errorMessage(err) });
  return out;
}

function firstLine(text: string): string {
  return text.split('\n')[0].slice(0, 300);
}
