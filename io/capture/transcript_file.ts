/**
 * Reading a bounded part of a session transcript: the JSONL file Claude Code names in a hook's
 * `transcript_path`. Only a regular file is read (never a FIFO or a device, which could hold a
 * read forever), and never more than asked.
 *
 * @module
 */
import { type OpenedFile, openWithoutWaiting } from "../fs.ts";

/** The most of a transcript's end read, by the capture's decision and by its run: 256 KiB. */
export const TRANSCRIPT_TAIL_BYTES = 256 * 1024;

/** The part of the transcript read. */
export interface TranscriptPart {
  /** The text, from `start` to the end (a first line cut in the middle included). */
  text: string;
  /** Where the text starts in the file, in bytes. */
  start: number;
  /** The file's size when read: where a later read of what came after starts. */
  end: number;
  /** The line of the file the text starts on, from 1; only when asked to count. */
  firstLine?: number;
}

/** The chunk lines are counted in. */
const COUNT_CHUNK = 1024 * 1024;

/** How many newlines the file's first `bytes` hold, read in chunks. */
function newlinesBefore(file: OpenedFile, bytes: number): number {
  const buffer = new Uint8Array(COUNT_CHUNK);
  let count = 0;
  for (let position = 0; position < bytes;) {
    const read = file.readAt(buffer.subarray(0, Math.min(bytes - position, COUNT_CHUNK)), position);
    if (read === 0) break;
    for (let index = 0; index < read; index++) if (buffer[index] === 10) count++;
    position += read;
  }
  return count;
}

/** Read all of `length` bytes at `start`, or as many as the file has. */
function readAt(file: OpenedFile, start: number, length: number): Uint8Array {
  const bytes = new Uint8Array(length);
  let filled = 0;
  while (filled < length) {
    const read = file.readAt(bytes.subarray(filled), start + filled);
    if (read === 0) break;
    filled += read;
  }
  return bytes.subarray(0, filled);
}

/**
 * The last `maxBytes` of the transcript at `path`, or less: never what lies before `after` (the
 * end of a part read before). With `countLines`, also the line the part starts on (the file is
 * read up to there, a chunk at a time). Throws when `path` is not a regular file: what is opened
 * is checked, not a look before it, which a FIFO swapped in since would hold forever.
 */
export function readTranscriptTail(
  path: string,
  maxBytes: number,
  options: { after?: number; countLines?: boolean } = {},
): TranscriptPart {
  using file = openWithoutWaiting(path, true);
  if (!file) throw new Error(`the transcript ${path} is not a regular file`);
  const end = file.info.size;
  const after = Math.min(Math.max(options.after ?? 0, 0), end);
  const start = Math.max(after, end - maxBytes);
  const text = new TextDecoder().decode(readAt(file, start, end - start));
  if (!options.countLines) return { text, start, end };
  return { text, start, end, firstLine: newlinesBefore(file, start) + 1 };
}
