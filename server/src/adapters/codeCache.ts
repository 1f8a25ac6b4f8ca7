/**
 * Runs a CommonJS bundle with a V8 code cache, so a start does not parse and compile the
 * whole bundle again (Node 20 has no module.enableCompileCache). The cache is the user's own
 * file, kept in the user's cache folder, never anything a workspace holds: a file of this
 * user, 0600, in a 0700 folder, opened without following links (privateFiles.ts), named for
 * the bundle it was made from (its path, size and time, and the Node version). V8 checks the
 * rest (its version, the source's length, the flags in force) and rejects what does not fit;
 * a rejected or missing cache is made again when the process exits, if `write` says so.
 * Anything that goes wrong on the way runs the bundle the ordinary way.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import Module from 'node:module';
import { dirname, join } from 'node:path';
import { Script } from 'node:vm';
import { ensurePrivateDir, readPrivateBytes, writePrivateFile } from './privateFiles';

/** A code cache is a few MB at most; a larger file is not one we wrote. */
const MAX_CACHE_BYTES = 64 * 1024 * 1024;

export interface CodeCacheOptions {
  /** The folder the caches live in (created 0700). */
  dir: string;
  /** Make the cache at exit when there is none that fits (the commands whose start-up counts). */
  write: boolean;
}

/** Runs `file` (a CommonJS bundle) as the main module, from the code cache when one fits; says whether one did. */
export function runWithCodeCache(file: string, o: CodeCacheOptions): { fitted: boolean } {
  let compiled: { script: Script; run: () => void; cacheFile: string; fitted: boolean } | undefined;
  try {
    compiled = compile(file, o.dir);
  } catch {
    compiled = undefined;
  }
  if (!compiled) {
    // The ordinary way: Node's own loader compiles it.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    require(file);
    return { fitted: false };
  }
  const { script, cacheFile, fitted } = compiled;
  if (o.write && !fitted)
    process.once('exit', () => {
      try {
        // What ran by now is in it too: a start-up's functions are compiled once, not lazily again.
        const data = script.createCachedData();
        for (const old of readdirSync(o.dir))
          if (old.endsWith('.v8cache') && join(o.dir, old) !== cacheFile) rmSync(join(o.dir, old), { force: true });
        writePrivateFile(cacheFile, data);
      } catch {
        // No cache this time; the next start compiles as usual.
      }
    });
  compiled.run();
  return { fitted };
}

function compile(file: string, dir: string): { script: Script; run: () => void; cacheFile: string; fitted: boolean } {
  const source = readFileSync(file, 'utf8');
  const st = statSync(file);
  const name = createHash('sha256')
    .update(JSON.stringify([file, st.size, st.mtimeMs, process.version, process.arch]))
    .digest('base64url')
    .slice(0, 32);
  mkdirSync(dirname(dir), { recursive: true, mode: 0o700 });
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  ensurePrivateDir(dir);
  const cacheFile = join(dir, `${name}.v8cache`);
  const read = readPrivateBytes(cacheFile, MAX_CACHE_BYTES);
  const cachedData = 'bytes' in read ? read.bytes : undefined;
  // The wrapper Node puts around a CommonJS module; a shebang line is a comment to V8 only at the very start.
  const wrapped = Module.wrap(source.startsWith('#!') ? `//${source.slice(2)}` : source);
  const script = new Script(wrapped, {
    filename: file,
    ...(cachedData && { cachedData }),
    importModuleDynamically: ((specifier: string) => import(specifier)) as never,
  });
  const fitted = cachedData !== undefined && script.cachedDataRejected === false;
  const run = () => {
    const m = new Module(file, undefined);
    m.filename = file;
    m.paths = (Module as unknown as { _nodeModulePaths(dir: string): string[] })._nodeModulePaths(dirname(file));
    const fn = script.runInThisContext() as (
      exports: unknown,
      require: NodeJS.Require,
      module: Module,
      filename: string,
      dirname: string,
    ) => void;
    const req = Module.createRequire(file);
    fn.call(m.exports, m.exports, req, m, file, dirname(file));
    m.loaded = true;
  };
  return { script, run, cacheFile, fitted };
}
