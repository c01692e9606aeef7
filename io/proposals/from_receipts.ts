/**
 * The receipts of this machine's sessions (under the knowledge base's cache folder) turned into
 * proposals on the proposals branch: run by `git-kb review` before it lists, never by a hook.
 *
 * @module
 */
import { type Entry, parseEntryText, toEntry } from "../../core/entry/entry.ts";
import { receiptProposals } from "../../core/proposals/from_receipts.ts";
import { readSessions } from "../hook/receipts.ts";
import { readKbFile } from "../kb.ts";
import { kbCacheDir } from "../paths.ts";
import { entryPaths } from "../save/save.ts";
import { propose } from "./store.ts";

/** The entries of `ids` that are valid entries now, by id (the others are left out). */
function entriesOf(kbDir: string, ids: ReadonlySet<string>): Map<string, Entry> {
  const entries = new Map<string, Entry>();
  for (const [id, path] of entryPaths(kbDir)) {
    if (!ids.has(id)) continue;
    try {
      const { entry } = toEntry(parseEntryText(readKbFile(kbDir, path), path));
      if (entry) entries.set(id, entry);
    } catch { /* an unreadable entry is doctor's to report */ }
  }
  return entries;
}

/**
 * Propose what the receipts support (see core/proposals/from_receipts.ts); one rejected before,
 * or pending already, is left as it is. Resolves to how many new proposals were written.
 */
export async function proposeFromReceipts(kbDir: string): Promise<number> {
  const sessions = readSessions(kbCacheDir(kbDir));
  const ids = new Set(sessions.flatMap(({ ledger, receipts }) => [
    ...Object.keys(ledger),
    ...(receipts.nearMisses ?? []).map((miss) => miss.id),
  ]));
  if (!ids.size) return 0;
  const today = new Date().toISOString().slice(0, 10);
  const proposals = receiptProposals({ sessions, entries: entriesOf(kbDir, ids), today });
  if (!proposals.length) return 0;
  return (await propose(kbDir, proposals)).filter((outcome) => outcome.written).length;
}
