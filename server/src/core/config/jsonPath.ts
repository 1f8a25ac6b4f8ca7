/**
 * JSON paths as users read them (`servers.github.args[1]`, `servers["my.server"].env.TOKEN`)
 * and a locator that maps a path to a character range in the file, for editor diagnostics.
 */
import { findNodeAtLocation, printParseErrorCode, type Node, type ParseError } from 'jsonc-parser';
import type { ConfigProblem } from '../../../../protocol/model';
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

/** What each JSONC syntax error means, in words, by the parser's name for it (PropertyNameExpected means nothing to a reader). */
const SYNTAX_ERRORS: Readonly<Record<string, string>> = {
  InvalidSymbol: 'a character that JSON does not allow here',
  InvalidNumberFormat: 'a malformed number',
  PropertyNameExpected: 'expected a property name in double quotes',
  ValueExpected: 'expected a value',
  ColonExpected: 'expected a colon after the property name',
  CommaExpected: 'expected a comma between two entries',
  CloseBraceExpected: 'expected a closing brace }',
  CloseBracketExpected: 'expected a closing bracket ]',
  EndOfFileExpected: 'expected the end of the file after the top-level value',
  InvalidCommentToken: 'a malformed comment',
  UnexpectedEndOfComment: 'a comment that is never closed (*/ missing)',
  UnexpectedEndOfString: 'a string that is never closed (" missing)',
  UnexpectedEndOfNumber: 'a number that ends too early',
  InvalidUnicode: 'a malformed \\u escape in a string',
  InvalidEscapeCharacter: 'an escape a JSON string does not allow',
  InvalidCharacter: 'a control character or line break inside a string',
};

/**
 * The first syntax error of a file that does not parse, as a problem: in words, with its line and
 * column (formatProblem writes them as `file:line:column`, where a terminal or an editor opens it).
 */
export function syntaxProblem(file: string, text: string, errors: readonly ParseError[]): ConfigProblem {
  const e = errors[0];
  const at = lineColumn(text, e?.offset ?? 0);
  const what = e ? (SYNTAX_ERRORS[printParseErrorCode(e.error)] ?? 'a syntax error') : 'expected a value';
  return {
    severity: 'error',
    file,
    path: '',
    // Short enough for one line where one line is all there is (a Problems row, a List Servers row).
    message: `not valid JSON: ${what}`,
    offset: e?.offset ?? 0,
    length: e?.length ?? 0,
    line: at.line,
    column: at.column,
  };
}
