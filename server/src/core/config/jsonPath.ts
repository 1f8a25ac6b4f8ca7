/**
 * JSON paths as users read them (`servers.github.args[1]`, `servers["my.server"].env.TOKEN`)
 * and a locator that maps a path to a character range in the file, for editor diagnostics.
 */
import { findNodeAtLocation, type Node } from 'jsonc-parser';
import { quotedForDisplay } from '../../../../protocol/untrustedText';

export type JsonPath = (string | number)[];

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$-]*$/;

/** `['servers', 'my.server', 'args', 1]` → `servers["my.server"].args[1]`. */
export function formatJsonPath(path: JsonPath): string {
  let out = '';
  for (const segment of path) {
    if (typeof segment === 'number') out += `[${segment}]`;
    else if (IDENTIFIER.test(segment)) out += out === '' ? segment : `.${segment}`;
    // A server name from a repository's file: quoted, with hidden characters written out.
    else out += `[${quotedForDisplay(segment)}]`;
  }
  return out;
}

/** A character range in a file. */
export interface TextRange {
  offset: number;
  length: number;
}

/** Finds the text range for a JSON path; undefined when the source has no text (settings). */
export type Locator = (path: JsonPath) => TextRange | undefined;

export const noLocator: Locator = () => undefined;

/**
 * Locates the value at `path`; when that key is missing, the nearest existing ancestor's
 * property name (so "missing command" underlines the server's name, not the whole file).
 */
export function treeLocator(root: Node | undefined): Locator {
  return (path) => {
    if (!root) return undefined;
    for (let depth = path.length; depth >= 0; depth--) {
      const node = findNodeAtLocation(root, path.slice(0, depth));
      if (!node) continue;
      if (depth < path.length && node.parent?.type === 'property' && node.parent.children?.[0]) {
        const key = node.parent.children[0];
        return { offset: key.offset, length: key.length };
      }
      return { offset: node.offset, length: node.length };
    }
    return undefined;
  };
}

/** 1-based line and column of an offset, for messages about unparsable files. */
export function lineColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < offset && i < text.length; i++) {
    if (text.charCodeAt(i) === 10) {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: offset - lineStart + 1 };
}
