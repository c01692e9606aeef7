/**
 * `git-kb doctor`'s checks of the entries and the index: the index's freshness, every file the
 * index left out (with the command that fixes it), every entry against the contract, the
 * entries served only through a repair, and the kernel rules' budget and acceptance.
 *
 * @module
 */
import { mentionedIds } from "../../core/entry/mentions.ts";
import { checkAgainstKb, linksToNoEntry, parseEntryText } from "../../core/entry/entry.ts";
import { idFromPath, isEntryId, nameWithId } from "../../core/entry/identity.ts";
import { readEntryForgivingly } from "../../core/entry/repair.ts";
import { displaySafe } from "../../core/text/display.ts";
import type { Finding } from "../../core/setup/finding.ts";
import type { KernelRule } from "../../core/index/format.ts";
import type { IndexReader } from "../../core/index/reader.ts";
import { type AcceptedRules, pendingSummary } from "../../core/kernel/acceptance.ts";
import { join } from "../../core/path.ts";
import { kernelRuleCost, LIMITS } from "../../core/entry/schema.ts";
import { editFileCommand, shellCommand, shellGlob, shellQuote } from "../../core/shell/quote.ts";
import { plural } from "../../core/text/plural.ts";
import { ENTRIES_DIR, NOT_UTF8_MARK, readKbFile } from "../kb.ts";
import { AcceptanceRecordError, pendingMentions, readAcceptedRules } from "../kernel/acceptance.ts";
import { indexFindings as indexHealthFindings } from "../index/health.ts";
import { indexDir } from "../paths.ts";
import { isEmptyDir, lstatOf, pathExists } from "../disk.ts";
import { kbCommand, removeLinksCommand } from "../self_command.ts";
import { type DoctorContext, withFix } from "./context.ts";

/** A command that moves `from` to `to`, or that compares the two when `to` exists already. */
function moveCommand(from: string, to: string): string {
  return pathExists(to)
    ? shellCommand(["diff", "--", from, to])
    : shellCommand(["mv", "--", from, to]);
}

/** Whether the index was up to date, and where it is. */
export async function indexFindings(context: DoctorContext): Promise<Finding[]> {
  const health = await indexHealthFindings(context.kbDir);
  if (health.some((finding) => finding.level !== "ok")) return health;
  const { report } = await context.index();
  const entries = plural(report.docCount, "entry", "entries");
  return [{
    level: "ok",
    check: "index",
    message: report.mode === "fresh"
      ? `up to date: ${entries} at ${indexDir(context.kbDir)}`
      : `was stale (${report.added} added, ${report.changed} changed, ${report.removed} removed); ` +
        `updated in ${Math.round(report.ms)} ms: ${entries}`,
  }];
}

/** The id a file's frontmatter declares, when it can be read and looks like one. */
function declaredId(kbDir: string, path: string): string | undefined {
  try {
    const id = parseEntryText(readKbFile(kbDir, path), path).fields.id;
    return isEntryId(id) ? id : undefined;
  } catch {
    return undefined;
  }
}

/** Whether the folder `path` holds nothing; false when it cannot be listed. */
function emptyFolder(path: string): boolean {
  try {
    return isEmptyDir(path);
  } catch {
    return false;
  }
}

/**
 * The command that fixes a file the index left out: move it where the index reads it (into
 * entries/, to a name ending in `.md` or starting with its id, without a backslash; a file too
 * large to be an entry out of it; a name that is not UTF-8, matched by a pattern, to one that is;
 * a folder named `*.md` without the `.md`, or removed when empty), remove what is not a regular
 * file (a FIFO, a symlink), else open it in the editor. (A note written by hand that names no id
 * is `doctor --fix`'s: see {@link leftOutFindings}.) A file where the entries folder should be
 * came with a commit that took every entry away: the fix shows that commit, whose revert brings
 * them back.
 */
function leftOutFix(kbDir: string, path: string): string {
  if (path === ENTRIES_DIR && lstatOf(join(kbDir, path))?.isFile) {
    return shellCommand(["git", "-C", kbDir, "log", "-1", "--stat", "--", ENTRIES_DIR]);
  }
  // join() reads a backslash as a separator, which would name another file: rename this one.
  if (path.includes("\\")) {
    return moveCommand(`${kbDir}/${path}`, `${kbDir}/${path.replaceAll("\\", "-")}`);
  }
  const full = join(kbDir, path);
  const info = lstatOf(full);
  // A name that is not UTF-8 cannot be written out: matched by a pattern, renamed in UTF-8.
  if (!info && path.includes(NOT_UTF8_MARK)) {
    return `mv -- ${shellQuote(`${kbDir}/`)}${shellGlob(path, NOT_UTF8_MARK)} ` +
      shellQuote(join(kbDir, path.replaceAll(NOT_UTF8_MARK, "-")));
  }
  // A folder named like an entry file: removed when empty (as a submodule is checked out),
  // else renamed so that the entries in it are read.
  if (info?.isDirectory) {
    return emptyFolder(full)
      ? shellCommand(["rmdir", "--", full])
      : moveCommand(full, full.replace(/\.md$/, ""));
  }
  if (!info || !info.isFile) return shellCommand(["rm", "--", full]);
  const name = path.slice(path.lastIndexOf("/") + 1);
  // Too large to be an entry (never read whole): out of entries/, for the user to look at.
  if (info.size > LIMITS.maxEntryFileBytes) return moveCommand(full, join(kbDir, name));
  if (!name.endsWith(".md")) {
    const entryLike = idFromPath(name) !== undefined;
    return moveCommand(full, entryLike ? `${full}.md` : join(kbDir, name));
  }
  const id = declaredId(kbDir, path);
  const inEntries = path.startsWith(`${ENTRIES_DIR}/`) && !path.split("/").includes("..");
  if (id && !name.startsWith(`${id}-`)) {
    const renamed = `${ENTRIES_DIR}/${nameWithId(name, id)}`;
    return moveCommand(full, join(kbDir, renamed));
  }
  if (!inEntries) return moveCommand(full, join(kbDir, ENTRIES_DIR, name));
  return editFileCommand(full);
}

/**
 * The indexed entry file that a file left out for its name copies, when its name starts with that
 * entry's id but does not end in `.md` (`kb-a1b2c-keys.md.mine`, `.orig`, `~`): a version set
 * aside or a backup. Named `.md`, it would be a second entry of the same id.
 */
function copiedEntry(
  path: string,
  ids: ReadonlyMap<string, string>,
): { id: string; path: string } | undefined {
  const id = path.endsWith(".md") ? undefined : idFromPath(path);
  const entry = id === undefined ? undefined : ids.get(id);
  return id === undefined || entry === undefined || entry === path
    ? undefined
    : { id, path: entry };
}

/**
 * Every entry file the index left out, with the index's reason and a fix. A note written by hand
 * that names no id is fixed by `doctor --fix`, which gives it one and writes its frontmatter to
 * the contract in the same rewrite (io/repairs.ts), with the other repairs.
 */
export async function leftOutFindings(context: DoctorContext): Promise<Finding[]> {
  const { reader, report } = await context.index();
  if (!report.invalid.length) return [];
  const ids = indexedIds(reader);
  const given = new Map(
    (await context.repairable()).flatMap((item) => item.newId ? [[item.path, item.newId]] : []),
  );
  const fixAll = kbCommand("doctor", "--fix", "--kb", context.kbDir);
  const total = report.docCount + report.invalid.length;
  return [
    {
      level: "error",
      check: "entries",
      message: `${report.invalid.length} of ${plural(total, "file", "files")} under ` +
        `${ENTRIES_DIR}/ left out of the index, each below`,
    },
    ...report.invalid.map((file): Finding => {
      const leftOut = `${displaySafe(file.path)} is left out of the index: ` +
        file.message.replace(/\n\s*/g, "; ");
      const copied = copiedEntry(file.path, ids);
      const newId = given.get(file.path);
      if (newId !== undefined) {
        return {
          level: "error",
          check: "entries",
          message: withFix(`${leftOut}; doctor --fix gives it the id ${newId}`, fixAll),
        };
      }
      if (!copied) {
        // One of two files with one id: a new name would keep the id; the file gets a new one.
        const fix = file.duplicateOf
          ? editFileCommand(join(context.kbDir, file.path))
          : leftOutFix(context.kbDir, file.path);
        return { level: "error", check: "entries", message: withFix(leftOut, fix) };
      }
      const keep = kbCommand("edit", copied.id, "--kb", context.kbDir);
      return {
        level: "error",
        check: "entries",
        message: withFix(
          `${leftOut}; it copies the entry ${copied.id} (a version set aside, or a backup): keep ` +
            `what you want of it in the entry (${keep}), then delete the copy`,
          shellCommand([
            "diff",
            "--",
            join(context.kbDir, copied.path),
            join(context.kbDir, file.path),
          ]),
        ),
      };
    }),
  ];
}

/** The id → path of every entry in the index. */
function indexedIds(reader: IndexReader): Map<string, string> {
  const ids = new Map<string, string>();
  for (const [path, [ord]] of reader.files()) {
    const doc = ord >= 0 ? reader.doc(ord) : undefined;
    if (doc) ids.set(doc.id, path);
  }
  return ids;
}

/** Every indexed entry against the rules that need the rest of the knowledge base (links). */
export async function contractFindings(context: DoctorContext): Promise<Finding[]> {
  const { reader, report } = await context.index();
  const ids = indexedIds(reader);
  const findings: Finding[] = [];
  let sound = 0;
  for (const path of [...ids.values()].sort()) {
    let missing: string[] = [];
    // The `edit` that takes out a link to no entry, by the field a problem names it with.
    const unlink = new Map<string, string>();
    const problems = (() => {
      try {
        const { entry, problems } = readEntryForgivingly(readKbFile(context.kbDir, path), {
          path,
          fallbackDate: () => "1970-01-01",
        });
        if (!entry) return problems;
        missing = mentionedIds(entry.body).filter((id) => !ids.has(id));
        for (const [field, to] of linksToNoEntry(entry, ids)) {
          unlink.set(field, removeLinksCommand(entry.id, [to], ["--kb", context.kbDir]));
        }
        return checkAgainstKb(entry, { ids, path });
      } catch (error) {
        return [{ field: "file", message: error instanceof Error ? error.message : String(error) }];
      }
    })();
    if (!problems.length) sound++;
    if (missing.length) {
      // Plain text to the contract, so a warning: the reader of the entry meets a dead end.
      findings.push({
        level: "warn",
        check: "entries",
        message: withFix(
          `${path}: its body mentions ${missing.map((id) => `[[${id}]]`).join(", ")}, which no ` +
            "entry has",
          editFileCommand(join(context.kbDir, path)),
        ),
      });
    }
    for (const problem of problems) {
      findings.push({
        level: "error",
        check: "entries",
        message: withFix(
          `${path}: ${problem.field}: ${problem.message}`,
          unlink.get(problem.field) ?? editFileCommand(join(context.kbDir, path)),
        ),
      });
    }
  }
  const broken = ids.size - sound;
  if (broken) {
    findings.unshift({
      level: "error",
      check: "entries",
      message: `${plural(broken, "indexed entry breaks", "indexed entries break")} the ` +
        `contract (of ${ids.size}), each below`,
    });
  } else if (ids.size || !report.invalid.length) {
    findings.push({
      level: "ok",
      check: "entries",
      message: ids.size
        ? `${plural(ids.size, "indexed entry follows", "indexed entries follow")} the contract`
        : "no entries yet",
    });
  }
  return findings;
}

/**
 * Entry files read only forgivingly, each with what was read: served so, unless the index leaves
 * them out for another reason (two files with one id), which its own finding names.
 */
export async function repairFindings(context: DoctorContext): Promise<Finding[]> {
  const repairable = await context.repairable();
  if (!repairable.length) return [];
  const leftOut = new Set((await context.index()).report.invalid.map((file) => file.path));
  const served = repairable.filter((item) => !leftOut.has(item.path)).length;
  const read = served === repairable.length
    ? `${plural(served, "entry is", "entries are")} served as read forgivingly, not as written`
    : `${plural(repairable.length, "entry file is", "entry files are")} read forgivingly, not as ` +
      `written (${repairable.length - served} of them left out of the index, each named there)`;
  return [
    {
      level: "warn",
      check: "entries",
      message: withFix(
        `${read}; doctor --fix shows the rewrite to the contract`,
        kbCommand("doctor", "--fix", "--kb", context.kbDir),
      ),
    },
    ...repairable.map((item): Finding => ({
      level: "warn",
      check: "entries",
      message: `${displaySafe(item.path)}: ${
        item.repairs.map((repair) => `${repair.field} ${repair.message}`).join("; ")
      }`,
    })),
  ];
}

/** The kernel rules against the budget the prompt hook inlines them in. */
export async function kernelFindings(context: DoctorContext): Promise<Finding[]> {
  const { kernel } = (await context.index()).reader.manifest;
  const chars = kernel.reduce((sum, rule) => sum + kernelRuleCost(rule), 0);
  const findings: Finding[] = [{
    level: chars > LIMITS.kernelBudgetChars ? "error" : "ok",
    check: "kernel",
    message: `${plural(kernel.length, "kernel rule", "kernel rules")}, ${chars} of ` +
      `${LIMITS.kernelBudgetChars} characters`,
  }];
  for (const rule of kernel) {
    if (kernelRuleCost(rule) > LIMITS.kernelBudgetChars) {
      findings.push({
        level: "warn",
        check: "kernel",
        message: withFix(
          `${rule.id} alone is over the budget; the prompt hook lists it as a pointer instead`,
          kbCommand("edit", rule.id, "--no-kernel", "--kb", context.kbDir),
        ),
      });
    }
  }
  return [...findings, ...acceptanceFindings(context.kbDir, kernel)];
}

/** The kernel rules waiting for this user's acceptance, which apply to no prompt until then. */
function acceptanceFindings(kbDir: string, kernel: readonly KernelRule[]): Finding[] {
  const review = kbCommand("kernel", "--kb", kbDir);
  let accepted: AcceptedRules;
  try {
    accepted = readAcceptedRules();
  } catch (error) {
    if (!(error instanceof AcceptanceRecordError)) throw error;
    return [{ level: "error", check: "kernel", message: error.message }];
  }
  const pending = pendingMentions(kernel, undefined, accepted);
  if (!pending.length) return [];
  return [{ level: "warn", check: "kernel", message: withFix(pendingSummary(pending), review) }];
}
