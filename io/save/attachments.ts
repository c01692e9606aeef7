/**
 * Files that are not entries, saved with them in one commit: the images and documents imported
 * notes embed, under `attachments/`. Each is checked before anything is written (a path inside
 * `attachments/` with no backslash, no symbolic link on the way to it, so neither a planted link
 * nor a `\` read as a separator ever sends a write outside the knowledge base), written whole (a
 * temp file renamed over), and put back as it was when the commit fails.
 *
 * @module
 */
import { ATTACHMENTS_DIR } from "../../core/import/attachments.ts";
import type { Problem } from "../../core/entry/entry.ts";
import { describeFileSecret, fileSecrets } from "../../core/entry/secrets.ts";
import { ifExists, writeFileAtomic, writingIn } from "../fs.ts";
import { join } from "../../core/path.ts";

/** A file to write beside the entries of a save. */
export interface AttachmentFile {
  /** Path relative to the knowledge base, `attachments/<…>`. */
  path: string;
  /** The file's content. */
  bytes: Uint8Array;
}

/** Why `path` may not be written by a save, if it may not. */
function attachmentProblem(kbDir: string, path: string): string | undefined {
  const segments = path.split("/");
  if (
    segments[0] !== ATTACHMENTS_DIR || segments.length < 2 ||
    segments.some((segment) => !segment || segment === "." || segment === "..")
  ) {
    return `${path} is not a file under ${ATTACHMENTS_DIR}/`;
  }
  // git-kb's paths read `\` as a separator too: `a\..\..\x` would be a way out.
  if (path.includes("\\")) return `${path} has a backslash in its name, which a save never writes`;
  for (let end = 1; end <= segments.length; end++) {
    const prefix = segments.slice(0, end).join("/");
    const info = ifExists(() => Deno.lstatSync(join(kbDir, prefix)));
    if (!info) break;
    if (info.isSymlink) return `${prefix} is a symbolic link, which a save never writes through`;
    if (end < segments.length && !info.isDirectory) return `${prefix} is not a folder`;
    if (end === segments.length && !info.isFile) return `${path} is not a regular file`;
  }
  return undefined;
}

/** The problems of the files a save would write; empty when every one may be written. */
export function attachmentProblems(kbDir: string, files: readonly AttachmentFile[]): Problem[] {
  return files.flatMap(({ path }) => {
    const message = attachmentProblem(kbDir, path);
    return message ? [{ field: "attachment", message }] : [];
  });
}

/**
 * Write `files`; returns what puts back the bytes they had (or removes them) on failure. A write
 * that fails puts back the ones before it, then throws.
 */
export function writeAttachments(kbDir: string, files: readonly AttachmentFile[]): () => void {
  const written: { absolute: string; had?: Uint8Array }[] = [];
  const restore = () => {
    for (const { absolute, had } of written) {
      try {
        if (had) writeFileAtomic(absolute, had);
        else Deno.removeSync(absolute);
      } catch { /* nothing was written there */ }
    }
  };
  const made = new Set<string>();
  try {
    for (const { path, bytes } of files) {
      const absolute = join(kbDir, path);
      const had = ifExists(() => Deno.readFileSync(absolute));
      writingIn(absolute, () => writeFileAtomic(absolute, bytes, { made }));
      written.push({ absolute, had });
    }
  } catch (error) {
    restore();
    throw error;
  }
  return restore;
}

/**
 * The files at `paths` (under `attachments/`) of the knowledge base `fromDir` that a save into
 * `toDir` must write to bring them along, and those left out with why: outside `attachments/`,
 * reached through a symbolic link, not a regular file or missing in `fromDir`, holding a
 * credential (a file kept by `--allow-secret` in a private knowledge base), or another file
 * already at that path in `toDir`. A file `toDir` already holds as it is needs nothing. A planted
 * link never makes a save copy a file from outside a knowledge base, nor write through one.
 */
export function attachmentsToCopy(
  fromDir: string,
  toDir: string,
  paths: readonly string[],
): { files: AttachmentFile[]; left: { path: string; reason: string }[] } {
  const files: AttachmentFile[] = [];
  const left: { path: string; reason: string }[] = [];
  for (const path of paths) {
    const problem = attachmentProblem(fromDir, path) ?? attachmentProblem(toDir, path);
    const bytes = problem ? undefined : ifExists(() => Deno.readFileSync(join(fromDir, path)));
    const there = bytes && ifExists(() => Deno.readFileSync(join(toDir, path)));
    const [secret] = bytes ? fileSecrets(bytes) : [];
    if (!bytes) left.push({ path, reason: problem ?? "it is not in the knowledge base" });
    else if (secret) {
      left.push({
        path,
        reason: `it holds ${describeFileSecret(secret)}, which a copy never takes along`,
      });
    } else if (!there) files.push({ path, bytes });
    else if (!sameBytes(there, bytes)) {
      left.push({ path, reason: "the other knowledge base has another file at that path" });
    }
  }
  return { files, left };
}

/** Whether `a` holds exactly the bytes of `b`; false when `a` is missing. */
export function sameBytes(a: Uint8Array | undefined, b: Uint8Array): boolean {
  return a !== undefined && a.length === b.length && a.every((byte, at) => byte === b[at]);
}
