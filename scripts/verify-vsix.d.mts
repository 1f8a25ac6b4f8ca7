export interface VsixReport {
  file: string;
  target: string;
  search: 'hybrid' | 'keyword-only';
  native?: string;
  lanceVersion?: string;
  summary: string;
}
export function verifyVsix(file: string, targetName?: string): VsixReport;
