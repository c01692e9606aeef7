/**
 * A number of bytes as a person reads it, for messages.
 *
 * @module
 */

const UNITS = ["KiB", "MiB", "GiB", "TiB"];

/**
 * `bytes` in the largest binary unit it reaches, to a tenth.
 *
 * @example
 * ```ts
 * byteSize(512); // "512 bytes"
 * byteSize(6_000_000); // "5.7 MiB"
 * ```
 */
export function byteSize(bytes: number): string {
  if (bytes < 1024) return bytes === 1 ? "1 byte" : `${bytes} bytes`;
  let size = bytes / 1024;
  let unit = 0;
  while (size >= 1024 && unit < UNITS.length - 1) {
    size /= 1024;
    unit++;
  }
  return `${size.toFixed(1)} ${UNITS[unit]}`;
}
