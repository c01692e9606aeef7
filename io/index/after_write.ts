/**
 * Bringing the index up to date after a write that already stands (a commit, a push, a pull).
 * The index is a cache: when it cannot be updated (a full disk, a cache folder that is not one),
 * the write still happened, so that is a warning naming the cause and the command that rebuilds
 * the index, never the command's failure. An exit code says what happened to the user's data,
 * and a retry of a save that worked would make it twice.
 *
 * @module
 */
import { kbCommand } from "../self_command.ts";
import { openIndex, type RefreshReport } from "./store.ts";

/** What updating the index after a write did: its report, or the warning that it failed. */
export interface IndexAfterWrite {
  /** What bringing the index up to date did; undefined when it failed. */
  report?: RefreshReport;
  /** When it failed: the cause, that the write stands, and how to rebuild the index. */
  warning?: string;
}

/** Bring the index of `kbDir` up to date after a write; a failure is a warning (module doc). */
export async function indexAfterWrite(kbDir: string): Promise<IndexAfterWrite> {
  try {
    return { report: (await openIndex(kbDir)).report };
  } catch (error) {
    // A cache error ends "…and run again": here the write is done and must not be run again.
    const cause = (error instanceof Error ? error.message : String(error))
      .replace(/ and run again\.$/, ".").replace(/([^.])$/, "$1.");
    return {
      warning: `the index was not updated: ${cause} The rest is done, so do not run the ` +
        "command again; search and the hooks miss the change until the index is rebuilt: " +
        `once the cache is fixed, run ${kbCommand("index", "--kb", kbDir)}`,
    };
  }
}
