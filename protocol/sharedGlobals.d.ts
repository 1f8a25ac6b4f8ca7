/**
 * The globals protocol/ may use: only what both Node and the browser provide, declared as far
 * as protocol/ uses them. (Neither lib "DOM" nor @types/node: either would let names of one
 * runtime in, and protocol/ runs in both.)
 */
declare class URL {
  constructor(url: string, base?: string);
  hostname: string;
  port: string;
  readonly origin: string;
}
