/**
 * The entries an import would update that were edited in the knowledge base since the import
 * that last wrote them (see core/import/edited_here.ts), read from git's history in a few calls
 * whatever their number.
 *
 * @module
 */
import { editedSince, IMPORT_SUBJECT, lastImports } from "../../core/import/edited_here.ts";
import type { ImportChange } from "../../core/import/plan.ts";
import { blobTexts, gitOk } from "../git.ts";

/**
 * The ids of the updates among `changes` (an import's planned changes) whose files were edited, in
 * a field an import writes, since the import commit that last wrote them. An entry no import commit wrote (its
 * history cut, or written before this check existed under another message) is not held back.
 */
export async function editedSinceImport(
  kbDir: string,
  changes: readonly ImportChange[],
): Promise<Set<string>> {
  const edited = new Set<string>();
  if (!changes.some((change) => change.previousText !== undefined)) return edited;
  const log = await gitOk(kbDir, [
    "log",
    "-z",
    "--format=%x01%H",
    "--raw",
    "--no-abbrev",
    "--no-renames",
    `--grep=^${IMPORT_SUBJECT}`,
    "--",
    "entries/",
  ]);
  const last = lastImports(log);
  const candidates = changes.flatMap((change) => {
    const found = last.get(change.entry.id);
    return found && change.previousText !== undefined && !/[\r\n]/.test(change.path)
      ? [{ change, previousText: change.previousText, blob: found.blob }]
      : [];
  });
  // The files as they are on disk (the text the update would replace), hashed as git stores them:
  // one that is still the blob the import wrote was not edited, and needs no reading.
  const onDisk = candidates.length
    ? (await gitOk(kbDir, ["hash-object", "--no-filters", "--stdin-paths"], {
      stdin: candidates.map(({ change }) => `${change.path}\n`).join(""),
    })).split("\n")
    : [];
  const differing = candidates.filter(({ blob }, at) => blob !== onDisk[at]);
  const imported = await blobTexts(kbDir, differing.map(({ blob }) => blob));
  for (const [at, { change, previousText }] of differing.entries()) {
    if (editedSince(imported[at], previousText)) edited.add(change.entry.id);
  }
  return edited;
}
