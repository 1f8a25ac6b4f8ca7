/**
 * The packaging check's header reader: file type and machine of ELF, Mach-O (thin and
 * universal) and PE files, and the C library of an ELF shared object — on headers built here
 * byte by byte and on the LanceDB binary installed in node_modules. And the target table:
 * each target expects the file type and machine its name implies.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { ROOT } from '../fixtures/gatewayLens';

function elf(machine: number): Buffer {
  const b = Buffer.alloc(64);
  b.write('\x7fELF', 'latin1');
  b.set([2, 1, 1], 4);
  b.writeUInt16LE(3, 16);
  b.writeUInt16LE(machine, 18);
  return b;
}
function macho(cpu: number): Buffer {
  const b = Buffer.alloc(32);
  b.writeUInt32LE(0xfeedfacf, 0);
  b.writeUInt32LE(cpu, 4);
  return b;
}
function pe(machine: number): Buffer {
  const b = Buffer.alloc(0x100);
  b.write('MZ', 'latin1');
  b.writeUInt32LE(0x80, 0x3c);
  b.write('PE\0\0', 0x80, 'latin1');
  b.writeUInt16LE(machine, 0x84);
  return b;
}

// The packaging scripts are ES modules; this test file is CommonJS.
const scripts = async () => ({
  ...(await import('../../scripts/vsix/nativeBinary.mjs')),
  ...(await import('../../scripts/vsix/targets.mjs')),
});

test('ELF, Mach-O and PE headers name their machine', async () => {
  const { binaryKind, describeBinary } = await scripts();
  assert.equal(binaryKind(elf(0x3e)), 'ELF x86-64');
  assert.equal(binaryKind(elf(0xb7)), 'ELF aarch64');
  assert.equal(binaryKind(macho(0x0100000c)), 'Mach-O arm64');
  assert.equal(binaryKind(macho(0x01000007)), 'Mach-O x86-64');
  assert.equal(binaryKind(pe(0x8664)), 'PE x64');
  assert.equal(binaryKind(pe(0xaa64)), 'PE arm64');
  const fat = Buffer.alloc(48);
  fat.writeUInt32BE(0xcafebabe, 0);
  fat.writeUInt32BE(2, 4);
  fat.writeUInt32BE(0x01000007, 8);
  fat.writeUInt32BE(0x0100000c, 28);
  assert.equal(binaryKind(fat), 'Mach-O universal (x86-64, arm64)');
  assert.equal(describeBinary(elf(0x28)).arch, 'arm');
  assert.throws(() => describeBinary(Buffer.from('#!/usr/bin/env node\n')), /not an ELF, Mach-O or PE/);
});

test("the installed LanceDB binary reads as this machine's ELF, linked against its libc", async () => {
  const { binaryKind, elfLibc } = await scripts();
  const file = join(ROOT, 'node_modules/@lancedb/lancedb-linux-x64-gnu/lancedb.linux-x64-gnu.node');
  const bytes = readFileSync(file);
  assert.equal(binaryKind(bytes.subarray(0, 4096)), 'ELF x86-64');
  assert.equal(elfLibc(bytes), 'glibc');
  assert.equal(elfLibc(elf(0x3e)), undefined, 'a header alone names no library');
});

test('every target expects the binary its name implies', async () => {
  const { TARGETS, hostTarget, vsixTarget } = await scripts();
  assert.deepEqual(TARGETS.map((t) => t.target).sort(), [
    'alpine-x64',
    'darwin-arm64',
    'darwin-x64',
    'linux-arm64',
    'linux-x64',
    'win32-arm64',
    'win32-x64',
  ]);
  for (const { target, lance } of TARGETS) {
    assert.ok(lance, `${target} has a LanceDB build`);
    const [os, arch] = target.split('-');
    const format = { linux: 'ELF', alpine: 'ELF', darwin: 'Mach-O', win32: 'PE' }[os!];
    const machine =
      format === 'PE'
        ? arch
        : format === 'ELF'
          ? { x64: 'x86-64', arm64: 'aarch64' }[arch!]
          : { x64: 'x86-64', arm64: 'arm64' }[arch!];
    assert.equal(lance.binary, `${format} ${machine}`, target);
    if (format === 'ELF') assert.equal(lance.libc, os === 'alpine' ? 'musl' : 'glibc', target);
    assert.match(lance.package, new RegExp(`^@lancedb/lancedb-${os === 'alpine' ? 'linux' : os}-${arch}`), target);
  }
  assert.throws(() => vsixTarget('linux-ia32'), /unknown target "linux-ia32"/);
  assert.equal(hostTarget('linux', 'x64', true), 'alpine-x64');
  assert.equal(hostTarget('win32', 'arm64', false), 'win32-arm64');
});
