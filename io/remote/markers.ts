/**
 * Conflict markers are never pushed: an entry file that still holds `<<<<<<<` or `>>>>>>>` lines
 * (a merge finished by hand without resolving it) stops a save's and a sync's push alike, with
 * the same steps out.
 *
 * @module
 */
import { displaySafe } from "../../core/text/display.ts";
import type { Refusal } from "../../core/exit.ts";
import { editFileCommand, gitCommand } from "../../core/shell/quote.ts";
import { pastedIdentityArgs, pathsWithConflictMarkers } from "../git.ts";
import { syncCommand } from "./target.ts";

/**
 * What stops the push of commit `rev` when files among `paths` (relative to the knowledge base)
 * hold conflict markers there: the files named, then the commands that open each, commit the
 * resolution and sync. Undefined when none does.
 */
export async function markerRefusal(
  kbDir: string,
  rev: string,
  paths: readonly string[],
): Promise<Refusal | undefined> {
  const marked = await pathsWithConflictMarkers(kbDir, rev, paths);
  if (!marked.length) return undefined;
  const identity = await pastedIdentityArgs(kbDir);
  const named = marked.map(displaySafe).join(", ");
  return {
    reason: `${named} still ${marked.length === 1 ? "holds" : "hold"} conflict ` +
      "markers (<<<<<<< or >>>>>>> lines), which git-kb never pushes; keep what you want of " +
      "both versions, commit, and sync",
    commands: [
      ...marked.map((path) => editFileCommand(`${kbDir}/${path}`)),
      gitCommand(kbDir, "add", "--", ...marked),
      gitCommand(kbDir, ...identity, "commit", "-m", "kb: resolve conflict"),
      syncCommand(kbDir),
    ],
  };
}
