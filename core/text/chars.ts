/**
 * Character tests written as scans of character codes. The hooks run cold, and a regular
 * expression is compiled on its first use in a process (0.05–0.5 ms each on these machines),
 * then run by a matcher that costs more per call than a comparison of codes.
 *
 * @module
 */

/** Whether `code` is the code of a digit 0–9. */
export function isDigitCode(code: number): boolean {
  return code >= 48 && code <= 57;
}

/** Whether `text` is one or more of the digits 0–9 (what `/^\d+$/` matches). */
export function isDigits(text: string): boolean {
  if (!text) return false;
  for (let index = 0; index < text.length; index++) {
    if (!isDigitCode(text.charCodeAt(index))) return false;
  }
  return true;
}

/** Whether `code` is an ASCII capital letter. */
export function isUpperCode(code: number): boolean {
  return code >= 65 && code <= 90;
}

/** Whether `code` is an ASCII small letter. */
export function isLowerCode(code: number): boolean {
  return code >= 97 && code <= 122;
}

/** Whether the character `char` is whitespace, as `\s` in a regular expression means it. */
export function isWhitespace(char: string): boolean {
  const code = char.charCodeAt(0);
  if (code <= 32) return code === 32 || (code >= 9 && code <= 13);
  if (code < 0xa0) return false;
  return code === 0xa0 || code === 0x1680 || (code >= 0x2000 && code <= 0x200a) ||
    code === 0x2028 || code === 0x2029 || code === 0x202f || code === 0x205f ||
    code === 0x3000 || code === 0xfeff;
}

/**
 * Whether `code` is an ASCII letter or digit, or one of the characters of `punctuation`: what a
 * file name or an unquoted shell word may hold.
 */
export function isPlainChar(code: number, punctuation: string): boolean {
  return isUpperCode(code) || isLowerCode(code) || isDigitCode(code) ||
    punctuation.includes(String.fromCharCode(code));
}

/** Whether `text` is not empty and every character of it is plain (see {@link isPlainChar}). */
export function isPlain(text: string, punctuation: string): boolean {
  if (!text) return false;
  for (let index = 0; index < text.length; index++) {
    if (!isPlainChar(text.charCodeAt(index), punctuation)) return false;
  }
  return true;
}

/** `text` with each character that is not plain (see {@link isPlainChar}) replaced by `_`. */
export function plainName(text: string, punctuation: string): string {
  let plain = "";
  for (let index = 0; index < text.length; index++) {
    plain += isPlainChar(text.charCodeAt(index), punctuation) ? text[index] : "_";
  }
  return plain;
}
