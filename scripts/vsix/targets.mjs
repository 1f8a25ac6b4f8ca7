// The VS Code targets MCP Lens ships a VSIX for, and the LanceDB build each one carries.
//
// Why per-target LanceDB versions (measured, see CHANGELOG / README "Platforms"):
// - The registry this project builds from carries 0.37.1 (our pinned version) only for
//   linux-x64-gnu and linux-x64-musl; linux-arm64-gnu, darwin-arm64, win32-x64-msvc and
//   win32-arm64-msvc stop at 0.31.0, and darwin-x64 at 0.22.3 (LanceDB stopped building
//   Intel macOS after it).
// - What lanceToolStore uses (connect with a Session and readConsistencyInterval, openTable,
//   createEmptyTable with mode overwrite, query().select().toArrow(), delete, version, close)
//   exists unchanged in 0.22.3, 0.31.0 and 0.37.1: test/server/toolStore, index and
//   indexSnapshot pass against each of their linux-x64-gnu builds (`node scripts/lance-versions.mjs`,
//   which installs each from the registry; the other platforms' builds cannot run here). All
//   declare Node >= 18 and apache-arrow >=15 <=18.1. Loading adds 25-30 MiB RSS (same script).
// So every target gets a binary and runs hybrid search: the newest build its platform has,
// with the JavaScript half of @lancedb/lancedb at the same version (the two must match).
// A target set to `lance: null` would ship keyword-only; the sidecar then says
// "keyword only: this build has no LanceDB for <platform>" (server/src/adapters/store/lanceModule.ts).

/**
 * @typedef {{ package: string, version: string, binary: string, libc?: 'glibc' | 'musl' }} LanceBuild
 * @typedef {{ target: string, lance: LanceBuild | null }} VsixTarget
 */

/** @type {VsixTarget[]} */
export const TARGETS = [
  {
    target: 'linux-x64',
    lance: { package: '@lancedb/lancedb-linux-x64-gnu', version: '0.37.1', binary: 'ELF x86-64', libc: 'glibc' },
  },
  {
    target: 'alpine-x64',
    lance: { package: '@lancedb/lancedb-linux-x64-musl', version: '0.37.1', binary: 'ELF x86-64', libc: 'musl' },
  },
  {
    target: 'linux-arm64',
    lance: { package: '@lancedb/lancedb-linux-arm64-gnu', version: '0.31.0', binary: 'ELF aarch64', libc: 'glibc' },
  },
  {
    target: 'darwin-arm64',
    lance: { package: '@lancedb/lancedb-darwin-arm64', version: '0.31.0', binary: 'Mach-O arm64' },
  },
  {
    target: 'darwin-x64',
    lance: { package: '@lancedb/lancedb-darwin-x64', version: '0.22.3', binary: 'Mach-O x86-64' },
  },
  { target: 'win32-x64', lance: { package: '@lancedb/lancedb-win32-x64-msvc', version: '0.31.0', binary: 'PE x64' } },
  {
    target: 'win32-arm64',
    lance: { package: '@lancedb/lancedb-win32-arm64-msvc', version: '0.31.0', binary: 'PE arm64' },
  },
];

/** @param {string} name @returns {VsixTarget} */
export function vsixTarget(name) {
  const t = TARGETS.find((x) => x.target === name);
  if (!t) throw new Error(`unknown target "${name}"; one of: ${TARGETS.map((x) => x.target).join(', ')}`);
  return t;
}

/** The VS Code target of the machine running this (what `npm run package` builds by default). */
export function hostTarget(platform = process.platform, arch = process.arch, musl = isMusl()) {
  if (platform === 'linux' && musl) return `alpine-${arch}`;
  return `${platform}-${arch}`;
}

function isMusl() {
  if (process.platform !== 'linux') return false;
  const header = /** @type {{ header?: { glibcVersionRuntime?: string } }} */ (process.report?.getReport() ?? {})
    .header;
  return !header?.glibcVersionRuntime;
}

/** @param {{ name: string, version: string }} pkg @param {string} target */
export function vsixFileName(pkg, target) {
  return `${pkg.name}-${target}-${pkg.version}.vsix`;
}
