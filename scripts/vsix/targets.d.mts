export interface LanceBuild {
  package: string;
  version: string;
  binary: string;
  libc?: 'glibc' | 'musl';
}
export interface VsixTarget {
  target: string;
  lance: LanceBuild | null;
}
export const TARGETS: VsixTarget[];
export function vsixTarget(name: string): VsixTarget;
export function hostTarget(platform?: string, arch?: string, musl?: boolean): string;
export function vsixFileName(pkg: { name: string; version: string }, target: string): string;
