/**
 * The write and the commit of a change set: each entry file written whole (or deleted), the
 * attachments with them, exactly those paths staged and committed in one commit; on any failure
 * every file is put back as it was and nothing stays staged (when git cannot unstage it either, the
 * message says so and how to), and a commit git could not sign says how to go on.
 *
 * @module
 */
import { serializeEntry } from "../../core/entry/entry.ts";
import { commandLines, EXIT, KbError } from "../../core/exit.ts";
import { join } from "../../core/path.ts";
import { gitCommand } from "../../core/shell/quote.ts";
import { fullFolder, NO_ROOM_WORDS } from "../../core/unwritable.ts";
import { ifExists, writeFileAtomic, writingIn } from "../fs.ts";
import {
  commitPaths,
  git,
  GitError,
  gitOk,
  gitReason,
  type GitResult,
  signsEveryCommit,
  stagedPaths,
  stagePaths,
} from "../git.ts";
import { type AttachmentFile, writeAttachments } from "./attachments.ts";
import type { Change } from "./request.ts";

/**
 * Write or delete each file, pushing onto `before` the text each had (to put back on failure)
 * before it is touched, so a failure part-way puts back those already written. A new entry's
 * file did not exist when the change set was validated under the lock, so it is not read again.
 */
function applyChanges(
  kbDir: string,
  changes: readonly Change[],
  before: (string | undefined)[],
): void {
  const made = new Set<string>();
  for (const { path, entry, previousText } of changes) {
    const absolute = join(kbDir, path);
    before.push(
      entry && previousText === undefined
        ? undefined
        : ifExists(() => Deno.readTextFileSync(absolute)),
    );
    writingIn(absolute, () => {
      if (entry) writeFileAtomic(absolute, serializeEntry(entry), { made });
      else ifExists(() => Deno.removeSync(absolute));
    });
  }
}

function restore(kbDir: string, paths: readonly string[], texts: (string | undefined)[]): void {
  paths.forEach((path, at) => {
    const text = texts[at];
    try {
      if (text === undefined) Deno.removeSync(join(kbDir, path));
      else writeFileAtomic(join(kbDir, path), text);
    } catch { /* nothing was written there */ }
  });
}

/**
 * `error` of a commit step as the save's refusal when git could not write its objects for want of
 * room (the files were put back: nothing was written or committed); any other error as it is.
 */
function fullDiskError(error: unknown, kbDir: string): unknown {
  if (!(error instanceof GitError) || !NO_ROOM_WORDS.test(error.result.stderr)) {
    return error;
  }
  return new KbError(`${fullFolder(kbDir, gitReason(error.result.stderr)).reason}.`, EXIT.failed);
}

/**
 * `error` of a commit step as the save's refusal when git signs every commit in the knowledge base
 * (`commit.gpgSign`) and could not sign this one (a key it cannot load, a locked agent): git's
 * reason, and the line that turns signing off there (the files were put back: nothing was
 * written or committed); any other error as it is.
 */
async function signingError(error: unknown, kbDir: string): Promise<unknown> {
  if (!(error instanceof GitError) || !/failed to write commit object/.test(error.result.stderr)) {
    return error;
  }
  if (!await signsEveryCommit(kbDir)) return error;
  return new KbError(
    `git signs every commit in ${kbDir} (commit.gpgSign is true) and could not sign this one: ` +
      `${gitReason(error.result.stderr)}; nothing was written or committed. Mend the signing (a ` +
      "key git can load, an agent that is unlocked), or turn it off for this knowledge base " +
      "alone, then run the command again",
    EXIT.failed,
    [gitCommand(kbDir, "config", "commit.gpgSign", "false")],
  );
}

/**
 * `cause`, the save's failure (its files put back), told with what git left behind when it could
 * not take `paths` back out of its index either (`reset`: that failed `git reset`, as on a disk too
 * full to write the index): they stay staged as the save wrote them, which every later status
 * shows as a change, until the `git reset` this names last runs once git can write there.
 */
function stillStaged(
  cause: unknown,
  kbDir: string,
  paths: readonly string[],
  reset: GitResult,
): KbError {
  const commands = cause instanceof KbError ? cause.commands : [];
  const message = cause instanceof Error ? cause.message : String(cause);
  const said = message.slice(0, message.length - commandLines(commands).length);
  return new KbError(
    `${said.replace(/[.:]$/, "")}; but git could not unstage what it staged ` +
      `(${gitReason(reset.stderr)}): once git can write there, run the last line below`,
    cause instanceof KbError ? cause.exitCode : EXIT.failed,
    [...commands, gitCommand(kbDir, "reset", "--quiet", "--", ...paths)],
  );
}

/** Write the change set and commit exactly its paths; "" when nothing changed. */
export async function commitChanges(
  kbDir: string,
  changes: readonly Change[],
  message: string,
  files: readonly AttachmentFile[] = [],
): Promise<string> {
  const deleted = changes.filter((change) => !change.entry).map((change) => change.path);
  // A deleted file git never tracked (a hand-written one, renamed by a repair) is no pathspec.
  const tracked = deleted.length
    ? new Set((await gitOk(kbDir, ["ls-files", "-z", "--", ...deleted])).split("\0"))
    : new Set<string>();
  const written = changes.map((change) => change.path);
  const gone = new Set(deleted);
  const paths = [
    ...written.filter((path) => !gone.has(path) || tracked.has(path)),
    ...files.map((file) => file.path),
  ];
  const before: (string | undefined)[] = [];
  let restoreFiles = () => {};
  try {
    applyChanges(kbDir, changes, before);
    restoreFiles = writeAttachments(kbDir, files);
    await stagePaths(kbDir, paths);
    const staged = await stagedPaths(kbDir);
    const ours = new Set(paths);
    if (!paths.some((path) => staged.has(path))) return "";
    const othersStaged = [...staged].some((path) => !ours.has(path));
    await commitPaths(kbDir, message, paths, !othersStaged);
  } catch (error) {
    restore(kbDir, written.slice(0, before.length), before);
    restoreFiles();
    const cause = await signingError(fullDiskError(error, kbDir), kbDir);
    const unstaged = await git(kbDir, ["reset", "--quiet", "--", ...paths]).catch(() => undefined);
    throw unstaged && unstaged.code !== 0 ? stillStaged(cause, kbDir, paths, unstaged) : cause;
  }
  return (await gitOk(kbDir, ["rev-parse", "HEAD"])).trim();
}
