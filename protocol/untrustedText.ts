/**
 * Third-party text (tool names, descriptions, server stderr) made safe to print or hand on:
 * terminal escape sequences removed whole (so `ESC[31m` leaves no `[31m` behind), then every
 * other C0/C1 control character, and the bidirectional overrides and isolates that can make
 * text read differently from what it is ("Trojan Source"). Letters, including non-Latin ones,
 * are kept. Pure: no I/O.
 */

/** CSI (`ESC [ … final`) and OSC (`ESC ] … BEL|ST`) sequences, and any other `ESC x` pair. */
const ESCAPE_SEQUENCES = /\u001b\[[0-?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)?|\u001b[@-_]?/g;
/** C0 except tab and newline, DEL, C1. */
const CONTROLS_KEEP_LINES = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;
const CONTROLS = /[\u0000-\u001f\u007f-\u009f]+/g;
/** LRE RLE PDF LRO RLO, LRI RLI FSI PDI, and the marks LRM RLM ALM. */
const BIDI = /[\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c]/g;

/** Removes escape sequences, control characters (keeping tab and newline) and bidi controls. */
export function stripControls(text: string): string {
  return text.replace(ESCAPE_SEQUENCES, '').replace(CONTROLS_KEEP_LINES, '').replace(BIDI, '');
}

/** Like stripControls, and every run of control characters (newlines too) becomes one space. */
export function oneLine(text: string): string {
  return text.replace(ESCAPE_SEQUENCES, '').replace(BIDI, '').replace(CONTROLS, ' ').trim();
}

/** Appended where third-party text was cut short. */
export const TRUNCATED_MARK = '…[truncated]';

/** The text if it fits in `max` characters, else its first `max` characters and the mark. */
export function capLength(text: string, max: number): string {
  return text.length <= max ? text : text.slice(0, max).trimEnd() + TRUNCATED_MARK;
}
