/**
 * Reading a bounded part of a session transcript: the JSONL file Claude Code names in a hook's
 * `transcript_path`. Only a regular file is read (never a FIFO or a device, which could hold a
 * read forever), and never more than asked.
 *
 * @module
 */

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
async function newlinesBefore(file: Deno.FsFile, bytes: number): Promise<number> {
  const buffer = new Uint8Array(COUNT_CHUNK);
  let count = 0;
  let left = bytes;
  await file.seek(0, Deno.SeekMode.Start);
  while (left > 0) {
    const read = await file.read(buffer.subarray(0, Math.min(left, COUNT_CHUNK)));
    if (read === null) break;
    for (let index = 0; index < read; index++) if (buffer[index] === 10) count++;
    left -= read;
  }
  return count;
}

/** Read all of `length` bytes at `start`, or as many as the file has. */
async function readAt(file: Deno.FsFile, start: number, length: number): Promise<Uint8Array> {
  const bytes = new Uint8Array(length);
  let filled = 0;
  await file.seek(start, Deno.SeekMode.Start);
  while (filled < length) {
    const read = await file.read(bytes.subarray(filled));
    if (read === null) break;
    filled += read;
  }
  return bytes.subarray(0, filled);
}

/**
 * The last `maxBytes` of the transcript at `path`, or less: never what lies before `after` (the
 * end of a part read before). With `countLines`, also the line the part starts on (the file is
 * read up to there, a chunk at a time). Throws when `path` is not a regular file.
 */
export async function readTranscriptTail(
  path: string,
  maxBytes: number,
  options: { after?: number; countLines?: boolean } = {},
): Promise<TranscriptPart> {
  const info = await Deno.stat(path);
  if (!info.isFile) throw new Error(`the transcript ${path} is not a regular file`);
  using file = await Deno.open(path, { read: true });
  const end = info.size;
  const after = Math.min(Math.max(options.after ?? 0, 0), end);
  const start = Math.max(after, end - maxBytes);
  const text = new TextDecoder().decode(await readAt(file, start, end - start));
  if (!options.countLines) return { text, start, end };
  return { text, start, end, firstLine: (await newlinesBefore(file, start)) + 1 };
}
