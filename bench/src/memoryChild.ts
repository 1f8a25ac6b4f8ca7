/**
 * The memory benches' child processes (sidecarMemory.ts, hybridMemory.ts): a bench entry
 * bundled like esbuild.mjs bundles the sidecar, so its memory is what the shipped sidecar's
 * would be, and run in a fresh Node whose last stdout line is its JSON report.
 */
import { spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { build } from 'esbuild';
import { repoRoot } from './benchFiles';

/** Bundles `entry` next to node_modules (so LanceDB resolves); returns the bundle's path. */
export async function bundleMemoryChild(entry: string): Promise<string> {
  const outfile = join(
    repoRoot(),
    'node_modules',
    '.cache',
    'mcp-lens-bench',
    basename(entry).replace(/\.ts$/, '.cjs'),
  );
  mkdirSync(dirname(outfile), { recursive: true });
  await build({
    entryPoints: [entry],
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    outfile,
    external: ['@lancedb/lancedb', 'apache-arrow'],
    mainFields: ['module', 'main'],
    logLevel: 'warning',
  });
  return outfile;
}

/** Runs a bundled child with `nodeArgs` before it and `args` after; resolves with its report. */
export function runMemoryChild<R>(
  file: string,
  args: string[],
  o: { nodeArgs?: string[]; env?: Record<string, string>; label: string },
): Promise<R> {
  return new Promise((resolvePromise, reject) => {
    const proc = spawn(process.execPath, [...(o.nodeArgs ?? []), file, ...args], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, ...o.env },
    });
    let out = '';
    let err = '';
    proc.stdout.on('data', (c: Buffer) => (out += c.toString()));
    proc.stderr.on('data', (c: Buffer) => (err += c.toString()));
    proc.on('error', reject);
    proc.on('close', (code) => {
      if (code !== 0) return reject(new Error(`${o.label} exited ${code}: ${err.trim()}`));
      try {
        resolvePromise(JSON.parse(out.trim().split('\n').pop() ?? '') as R);
      } catch {
        reject(new Error(`${o.label} printed no report: ${out.slice(0, 500)} ${err.slice(0, 500)}`));
      }
    });
  });
}
