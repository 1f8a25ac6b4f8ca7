// The npm registry this project is built against serves LanceDB's native package for
// linux-x64 only. `npm install` then leaves the other platforms' optional packages out of
// package-lock.json, and `npm ci` refuses the lock as out of sync. This puts them back as
// optional, platform-restricted entries that npm ci skips on every other platform.
// Run after any `npm install` that rewrites the lock: node scripts/fix-lockfile.mjs
import { readFileSync, writeFileSync } from 'node:fs';

const file = new URL('../package-lock.json', import.meta.url);
const lock = JSON.parse(readFileSync(file, 'utf8'));
const lancedb = lock.packages['node_modules/@lancedb/lancedb'];
const PLATFORMS = {
  'darwin-arm64': { os: ['darwin'], cpu: ['arm64'] },
  'linux-arm64-gnu': { os: ['linux'], cpu: ['arm64'], libc: ['glibc'] },
  'linux-arm64-musl': { os: ['linux'], cpu: ['arm64'], libc: ['musl'] },
  'linux-x64-gnu': { os: ['linux'], cpu: ['x64'], libc: ['glibc'] },
  'linux-x64-musl': { os: ['linux'], cpu: ['x64'], libc: ['musl'] },
  'win32-x64-msvc': { os: ['win32'], cpu: ['x64'] },
  'win32-arm64-msvc': { os: ['win32'], cpu: ['arm64'] },
};
const added = [];
for (const [suffix, platform] of Object.entries(PLATFORMS)) {
  const name = `@lancedb/lancedb-${suffix}`;
  const key = `node_modules/${name}`;
  if (!lancedb.optionalDependencies?.[name] || lock.packages[key]) continue;
  lock.packages[key] = {
    version: lancedb.version,
    license: 'Apache-2.0',
    optional: true,
    engines: { node: '>= 18' },
    ...platform,
  };
  added.push(name);
}
// The same for Windows-only optional packages the registry does not serve at all (vite's, through
// the Inspector): npm install drops them, npm ci then wants them; on Linux and macOS it skips them.
const WINDOWS_ONLY = ['napi-windows-process-start-time'];
for (const name of WINDOWS_ONLY) {
  const key = `node_modules/${name}`;
  const wanted = Object.values(lock.packages).find((p) => p.optionalDependencies?.[name])?.optionalDependencies[name];
  if (!wanted || lock.packages[key]) continue;
  lock.packages[key] = { version: wanted.replace(/^[\^~]/, ''), dev: true, optional: true, os: ['win32'] };
  added.push(name);
}
lock.packages = Object.fromEntries(
  Object.entries(lock.packages).sort(([a], [b]) => (a === '' ? -1 : b === '' ? 1 : a.localeCompare(b))),
);
writeFileSync(file, JSON.stringify(lock, null, 2) + '\n');
console.error(added.length ? `package-lock.json: added ${added.join(', ')}` : 'package-lock.json: nothing to add');
