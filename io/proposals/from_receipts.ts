/**
 * The receipts of this machine's sessions (under the knowledge base's cache folder) turned into
 * proposals on the proposals branch: run by `git-kb review` before it lists, never by a hook.
 *
 * @module
 */
import { type Entry, parseEntryText, toEntry } from "../../core/entry/entry.ts";
import type { IndexReader } from "../../core/index/reader.ts";
import { specificity } from "../../core/prompt/keywords.ts";
import { receiptProposals } from "../../core/proposals/from_receipts.ts";
import { distinctTerms } from "../../core/text/tokenize.ts";
import { openIndex } from "../index/store.ts";
import { readSessions } from "../hook/receipts.ts";
import { readKbFile } from "../kb.ts";
import { kbCacheDir } from "../paths.ts";
import { entryPaths } from "../save/entry_files.ts";
import { propose, readProposals } from "./store.ts";

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
 * How much `word` says about which entry is meant, as the prompt hook weighs a word: by its
 * rarest term (core/prompt/keywords.ts). A word the index has no term of says nothing.
 */
function wordSpecificity(reader: IndexReader, word: string): number {
  const { docCount } = reader.manifest;
  return Math.max(
    0,
    ...distinctTerms(word).map((term) => specificity(reader.postingCount(term), docCount)),
  );
}

/**
 * Propose what the receipts support (see core/proposals/from_receipts.ts); one rejected before,
 * or pending already, is left as it is, and the evidence a proposal on the branch was made of
 * proposes nothing more. Resolves to how many new proposals were written.
 */
export async function proposeFromReceipts(kbDir: string): Promise<number> {
  const sessions = readSessions(kbCacheDir(kbDir));
  const ids = new Set(sessions.flatMap(({ ledger, receipts }) => [
    ...Object.keys(ledger),
    ...(receipts.nearMisses ?? []).map((miss) => miss.id),
  ]));
  if (!ids.size) return 0;
  const today = new Date().toISOString().slice(0, 10);
  const { log, pending } = await readProposals(kbDir);
  const missed = sessions.some(({ receipts }) => receipts.nearMisses?.length);
  const reader = missed ? (await openIndex(kbDir)).reader : undefined;
  const proposals = receiptProposals({
    sessions,
    entries: entriesOf(kbDir, ids),
    today,
    spent: new Set(log.proposals.flatMap((record) => record.evidence)),
    aliasPending: new Set(
      pending.filter((record) => record.kind === "alias").map((record) => record.entryId),
    ),
    specificity: (word) => reader ? wordSpecificity(reader, word) : 1,
  });
  if (!proposals.length) return 0;
  return (await propose(kbDir, proposals)).filter((outcome) => outcome.written).length;
}
