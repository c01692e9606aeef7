/**
 * Delivery receipts on disk: `sessions/<session>.receipts.json` beside the session's ledger
 * under the knowledge base's cache folder, written atomically, swept with the ledgers. And every
 * session's ledger and receipts at once, for `git-kb stats`.
 *
 * @module
 */
import type { SessionRecord } from "../core/delivery_stats.ts";
import { join } from "../core/path.ts";
import { parseReceipts, type Receipts } from "../core/receipts.ts";
import type { Ledger } from "../core/surface.ts";
import { readJsonFile, writeFileAtomic } from "./fs.ts";
import { sessionFile } from "./session.ts";

/** The suffix of a receipts file; a ledger's name never contains a dot before `.json`. */
const RECEIPTS_SUFFIX = ".receipts.json";

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
  writeFileAtomic(path, JSON.stringify(change(parseReceipts(readJsonFile(path)))));
}

function isLedger(value: unknown): value is Ledger {
  return typeof value === "object" && value !== null && !Array.isArray(value) &&
    Object.values(value).every((hash) => typeof hash === "string");
}

/** Every session's ledger and receipts in the cache (sessions with neither are left out). */
export function readSessions(cacheDir: string): SessionRecord[] {
  const dir = join(cacheDir, "sessions");
  const names = new Set<string>();
  try {
    for (const item of Deno.readDirSync(dir)) {
      if (!item.isFile || !item.name.endsWith(".json")) continue;
      names.add(item.name.replace(RECEIPTS_SUFFIX, ".json").slice(0, -".json".length));
    }
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return [];
    throw error;
  }
  return [...names].sort().map((name) => {
    const ledger = readJsonFile(join(dir, `${name}.json`));
    return {
      ledger: isLedger(ledger) ? ledger : {},
      receipts: parseReceipts(readJsonFile(join(dir, `${name}${RECEIPTS_SUFFIX}`))),
    };
  });
}
