/**
 * Read, parse and analyze entry files into what the index stores. Loaded only when the index
 * must take in changed files: it brings the entry parser and the YAML library with it.
 *
 * (Sharing a full build's files with a worker was tried and measured: on these two-core machines
 * both halves ran no faster side by side than one after the other, and handing the results back
 * cost more than the rest saved.)
 *
 * @module
 */
import { formatProblems, parseEntryText, toEntry } from "../../core/entry/entry.ts";
import { contentHash } from "../../core/hash.ts";
import { analyzeEntry, type EntryAnalysis } from "../../core/index/editor.ts";
import { ENTRIES_DIR, readKbFile } from "../kb.ts";

/** Read, parse and analyze the entry file at `path` (relative to `kbDir`). */
export function analyzeFile(kbDir: string, path: string): EntryAnalysis {
  try {
    const text = readKbFile(kbDir, path);
    const { entry, problems } = toEntry(parseEntryText(text, path));
    if (!entry) return { ok: false, message: formatProblems(problems).trim() };
    const expected = `${ENTRIES_DIR}/${entry.id}-`;
    if (!path.startsWith(expected)) {
      return { ok: false, message: `file name does not start with its id (${expected}…)` };
    }
    const analyzed = analyzeEntry(entry, path, contentHash(text));
    return { ok: true, analyzed, kernelBody: entry.kernel ? entry.body.trim() : undefined };
  } catch (error) {
    return { ok: false, message: error instanceof Error ? error.message : String(error) };
  }
}
