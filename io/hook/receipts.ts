/**
 * Delivery receipts on disk, beside the session's ledger under the knowledge base's cache folder
 * and swept with the ledgers: `sessions/<session>.receipts.json`, the fetched ids, written
 * atomically; and `sessions/<session>.unmatched.jsonl`, one line per prompt that matched nothing
 * (its words), appended. And every session's ledger and receipts at once, for `git-kb stats`.
 *
 * @module
 */
import type { SessionRecord } from "../../core/delivery/misses.ts";
import { join } from "../../core/path.ts";
import {
  parseReceipts,
  RECEIPT_LIMITS,
  type Receipts,
  withUnmatched,
} from "../../core/delivery/receipts.ts";
import type { Ledger } from "../../core/prompt/decision.ts";
import { readPrivateJson, readPrivateText, writePrivateFile, writePrivateText } from "../fs.ts";
import { MAX_SESSION_FILE_BYTES, sessionFile } from "./session.ts";

/** The suffix of a receipts file; a ledger's name never contains a dot before `.json`. */
const RECEIPTS_SUFFIX = ".receipts.json";

/** The suffix of a session's log of unmatched prompts. */
const UNMATCHED_SUFFIX = ".unmatched.jsonl";

/** The most a session's log of unmatched prompts grows to; later ones are not recorded. */
export const MAX_UNMATCHED_BYTES = 32 * 1024;

/**
 * Record a prompt that matched nothing, by its words (the first
 * {@link RECEIPT_LIMITS.wordsPerPrompt}): one line appended to the session's log. A quiet prompt
 * pays for a check and an append, not a read, a parse and an atomic rewrite: the line is appended
 * first, and taken back off when it took the log past {@link MAX_UNMATCHED_BYTES}.
 */
export function appendUnmatched(cacheDir: string, sessionId: string, words: string[]): void {
  const path = sessionFile(cacheDir, sessionId, UNMATCHED_SUFFIX);
  const line = `${JSON.stringify(words.slice(0, RECEIPT_LIMITS.wordsPerPrompt))}\n`;
  const size = writePrivateText(path, line, true);
  if (size > MAX_UNMATCHED_BYTES) {
    Deno.truncateSync(path, size - new TextEncoder().encode(line).length);
  }
}

/**
 * Apply `change` to a session's receipts and write them back atomically. Two hooks of one
 * session writing at the same instant may lose one of the two changes, never the file.
 */
export function updateReceipts(
  cacheDir: string,
  sessionId: string,
  change: (receipts: Receipts) => Receipts,
): void {
  const path = sessionFile(cacheDir, sessionId, RECEIPTS_SUFFIX);
  const before = parseReceipts(readPrivateJson(path, MAX_SESSION_FILE_BYTES));
  writePrivateFile(path, JSON.stringify(change(before)));
}

function isLedger(value: unknown): value is Ledger {
  return typeof value === "object" && value !== null && !Array.isArray(value) &&
    Object.values(value).every((hash) => typeof hash === "string");
}

/** The session file names end in these; what comes before is the session's name. */
const SESSION_SUFFIXES = [RECEIPTS_SUFFIX, UNMATCHED_SUFFIX, ".json"];

/** `receipts` with the unmatched prompts of a log's text added (malformed lines skipped). */
function withUnmatchedLog(receipts: Receipts, log: string): Receipts {
  for (const line of log.split("\n")) {
    let words: unknown;
    try {
      words = JSON.parse(line);
    } catch {
      continue;
    }
    if (Array.isArray(words) && words.every((word) => typeof word === "string")) {
      receipts = withUnmatched(receipts, words);
    }
  }
  return receipts;
}

/** Every session's ledger and receipts in the cache (sessions with neither are left out). */
export function readSessions(cacheDir: string): SessionRecord[] {
  const dir = join(cacheDir, "sessions");
  const names = new Set<string>();
  try {
    if (!Deno.lstatSync(dir).isDirectory) return [];
    for (const item of Deno.readDirSync(dir)) {
      const suffix = SESSION_SUFFIXES.find((end) => item.name.endsWith(end));
      if (item.isFile && suffix) names.add(item.name.slice(0, -suffix.length));
    }
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return [];
    throw error;
  }
  return [...names].sort().map((name) => {
    const file = (suffix: string) => join(dir, `${name}${suffix}`);
    const ledger = readPrivateJson(file(".json"), MAX_SESSION_FILE_BYTES);
    const receipts = parseReceipts(readPrivateJson(file(RECEIPTS_SUFFIX), MAX_SESSION_FILE_BYTES));
    const log = readPrivateText(file(UNMATCHED_SUFFIX), MAX_SESSION_FILE_BYTES) ?? "";
    return {
      session: name,
      ledger: isLedger(ledger) ? ledger : {},
      receipts: withUnmatchedLog(receipts, log),
    };
  }).filter(({ ledger, receipts }) =>
    // A ledger is created empty on a session's first read of it (session.ts): not yet a record.
    Object.keys(ledger).length || receipts.fetched.length || receipts.unmatched.prompts
  );
}
