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
import { formatProblems } from "../../core/entry/entry.ts";
import { readEntryForgivingly } from "../../core/entry/repair.ts";
import { contentHash } from "../../core/hash.ts";
import { analyzeEntry, type EntryAnalysis } from "../../core/index/editor.ts";
import { readKbFile } from "../kb.ts";

/**
 * Read, parse and analyze the entry file at `path` (relative to `kbDir`), forgivingly (see
 * core/entry/repair.ts): a repairable entry is served, and its repairs are `git-kb doctor`'s to
 * name. A missing date falls back to the file's modification time here; `doctor --fix`, which
 * writes the value down, takes the file's last commit.
 */
export function analyzeFile(kbDir: string, path: string): EntryAnalysis {
  try {
    const text = readKbFile(kbDir, path);
    const { entry, problems } = readEntryForgivingly(text, {
      path,
      fallbackDate: () => modificationDate(kbDir, path),
    });
    if (!entry) return { ok: false, message: formatProblems(problems).trim() };
    const analyzed = analyzeEntry(entry, path, contentHash(text));
    return { ok: true, analyzed, kernelBody: entry.kernel ? entry.body.trim() : undefined };
  } catch (error) {
    return { ok: false, message: error instanceof Error ? error.message : String(error) };
  }
}

/** The day a file was last modified, as YYYY-MM-DD (today when the system does not say). */
function modificationDate(kbDir: string, path: string): string {
  const mtime = Deno.statSync(`${kbDir}/${path}`).mtime ?? new Date();
  return mtime.toISOString().slice(0, 10);
}
