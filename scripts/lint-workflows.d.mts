export function lintWorkflows(
  files: string[],
): Promise<{ file: string; line: number; column: number; message: string; kind: string }[]>;
