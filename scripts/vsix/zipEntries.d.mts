export interface ZipEntry {
  name: string;
  method: number;
  compressedSize: number;
  size: number;
  localOffset: number;
}
export class ZipFile {
  constructor(file: string);
  readonly file: string;
  readonly entries: ZipEntry[];
  entry(name: string): ZipEntry | undefined;
  read(entryOrName: ZipEntry | string): Buffer;
}
