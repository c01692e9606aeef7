/**
 * Strict UTF-8 decoding: text that is not UTF-8 is refused with where it goes wrong, never
 * turned into U+FFFD replacement characters.
 *
 * @module
 */

/** Raised when bytes are not valid UTF-8; the message says which byte, and on which line. */
export class NotUtf8Error extends TypeError {
  /** Offset of the first byte that is not part of valid UTF-8. */
  readonly offset: number;
  /** The 1-based line that byte is on. */
  readonly line: number;
  constructor(offset: number, byte: number, line: number) {
    super(
      `is not valid UTF-8 (byte 0x${
        byte.toString(16).toUpperCase().padStart(2, "0")
      } at offset ${offset}, line ${line})`,
    );
    this.name = "NotUtf8Error";
    this.offset = offset;
    this.line = line;
  }
}

/** The 1-based line of the byte at `offset` (a newline byte is never inside a character). */
function lineOf(bytes: Uint8Array, offset: number): number {
  let line = 1;
  for (let at = 0; at < offset; at++) if (bytes[at] === 0x0a) line++;
  return line;
}

/** Made on first use: the hooks load this module (through io/kb.ts) and rarely decode. */
let strict: TextDecoder | undefined;

/** The range the byte after a lead byte may take, where it is narrower than 0x80–0xBF. */
function secondByteRange(lead: number): [number, number] {
  if (lead === 0xe0) return [0xa0, 0xbf];
  if (lead === 0xed) return [0x80, 0x9f];
  if (lead === 0xf0) return [0x90, 0xbf];
  if (lead === 0xf4) return [0x80, 0x8f];
  return [0x80, 0xbf];
}

/** How many continuation bytes follow `lead`, or -1 when it cannot start a character. */
function continuationCount(lead: number): number {
  if (lead < 0x80) return 0;
  if (lead >= 0xc2 && lead <= 0xdf) return 1;
  if (lead >= 0xe0 && lead <= 0xef) return 2;
  if (lead >= 0xf0 && lead <= 0xf4) return 3;
  return -1;
}

/** Offset of the first byte of `bytes` that breaks UTF-8, or -1 when they are all valid. */
export function firstInvalidUtf8(bytes: Uint8Array): number {
  let at = 0;
  while (at < bytes.length) {
    const count = continuationCount(bytes[at]);
    if (count < 0) return at;
    if (count > 0) {
      const [low, high] = secondByteRange(bytes[at]);
      const second = bytes[at + 1];
      if (second === undefined || second < low || second > high) return at;
      for (let next = at + 2; next <= at + count; next++) {
        if (next >= bytes.length || (bytes[next] & 0xc0) !== 0x80) return at;
      }
    }
    at += count + 1;
  }
  return -1;
}

/**
 * Decode UTF-8 bytes as they are (a leading byte-order mark is kept, as U+FEFF). Throws
 * {@link NotUtf8Error} when the bytes are not UTF-8.
 *
 * @example
 * ```ts
 * decodeUtf8Strict(new Uint8Array([0x68, 0x69])); // "hi"
 * decodeUtf8Strict(new Uint8Array([0x63, 0x61, 0x66, 0xe9])); // throws NotUtf8Error (offset 3)
 * ```
 */
export function decodeUtf8Strict(bytes: Uint8Array): string {
  try {
    strict ??= new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });
    return strict.decode(bytes);
  } catch {
    const offset = firstInvalidUtf8(bytes);
    throw new NotUtf8Error(offset, bytes[offset], lineOf(bytes, offset));
  }
}

/** How many leading bytes {@link utf16Encoding} looks at. */
const UTF16_SAMPLE_BYTES = 64;

/**
 * The UTF-16 encoding `bytes` are in, as iconv names it, when they start like UTF-16 text: a
 * UTF-16 byte-order mark (`UTF-16`, which iconv reads by it), or Latin-1 characters (ASCII, `é`)
 * each beside a NUL byte (`UTF-16LE` when the NUL comes second, `UTF-16BE` when it comes first),
 * which a text file in UTF-8 does not hold; undefined otherwise. An entry starts with `---`, so one
 * checked out as UTF-16 (a `.gitattributes` `working-tree-encoding`) is told from one that is
 * merely not UTF-8, and so is a note saved as UTF-16 with no byte-order mark.
 *
 * @example
 * ```ts
 * utf16Encoding(new Uint8Array([0xff, 0xfe, 0x2d, 0x00])); // "UTF-16"
 * utf16Encoding(new Uint8Array([0x2d, 0x00, 0x2d, 0x00])); // "UTF-16LE"
 * utf16Encoding(new TextEncoder().encode("---\n")); // undefined
 * ```
 */
export function utf16Encoding(bytes: Uint8Array): "UTF-16" | "UTF-16LE" | "UTF-16BE" | undefined {
  const [first, second] = bytes;
  if ((first === 0xff && second === 0xfe) || (first === 0xfe && second === 0xff)) return "UTF-16";
  const length = Math.min(bytes.length, UTF16_SAMPLE_BYTES) & ~1;
  if (length < 4) return undefined;
  let little = true;
  let big = true;
  for (let at = 0; at < length; at += 2) {
    little &&= bytes[at] > 0 && bytes[at + 1] === 0;
    big &&= bytes[at] === 0 && bytes[at + 1] > 0;
  }
  return little ? "UTF-16LE" : big ? "UTF-16BE" : undefined;
}
