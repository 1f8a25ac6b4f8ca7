/**
 * UTF-8 length of a text, an upper bound of its o200k tokens: every token is at least one
 * byte. A text this many bytes long or shorter fits a token budget of that size uncounted.
 */
export function utf8Length(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) bytes += 1;
    else if (c < 0x800) bytes += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00)
      ((bytes += 4), i++);
    // The rest of the BMP; a lone surrogate is written as U+FFFD, also 3 bytes.
    else bytes += 3;
  }
  return bytes;
}
