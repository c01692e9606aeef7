/**
 * A folder of notes to import, read from disk: its markdown files (and Cursor's
 * `.cursor/rules/*.mdc`) with their text and dates, and every other file named with why it is
 * left out. Other hidden folders (`.obsidian/`, `.trash/`) and `node_modules/` are not read, and
 * each is named with how many markdown files it holds (`.git/` never is); hidden markdown files
 * are named too, and so are the knowledge base's own `entries/` and `attachments/` when the folder
 * holds it, never read. Symbolic links are not followed, and a FIFO, socket or device is never
 * read. A file's dates are its first and last commit when the folder is in a git repository, else
 * its modification time.
 *
 * @module
 */
import { dirname, isWithin, join } from "../../core/path.ts";
import { ATTACHMENTS_DIR } from "../../core/import/attachments.ts";
import type { SourceNote } from "../../core/import/note.ts";
import { LIMITS } from "../../core/entry/schema.ts";
import { isAgentFile } from "../../core/import/agent_rules.ts";
import { AGENT_FILES, onlyBlock } from "../../core/export/agent_files.ts";
import { detectKind, type SourceKind } from "../../core/import/kinds.ts";
import { NOTE_FILE } from "../../core/import/wikilinks.ts";
import { plural } from "../../core/text/plural.ts";
import { decodeUtf8Strict, NotUtf8Error, utf16Encoding } from "../../core/text/utf8.ts";
import { toUtf8Command } from "../../core/shell/quote.ts";
import { git } from "../git.ts";
import { lstatOf, realPathOr, statOf } from "../disk.ts";
import { readSeenFile } from "../fs.ts";
import { ENTRIES_DIR } from "../kb.ts";
import { kbCommand } from "../self_command.ts";

/** A folder's notes, and the files left out of them. */
export interface SourceFolder {
  /** The kind its files tell (see `detectKind` in core/import/kinds.ts). */
  kind: SourceKind;
  notes: SourceNote[];
  /** Files that are not imported, each with the reason, paths inside the folder. */
  leftOut: { path: string; reason: string }[];
  /**
   * The files that are not notes (images, PDFs), which a note may embed: their size, or that they
   * are symbolic links (never followed).
   */
  others: { path: string; size: number; symlink: boolean }[];
}

/** Why a file that is not markdown (an attachment, a config file) is left out. */
export const NOT_MARKDOWN = "not markdown";

/** Why a symbolic link is left out. */
export const SYMLINK = "a symbolic link (not followed)";

/** Why a note with nothing but blanks in it (Obsidian's, for a link clicked) is left out. */
const EMPTY_NOTE = "is empty: there is nothing in it to keep";

/** The names of the files `git-kb export` writes, its block alone in each when it wrote it all. */
const EXPORT_NAMES = new Set(
  Object.values(AGENT_FILES).map(({ path }) => path.slice(path.lastIndexOf("/") + 1)),
);

/** Why a file `git-kb export` wrote whole is left out. */
const OWN_EXPORT = "holds only git-kb's own block, which git-kb export wrote from this " +
  "knowledge base's kernel rules";

/** Why a note replaced between the look at it and its read is left out. */
const REPLACED = "was replaced (by a link, a FIFO or another file) while it was read; import again";

/** Why a FIFO, socket or device with a note's name is left out: reading a FIFO would block. */
const NOT_A_FILE = "not a regular file (a FIFO, socket or device): not read";

/** Why a hidden markdown file (`.draft.md`) is left out. */
export const HIDDEN_FILE = "a hidden file (its name starts with a dot)";

/** What to do with a note too large for an entry. */
export const SPLIT_NOTE = "Split it into linked notes, then import again";

/** Why a note of `bytes` as written, more than an entry holds, is left out. */
export function tooLargeNote(bytes: number): string {
  return `is ${bytes} bytes; the limit is ${LIMITS.maxBodyBytes}. ${SPLIT_NOTE}`;
}

/** Why the knowledge base's own `entries/` or `attachments/` folder, in the notes, is not read. */
const OWN_FOLDER = "the knowledge base's own folder, which git-kb writes: not read as notes";

/**
 * The folders of the knowledge base at `kbDir` that git-kb writes (`entries/`, `attachments/`),
 * as paths inside `folder` when the knowledge base is that folder or lies below it (a notes repo
 * made the knowledge base by `init`): read as notes, each import would bring the entries the last
 * one wrote back in as new ones.
 */
function ownFolders(folder: string, kbDir: string): Set<string> {
  const notes = realPathOr(folder);
  const kb = realPathOr(kbDir);
  if (!isWithin(kb, notes)) return new Set();
  const inside = kb === notes ? "" : `${kb.slice(notes.length).replace(/^\/+/, "")}/`;
  return new Set([ENTRIES_DIR, ATTACHMENTS_DIR].map((name) => `${inside}${name}`));
}

/**
 * Read the folder `folder` (see the module doc), but for the folders of the knowledge base at
 * `kbDir` that git-kb writes, when they are in it. Throws when it is not a readable folder.
 */
export async function readSourceFolder(folder: string, kbDir: string): Promise<SourceFolder> {
  const info = statOf(folder);
  if (!info) throw new Error(`${folder} does not exist; give the folder of notes to import`);
  if (!info.isDirectory) {
    const holder = dirname(realPathOr(folder));
    throw new Error(
      `${folder} is a file; import reads a folder of notes. To bring the folder that holds it ` +
        `(its other notes too), see first what would come in: ${
          kbCommand("import", holder, "--dry-run")
        }`,
    );
  }
  const source: SourceFolder = { kind: "markdown", notes: [], leftOut: [], others: [] };
  const found: { path: string; text: string; mtime: string }[] = [];
  const own = ownFolders(folder, kbDir);
  walk(
    folder,
    "",
    (path, info) => {
      if (!NOTE_FILE.test(path) && !isAgentFile(path)) {
        source.leftOut.push({ path, reason: NOT_MARKDOWN });
        source.others.push({ path, size: info.size, symlink: false });
        return;
      }
      if (info.size > LIMITS.maxBodyBytes * 2) {
        source.leftOut.push({ path, reason: tooLargeNote(info.size) });
        return;
      }
      const bytes = readSeenFile(inFolder(folder, path), info);
      if (!bytes) {
        source.leftOut.push({ path, reason: REPLACED });
        return;
      }
      const text = noteText(bytes, inFolder(realPathOr(folder), path));
      if (!text.trim()) {
        // An entry of a title alone would be pointed at and fetched for nothing.
        source.leftOut.push({ path, reason: EMPTY_NOTE });
        return;
      }
      if (onlyBlock(text)) {
        // Brought in, it would be a second copy of every kernel rule, as one rule to accept.
        source.leftOut.push({ path, reason: OWN_EXPORT });
        return;
      }
      found.push({ path, text, mtime: dateOf(info.mtime ?? new Date()) });
    },
    { leftOut: source.leftOut, others: source.others, own },
  );
  const history = await commitDates(folder);
  for (const { path, text, mtime } of found.sort((a, b) => a.path.localeCompare(b.path))) {
    const dates = history.get(path);
    source.notes.push({
      path,
      text,
      fileDates: dates ?? { created: mtime, updated: mtime },
    });
  }
  source.kind = detectKind({
    name: folder.replace(/[/\\]+$/, "").split(/[/\\]/).pop() ?? "",
    obsidian: existsFolder(join(folder, ".obsidian")),
    dendron: ["root.schema.yml", "dendron.yml"].some((name) =>
      lstatOf(join(folder, name))?.isFile === true
    ),
    files: source.notes,
  });
  return source;
}

/**
 * The text of a note's `bytes`, strict UTF-8. A note in another encoding is refused with the one
 * it is in when it is UTF-16 (which git-kb tells by its byte-order mark or NUL bytes, and would
 * otherwise read as text full of NULs), and with the line that converts the file at `file` in
 * place, to import it again.
 */
function noteText(bytes: Uint8Array, file: string): string {
  const utf16 = utf16Encoding(bytes);
  if (utf16) {
    throw new Error(
      `is ${utf16} text, not UTF-8; convert it, then import again: ${toUtf8Command(file, utf16)}`,
    );
  }
  try {
    return decodeUtf8Strict(bytes);
  } catch (error) {
    if (!(error instanceof NotUtf8Error)) throw error;
    throw new Error(
      `${error.message}; convert it, then import again, e.g. from Latin-1: ` +
        toUtf8Command(file, "latin1"),
    );
  }
}

function existsFolder(path: string): boolean {
  try {
    return Deno.lstatSync(path).isDirectory;
  } catch {
    return false;
  }
}

/**
 * The file at `path` inside `folder`, its name taken as it is: a `\\` in a file name (`a\\b.md`)
 * is part of the name, not a separator.
 */
export function inFolder(folder: string, path: string): string {
  return path ? `${folder.replace(/\/+$/, "")}/${path}` : folder;
}

/**
 * Visit every file under `folder/prefix` but hidden ones, not entering hidden folders,
 * node_modules and the folders `own` names, nor following links; each is left out with the reason,
 * but a hidden file that is not markdown and a hidden folder with no markdown in it (`.git/`
 * included). A file or folder that cannot be read is left out with the reason; the walk goes on.
 */
function walk(
  folder: string,
  prefix: string,
  visit: (path: string, info: Deno.FileInfo) => void,
  found: Pick<SourceFolder, "leftOut" | "others"> & { own: ReadonlySet<string> },
): void {
  const { leftOut, others, own } = found;
  let entries: Deno.DirEntry[];
  try {
    entries = [...Deno.readDirSync(inFolder(folder, prefix))].sort((a, b) =>
      a.name.localeCompare(b.name)
    );
  } catch (error) {
    if (!prefix) throw error;
    leftOut.push({ path: prefix, reason: (error as Error).message });
    return;
  }
  for (const entry of entries) {
    const path = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (entry.isSymlink) {
      leftOut.push({ path, reason: SYMLINK });
      others.push({ path, size: 0, symlink: true });
    } else if (entry.isDirectory) {
      const hidden = entry.name.startsWith(".") && !isAgentFile(`${path}/rules/x.mdc`);
      if (entry.name === "node_modules") {
        leftOut.push({ path: `${path}/`, reason: "a folder of installed packages, not read" });
      } else if (own.has(path)) {
        leftOut.push({ path: `${path}/`, reason: OWN_FOLDER });
      } else if (!hidden) {
        walk(folder, path, visit, found);
      } else if (entry.name !== ".git") {
        const markdown = markdownFilesUnder(inFolder(folder, path));
        if (markdown) {
          leftOut.push({ path: `${path}/`, reason: hiddenFolderReason(folder, path, markdown) });
        }
      }
    } else if (entry.isFile && entry.name.startsWith(".")) {
      if (NOTE_FILE.test(entry.name)) leftOut.push({ path, reason: HIDDEN_FILE });
    } else if (entry.isFile) {
      try {
        visit(path, Deno.lstatSync(inFolder(folder, path)));
      } catch (error) {
        leftOut.push({ path, reason: (error as Error).message });
      }
    } else {
      const note = NOTE_FILE.test(entry.name) || isAgentFile(path);
      leftOut.push({ path, reason: note ? NOT_A_FILE : NOT_MARKDOWN });
    }
  }
}

/** Why a hidden folder holding `markdown` markdown files is left out, and how to bring them. */
function hiddenFolderReason(folder: string, path: string, markdown: number): string {
  const files = plural(markdown, "markdown file", "markdown files");
  const them = markdown === 1 ? "it" : "them";
  return `a hidden folder, not read (${files} in it); to bring ${them}, import it by itself: ` +
    kbCommand("import", inFolder(realPathOr(folder), path));
}

/**
 * How many markdown files are under `dir`, links not followed, but for those `git-kb export`
 * wrote whole (`.windsurf/rules/git-kb.md`), which an import of the folder would leave out; a
 * folder it cannot read counts none.
 */
function markdownFilesUnder(dir: string): number {
  let count = 0;
  try {
    for (const entry of Deno.readDirSync(dir)) {
      const path = `${dir}/${entry.name}`;
      if (entry.isDirectory) count += markdownFilesUnder(path);
      else if (entry.isFile && NOTE_FILE.test(entry.name) && !exportedWhole(path)) count++;
    }
  } catch {
    // Unreadable: nothing of it could be imported either way.
  }
  return count;
}

/** Whether the file at `path` has a name `git-kb export` writes and holds only its block. */
function exportedWhole(path: string): boolean {
  if (!EXPORT_NAMES.has(path.slice(path.lastIndexOf("/") + 1))) return false;
  try {
    const bytes = readSeenFile(path, Deno.lstatSync(path), LIMITS.maxBodyBytes);
    return bytes !== undefined && onlyBlock(new TextDecoder().decode(bytes));
  } catch {
    return false;
  }
}

/** A date as YYYY-MM-DD in UTC. */
function dateOf(date: Date): string {
  return date.toISOString().slice(0, 10);
}

/**
 * The first and last commit (author) date of every file under `folder` that git tracks, by path inside
 * the folder; empty when the folder is not in a git repository.
 */
async function commitDates(
  folder: string,
): Promise<Map<string, { created: string; updated: string }>> {
  const dates = new Map<string, { created: string; updated: string }>();
  const result = await git(folder, [
    "log",
    "--format=%x00%as",
    "--name-only",
    "--relative",
    "--no-renames",
    "-z",
    "--",
    ".",
  ], { timeoutMs: 30_000 }).catch(() => undefined);
  if (!result || result.code !== 0) return dates;
  let date = "";
  for (const field of result.stdout.split("\0")) {
    const line = field.replace(/^\n+/, "");
    if (/^\d{4}-\d{2}-\d{2}$/.test(line)) {
      date = line;
    } else if (line && date) {
      const known = dates.get(line);
      // git log goes newest first: the first date seen is the last change.
      if (known) known.created = date;
      else dates.set(line, { created: date, updated: date });
    }
  }
  return dates;
}
