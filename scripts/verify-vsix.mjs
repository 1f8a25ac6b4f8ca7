// Checks a packed VSIX is the one for its target and holds only what runs:
//  - the manifest's target platform and extensionKind, the bundles, the icon and the licence;
//  - exactly one native module, LanceDB's for this target, whose header says the file type and
//    machine the target needs (ELF x86-64 / ELF aarch64 / Mach-O arm64 / PE x64 ..., and glibc
//    or musl), with @lancedb/lancedb's JavaScript at the binary's version — or, for a
//    keyword-only target, no LanceDB at all;
//  - no source maps, TypeScript sources, CLI or bench bundles;
//  - on the machine's own target, LanceDB loads from the extracted extension and can write and
//    query a table.
// Usage: node scripts/verify-vsix.mjs FILE.vsix [--target T]   (the target defaults to the manifest's)
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { binaryKind, elfLibc } from './vsix/nativeBinary.mjs';
import { hostTarget, vsixTarget } from './vsix/targets.mjs';
import { ZipFile } from './vsix/zipEntries.mjs';

const EXT = 'extension/';
/** Everything the extension runs from dist/ (package-vsix.mjs copies these and nothing else there). */
export const DIST_FILES = [
  'client.js',
  'server.js',
  'selectChild.js',
  'sandboxWorker.js',
  'learnedFileWorker.js',
  'o200k.ranks',
  'webview/dashboard.js',
];
const REQUIRED = [
  'package.json',
  ...DIST_FILES.map((f) => `dist/${f}`),
  'media/icon.png',
  'LICENSE.txt',
  'readme.md',
  'changelog.md',
];
const FORBIDDEN = [
  /\.map$/,
  /\.ts$/,
  // dist/ holds what the extension runs; the CLI and bench ship in the npm package.
  new RegExp(`^extension/dist/(?!(${DIST_FILES.map((f) => f.replace(/[.]/g, '\\.')).join('|')})$)`),
  /^extension\/(server|client|webview|test|scripts)\//,
];

/**
 * @param {string} file the VSIX
 * @param {string} [targetName] defaults to the manifest's TargetPlatform
 * @returns {{ file: string, target: string, search: 'hybrid' | 'keyword-only', native?: string, lanceVersion?: string, summary: string }}
 */
export function verifyVsix(file, targetName) {
  const zip = new ZipFile(file);
  const fail = (why) => {
    throw new Error(`${file}: ${why}`);
  };
  const manifestXml = zip.read('extension.vsixmanifest').toString('utf8');
  const platform = /TargetPlatform="([^"]+)"/.exec(manifestXml)?.[1];
  const { target, lance } = vsixTarget(targetName ?? platform ?? fail('the manifest names no target platform'));
  if (platform !== target) fail(`built for ${platform ?? 'no platform'}, expected ${target}`);

  for (const f of REQUIRED) if (!zip.entry(EXT + f)) fail(`lacks ${f}`);
  const manifest = JSON.parse(zip.read(`${EXT}package.json`).toString('utf8'));
  if (!Array.isArray(manifest.extensionKind) || manifest.extensionKind[0] !== 'workspace')
    fail(`extensionKind is ${JSON.stringify(manifest.extensionKind)}, expected ["workspace"]`);
  const forbidden = zip.entries.filter((e) => FORBIDDEN.some((re) => re.test(e.name)));
  if (forbidden.length)
    fail(
      `holds what it does not run: ${forbidden
        .slice(0, 5)
        .map((e) => e.name)
        .join(', ')}`,
    );

  const natives = zip.entries.filter((e) => e.name.endsWith('.node'));
  const lanceJs = zip.entry(`${EXT}node_modules/@lancedb/lancedb/package.json`);
  if (!lance) {
    if (natives.length || lanceJs) fail(`is keyword-only but holds LanceDB (${natives.map((e) => e.name).join(', ')})`);
    return { file, target, search: 'keyword-only', summary: 'keyword-only (no LanceDB build for this target)' };
  }
  if (natives.length !== 1)
    fail(
      `holds ${natives.length} native modules, expected exactly LanceDB's: ${natives.map((e) => e.name).join(', ')}`,
    );
  const [native] = natives;
  if (!native.name.startsWith(`${EXT}node_modules/${lance.package}/`))
    fail(`its native module ${native.name} is not ${lance.package}'s`);
  const bytes = zip.read(native);
  const kind = binaryKind(bytes.subarray(0, 4096));
  if (kind !== lance.binary) fail(`${native.name} is ${kind}, expected ${lance.binary}`);
  const libc = elfLibc(bytes);
  if (lance.libc && libc !== lance.libc)
    fail(`${native.name} links ${libc ?? 'no known libc'}, expected ${lance.libc}`);
  for (const name of ['@lancedb/lancedb', lance.package]) {
    const version = JSON.parse(zip.read(`${EXT}node_modules/${name}/package.json`).toString('utf8')).version;
    if (version !== lance.version) fail(`${name} is ${version}, expected ${lance.version}`);
  }
  if (target === hostTarget()) loadsHere(zip);
  const native_ = `${kind}${libc ? ` (${libc})` : ''}`;
  return {
    file,
    target,
    search: 'hybrid',
    native: native_,
    lanceVersion: lance.version,
    summary: `hybrid: LanceDB ${lance.version}, ${native_}, ${(native.size / 1024 / 1024).toFixed(0)} MiB unpacked`,
  };
}

/** Extracts the VSIX's node_modules and has LanceDB write and query a table from there. */
function loadsHere(zip) {
  const dir = mkdtempSync(join(tmpdir(), 'mcp-lens-vsix-'));
  try {
    for (const e of zip.entries) {
      if (!e.name.startsWith(`${EXT}node_modules/`) || e.name.endsWith('/')) continue;
      const to = join(dir, e.name);
      mkdirSync(dirname(to), { recursive: true });
      writeFileSync(to, zip.read(e));
    }
    const probe = `
      const lancedb = require(${JSON.stringify(join(dir, EXT, 'node_modules/@lancedb/lancedb'))});
      (async () => {
        const db = await lancedb.connect(${JSON.stringify(join(dir, 'db'))});
        const t = await db.createTable('t', [{ id: 'a', vector: [1, 0] }, { id: 'b', vector: [0, 1] }]);
        const hits = await t.search([0.9, 0.1]).limit(1).toArray();
        if (hits[0].id !== 'a') throw new Error('unexpected nearest row ' + hits[0].id);
      })().catch((e) => { console.error(e); process.exit(1); });`;
    execFileSync(process.execPath, ['-e', probe], { stdio: 'inherit', cwd: dir });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const file = process.argv[2];
  if (!file || !existsSync(file)) throw new Error(`usage: verify-vsix.mjs FILE.vsix [--target T] (got ${file})`);
  const t = process.argv.indexOf('--target');
  const r = verifyVsix(file, t > 0 ? process.argv[t + 1] : undefined);
  console.error(`${r.target}: ${r.summary}`);
}
