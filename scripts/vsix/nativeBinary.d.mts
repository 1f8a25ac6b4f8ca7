export interface BinaryDescription {
  format: 'ELF' | 'Mach-O' | 'PE';
  arch: string;
  bits?: number;
}
export function describeBinary(bytes: Uint8Array): BinaryDescription;
export function binaryKind(bytes: Uint8Array): string;
export function elfLibc(bytes: Uint8Array): 'musl' | 'glibc' | undefined;
export function elfNeeded(bytes: Uint8Array): string[];
