/**
 * Reading text that must be UTF-8, refusing anything else: a byte that is not UTF-8 would
 * otherwise become U+FFFD and the text would be stored changed.
 *
 * @module
 */

/** Raised when bytes are not UTF-8 text; says on which line the first bad byte is. */
export class NotUtf8Error extends Error {
  /** The 1-based line of the first byte that is not UTF-8. */
  readonly line: number;
  constructor(line: number) {
    super(`it is not UTF-8 text (line ${line} holds a byte that is not UTF-8)`);
    this.name = "NotUtf8Error";
    this.line = line;
  }
}

const strict = new TextDecoder("utf-8", { fatal: true });

/** The 1-based line of the first byte of `bytes` that is not UTF-8 (a newline byte is never in a sequence). */
function firstBadLine(bytes: Uint8Array): number {
  let start = 0;
  for (let line = 1;; line++) {
    const end = bytes.indexOf(0x0a, start);
    const stop = end < 0 ? bytes.length : end;
    try {
      strict.decode(bytes.subarray(start, stop));
    } catch {
      return line;
    }
    if (end < 0) return line;
    start = end + 1;
  }
}

/** `bytes` as text; throws {@link NotUtf8Error} when they are not UTF-8. A BOM is dropped. */
export function decodeUtf8(bytes: Uint8Array): string {
  try {
    return strict.decode(bytes);
  } catch {
    throw new NotUtf8Error(firstBadLine(bytes));
  }
}
