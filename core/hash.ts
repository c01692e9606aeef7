/**
 * Small, fast, non-cryptographic hashes for change detection and sharding.
 *
 * @module
 */

/** FNV-1a over the UTF-16 code units of `text`, as an unsigned 32-bit number. */
export function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let index = 0; index < text.length; index++) {
    hash ^= text.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

/**
 * A 16-hex-digit digest of `text` from two FNV-1a passes with different seeds: enough to tell
 * whether an entry's content changed, not a defence against anyone.
 */
export function contentHash(text: string): string {
  let second = 0x01000193;
  for (let index = text.length - 1; index >= 0; index--) {
    second ^= text.charCodeAt(index);
    second = Math.imul(second, 0x811c9dc5);
  }
  return fnv1a(text).toString(16).padStart(8, "0") + (second >>> 0).toString(16).padStart(8, "0");
}

/**
 * An 8-hex-digit FNV-1a digest of `bytes`: the checksum of an index file in its manifest, to
 * notice a damaged file, not a defence against anyone.
 */
export function bytesChecksum(bytes: Uint8Array): string {
  let hash = 0x811c9dc5;
  for (let index = 0; index < bytes.length; index++) {
    hash ^= bytes[index];
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0).toString(16).padStart(8, "0");
}
