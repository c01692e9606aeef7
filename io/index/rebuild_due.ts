/**
 * The note a hook leaves when it did not bring the index up to date because that meant reading
 * more entry files than it may in its time (see `HOOK_INLINE_READS` in `store.ts`): the session's
 * freshness watch (`watch.ts`), which has no such limit, rebuilds at once when it finds the note,
 * and any command (`git-kb index`, `search`) does as it opens the index; a rebuild removes it.
 * While the note is fresh, hooks answer from the index as it is without looking at every file
 * again. `rebuild-due.json` in the knowledge base's private cache folder, 0600.
 *
 * @module
 */
import { join } from "../../core/path.ts";
import { readPrivateJson, writePrivateFile } from "../fs.ts";
import { kbCacheDir } from "../paths.ts";

/** The note's file name in the knowledge base's cache folder. */
const NOTE = "rebuild-due.json";

/** The most bytes of the note read (one is about 40). */
const NOTE_MAX_BYTES = 4096;

/** How long a note is trusted: past it, a hook looks at every file again (and may note anew). */
export const REBUILD_DUE_TRUST_MS = 10 * 60_000;

/** Leave the note: a hook left `reads` entry files for a rebuild outside it. */
export function noteRebuildDue(kbDir: string, reads: number): void {
  writePrivateFile(join(kbCacheDir(kbDir), NOTE), JSON.stringify({ at: Date.now(), reads }));
}

/** Whether a fresh note says a rebuild is due; a missing, unreadable or unsafe note says not. */
export function rebuildDue(kbDir: string): boolean {
  try {
    const note = readPrivateJson(join(kbCacheDir(kbDir), NOTE), NOTE_MAX_BYTES) as
      | { at?: unknown }
      | undefined;
    const age = Date.now() - Number(note?.at);
    return age >= 0 && age < REBUILD_DUE_TRUST_MS;
  } catch {
    return false;
  }
}

/** Remove the note, after a rebuild: the index holds every entry file again. */
export function clearRebuildDue(kbDir: string): void {
  try {
    Deno.removeSync(join(kbCacheDir(kbDir), NOTE));
  } catch { /* there was none */ }
}
