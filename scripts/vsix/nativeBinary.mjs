// What a native module is built for, read from its header: file type (ELF, Mach-O, PE) and
// machine. Enough to prove a VSIX carries the binary of its own target without the `file`
// tool: ELF e_machine, Mach-O cputype (thin or universal), PE COFF Machine.

const ELF_MACHINES = { 0x3e: 'x86-64', 0xb7: 'aarch64', 0x03: 'x86', 0x28: 'arm' };
const MACHO_CPUS = { 0x01000007: 'x86-64', 0x0100000c: 'arm64', 0x07: 'x86', 0x0c: 'arm' };
const PE_MACHINES = { 0x8664: 'x64', 0xaa64: 'arm64', 0x014c: 'x86', 0x01c4: 'arm' };

/**
 * @param {Uint8Array} bytes the file's first bytes (4 KiB is plenty for every format here)
 * @returns {{ format: 'ELF' | 'Mach-O' | 'PE', arch: string, bits?: number }}
 */
export function describeBinary(bytes) {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (buf.length >= 20 && buf.readUInt32BE(0) === 0x7f454c46) {
    const bits = buf[4] === 2 ? 64 : buf[4] === 1 ? 32 : 0;
    const machine = buf[5] === 2 ? buf.readUInt16BE(18) : buf.readUInt16LE(18);
    return { format: 'ELF', arch: ELF_MACHINES[machine] ?? `machine 0x${machine.toString(16)}`, bits };
  }
  if (buf.length >= 8) {
    const magicLE = buf.readUInt32LE(0);
    if (magicLE === 0xfeedfacf || magicLE === 0xfeedface) {
      const cpu = buf.readUInt32LE(4);
      return {
        format: 'Mach-O',
        arch: MACHO_CPUS[cpu] ?? `cputype 0x${cpu.toString(16)}`,
        bits: magicLE === 0xfeedfacf ? 64 : 32,
      };
    }
    if (buf.readUInt32BE(0) === 0xcafebabe) {
      // Universal: a big-endian list of (cputype, subtype, offset, size, align) per slice.
      const n = buf.readUInt32BE(4);
      const arches = [];
      for (let i = 0; i < n && 8 + i * 20 + 4 <= buf.length; i++) {
        const cpu = buf.readUInt32BE(8 + i * 20);
        arches.push(MACHO_CPUS[cpu] ?? `cputype 0x${cpu.toString(16)}`);
      }
      return { format: 'Mach-O', arch: `universal (${arches.join(', ')})` };
    }
  }
  if (buf.length >= 0x40 && buf[0] === 0x4d && buf[1] === 0x5a) {
    const pe = buf.readUInt32LE(0x3c);
    if (pe + 6 <= buf.length && buf.readUInt32BE(pe) === 0x50450000) {
      const machine = buf.readUInt16LE(pe + 4);
      return { format: 'PE', arch: PE_MACHINES[machine] ?? `machine 0x${machine.toString(16)}` };
    }
    return { format: 'PE', arch: 'unknown (no PE header within the bytes read)' };
  }
  throw new Error('not an ELF, Mach-O or PE file');
}

/** `ELF x86-64`, `Mach-O arm64`, `PE x64`: the words the packaging script prints and checks. */
export function binaryKind(bytes) {
  const { format, arch } = describeBinary(bytes);
  return `${format} ${arch}`;
}

/**
 * The shared libraries a 64-bit little-endian ELF file needs (DT_NEEDED of its dynamic
 * section, names from the section's string table). Needs the whole file.
 * @param {Uint8Array} bytes
 * @returns {string[]}
 */
export function elfNeeded(bytes) {
  const b = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (b.length < 64 || b.readUInt32BE(0) !== 0x7f454c46 || b[4] !== 2 || b[5] !== 1) return [];
  const shoff = Number(b.readBigUInt64LE(0x28));
  const shentsize = b.readUInt16LE(0x3a);
  const shnum = b.readUInt16LE(0x3c);
  const section = (i) => {
    const o = shoff + i * shentsize;
    return {
      type: b.readUInt32LE(o + 4),
      offset: Number(b.readBigUInt64LE(o + 0x18)),
      size: Number(b.readBigUInt64LE(o + 0x20)),
      link: b.readUInt32LE(o + 0x28),
    };
  };
  const out = [];
  for (let i = 0; i < shnum; i++) {
    const dyn = section(i);
    if (dyn.type !== 6) continue; // SHT_DYNAMIC
    const strtab = section(dyn.link);
    for (let o = dyn.offset; o + 16 <= dyn.offset + dyn.size; o += 16) {
      const tag = b.readBigUInt64LE(o);
      if (tag === 0n) break;
      if (tag !== 1n) continue; // DT_NEEDED
      const start = strtab.offset + Number(b.readBigUInt64LE(o + 8));
      out.push(b.toString('latin1', start, b.indexOf(0, start)));
    }
  }
  return out;
}

/**
 * The C library an ELF shared object links against: glibc's is `libc.so.6`, musl's `libc.so`
 * (or `libc.musl-<arch>.so.1`). Undefined for other formats or when it needs no libc.
 * @param {Uint8Array} bytes
 * @returns {'musl' | 'glibc' | undefined}
 */
export function elfLibc(bytes) {
  const needed = elfNeeded(bytes);
  if (needed.includes('libc.so.6')) return 'glibc';
  if (needed.some((n) => n === 'libc.so' || n.startsWith('libc.musl-'))) return 'musl';
  return undefined;
}
