/**
 * Words of request phrasing ("I would like you to help me find…", "can you provide…") that
 * say nothing about which tool is wanted. Query side only: in a description `provide` or
 * `help` can be content.
 */
export const QUERY_FILLER: ReadonlySet<string> = new Set([
  'want',
  'wants',
  'need',
  'needs',
  'like',
  'help',
  'provide',
  'tell',
  'know',
  'give',
  'let',
  'interested',
  'additionally',
  'thanks',
  'thank',
  'great',
  'appreciate',
  'possible',
  'sure',
  'kindly',
  'assist',
  'hi',
  'hello',
]);
