/**
 * Percent-decoding as RFC 3986 (section 2.1) defines it, for the id in a resource URI: each
 * `%` and two hex digits is one octet, and the octets are read as UTF-8. A URI a client sends
 * may escape any character (`%6Bb-7q2mx` is `kb-7q2mx`), so ids are compared once decoded.
 *
 * @module
 */

/** A segment decoded, or why it cannot be: a `%` without two hex digits, or octets not UTF-8. */
export type Decoded = { text: string } | { malformed: string };

/** `segment` with its percent-escapes decoded, or why it cannot be read (see {@link Decoded}). */
export function percentDecoded(segment: string): Decoded {
  const cut = /%(?![0-9A-Fa-f]{2})/.exec(segment);
  if (cut) {
    const shown = segment.slice(cut.index, cut.index + 3);
    return {
      malformed: `${JSON.stringify(shown)} at character ${cut.index + 1} is not followed by ` +
        `two hex digits (a "%" itself is written %25)`,
    };
  }
  try {
    return { text: decodeURIComponent(segment) };
  } catch {
    return { malformed: "the escaped octets are not UTF-8" };
  }
}
