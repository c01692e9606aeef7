/**
 * The index's own health check, for `git-kb doctor`: is the index up to date, was it damaged,
 * does it account for every file in `entries/`, do two files share an id.
 *
 * @module
 */
import type { Finding } from "../../core/setup/finding.ts";
import { join } from "../../core/path.ts";
import { INDEX_VERSION, type InvalidFile } from "../../core/index/format.ts";
import {
  findDamage,
  isManifest,
  MANIFEST,
  openIndex,
  readCacheFile,
  readManifest,
} from "./store.ts";
import { kernelDamage } from "./refresh.ts";
import { scanEntries } from "../kb.ts";
import { indexDir } from "../paths.ts";
import { kbCommand } from "../self_command.ts";

/**
 * Check the index of `kbDir` and bring it up to date: every index file against its checksum and
 * every kernel rule against its entry file (a damaged index is rebuilt and reported), the
 * entries and left-out files it counts against the files on disk, and ids used by two files.
 * (Doctor lists each left-out file itself.)
 */
export async function indexFindings(kbDir: string): Promise<Finding[]> {
  const dir = indexDir(kbDir);
  const before = readManifest(dir);
  const unreadable = !before && manifestUnreadable(dir);
  const findings: Finding[] = [];
  const add = (level: Finding["level"], message: string) =>
    findings.push({ level, check: "index", message });
  const damage = before && (findDamage(dir, before, true) ?? kernelDamage(kbDir, before));
  const { report } = await openIndex(kbDir, { verify: true });
  if (unreadable) {
    add(
      "warn",
      `the index's manifest was unusable; rebuilt the index (${report.docCount} entries)`,
    );
  }
  if (damage) add("warn", `the index was damaged (${damage}); rebuilt it from the entry files`);
  const onDisk = scanEntries(kbDir).size;
  const counted = report.docCount + report.invalid.length;
  if (counted !== onDisk) {
    add(
      "error",
      `the index counts ${counted} files (${report.docCount} entries, ${report.invalid.length} ` +
        `left out) but entries/ holds ${onDisk}: run ${
          kbCommand("index", "--full", "--kb", kbDir)
        }`,
    );
  }
  for (const [id, files] of duplicateGroups(report.invalid)) {
    add(
      "error",
      `id ${id} is used by ${files.join(" and ")}: neither is served; give one a new id`,
    );
  }
  if (!findings.length) {
    add("ok", `up to date: ${report.docCount} entries from ${onDisk} files`);
  }
  return findings;
}

/**
 * Whether `dir` holds a manifest that could not be used although it is of this version of
 * git-kb (an index of another version, or none, is simply built anew). It is read once, as the
 * index reads it: a FIFO, a link or a file over its cap is unusable, never opened. One that is
 * sound now was swapped in by another process's build since it was first read: not damage.
 */
function manifestUnreadable(dir: string): boolean {
  try {
    const bytes = readCacheFile(join(dir, MANIFEST), MANIFEST);
    if (!bytes) return false;
    const manifest: unknown = JSON.parse(new TextDecoder().decode(bytes));
    const version = (manifest as { version?: unknown } | null)?.version;
    return version === INDEX_VERSION && !isManifest(manifest);
  } catch {
    return true;
  }
}

/** The files left out for sharing an id, by that id. */
function duplicateGroups(invalid: InvalidFile[]): Map<string, string[]> {
  const groups = new Map<string, string[]>();
  for (const { path, duplicateOf } of invalid) {
    if (duplicateOf) groups.set(duplicateOf, [...groups.get(duplicateOf) ?? [], path]);
  }
  return groups;
}
