/**
 * Validation of a change set before anything is written: each entry against the contract and
 * the knowledge base as it will be (ids, links, the kernel budget, credentials), each file
 * against what is on disk (a new file must not exist, an edited one must not have changed or
 * gone since it was read). A change set with any problem is refused whole with
 * {@link ValidationError}.
 *
 * @module
 */
import {
  checkAgainstKb,
  checkEntryFields,
  type Entry,
  formatProblems,
  notSavedBecause,
  parseEntryText,
  type Problem,
  serializeEntry,
  toEntry,
} from "../../core/entry/entry.ts";
import { idFromPath } from "../../core/entry/identity.ts";
import { kernelRuleCost, LIMITS } from "../../core/entry/schema.ts";
import { EXIT, KbError } from "../../core/exit.ts";
import { displaySafe } from "../../core/text/display.ts";
import { HOOK_TRUST_MS, openIndex } from "../index/store.ts";
import { ENTRIES_DIR, readKbFile, UnreadableEntryError } from "../kb.ts";
import { type AttachmentFile, attachmentProblems } from "./attachments.ts";
import { entryPaths } from "./entry_files.ts";
import type { Change } from "./request.ts";
import { attachmentSecretProblems, secretProblems } from "./secrets.ts";

/** Raised when an entry breaks the contract; nothing was written. */
export class ValidationError extends KbError {
  /** Everything wrong with the entry. */
  readonly problems: Problem[];
  /**
   * Problems of `what` (an entry or file), none written; `fix`: what to do (`lead`, ending in a
   * colon) and the commands that do it, after the problems.
   */
  constructor(what: string, problems: Problem[], fix?: { lead: string; commands: string[] }) {
    super(
      `${notSavedBecause(displaySafe(what), problems)}:\n${formatProblems(problems)}` +
        (fix ? `\n${fix.lead}` : ""),
      EXIT.failed,
      fix?.commands,
    );
    this.name = "ValidationError";
    this.problems = problems;
  }
}

/** What {@link validateForSave} checks: an entry, where it goes, and whether it may keep a secret. */
export interface ValidationRequest {
  /** The knowledge base folder. */
  kbDir: string;
  /** The entry to check. */
  entry: Entry;
  /** Path relative to the knowledge base, `entries/<id>-<slug>.md`. */
  path: string;
  /** Keep a credential the entry holds (`--allow-secret`): honoured in a private knowledge base. */
  allowSecret?: boolean;
  /**
   * For a caller that takes no `--allow-secret` (the MCP tools): the command line (quoted) with
   * which the user, not the caller, can keep a credential, named by the refusal instead of
   * running the command again with `--allow-secret`.
   */
  keepSecret?: string;
  /** For a caller that is no shell (the MCP tools): what finds an entry's id, for a bad link. */
  findIds?: string;
}

/**
 * Validate an entry in the context of the knowledge base as it is now, or as `ids` (id → path)
 * says it will be after the rest of a change set. A credential in any field is a problem unless
 * `allowSecret` keeps it in a private knowledge base.
 */
export async function validateForSave(
  request: ValidationRequest,
  ids: ReadonlyMap<string, string> = entryPaths(request.kbDir),
): Promise<Problem[]> {
  const { kbDir, entry, path } = request;
  // Every value is checked as it is, before YAML could quote, trim or split it.
  const problems = checkEntryFields(entry);
  try {
    if (!problems.length) {
      problems.push(...toEntry(parseEntryText(serializeEntry(entry), path)).problems);
    }
  } catch (error) {
    return [{
      field: "frontmatter",
      message: error instanceof Error ? error.message : String(error),
    }];
  }
  problems.push(...checkAgainstKb(entry, { ids, path, findIds: request.findIds }));
  problems.push(...await secretProblems(request));
  const idIsValid = !problems.some((problem) => problem.field === "id");
  const name = path.slice(path.lastIndexOf("/") + 1);
  const inEntries = path.startsWith(`${ENTRIES_DIR}/`) && !path.split("/").includes("..");
  if (idIsValid && (!inEntries || !name.startsWith(`${entry.id}-`))) {
    problems.push({
      field: "id",
      message: `the file ${path} must be named ${ENTRIES_DIR}/${entry.id}-<slug>.md`,
    });
  }
  if (entry.kernel && entry.status === "active") {
    const { reader } = await openIndex(kbDir, { trustStampMs: HOOK_TRUST_MS });
    const others = reader.manifest.kernel.filter((rule) => rule.id !== entry.id);
    const total = others.reduce((sum, rule) => sum + kernelRuleCost(rule), 0) +
      kernelRuleCost(entry);
    if (total > LIMITS.kernelBudgetChars) {
      problems.push({
        field: "kernel",
        message: `kernel rules (headings and bodies) would total ${total} characters, over the ` +
          `${LIMITS.kernelBudgetChars} budget that every prompt pays; shorten the body or ` +
          "make it a normal entry",
      });
    }
  }
  return problems;
}

/** Id → path once the change set is applied: deletions gone, written entries in. */
function idsAfter(kbDir: string, changes: readonly Change[]): Map<string, string> {
  const ids = entryPaths(kbDir);
  for (const { path, entry } of changes) {
    if (!entry) ids.delete(idFromPath(path) ?? "");
  }
  for (const { path, entry } of changes) {
    if (entry && !ids.has(entry.id)) ids.set(entry.id, path);
  }
  return ids;
}

/**
 * Whether `path` names a `.md` file inside `entries/` (in a sub-folder too), one a change set may
 * delete: a hand-written file whose name lacks its id among them.
 */
function isEntryPath(path: string): boolean {
  return path.startsWith(`${ENTRIES_DIR}/`) && path.endsWith(".md") &&
    !path.split("/").includes("..");
}

/** The problems of one change against the file on disk. */
async function problemsOf(
  kbDir: string,
  change: Change,
  ids: ReadonlyMap<string, string>,
  allowSecret: boolean,
): Promise<Problem[]> {
  const { path, entry, previousText } = change;
  const problems: Problem[] = [];
  let current: string | undefined;
  let missing = false;
  try {
    current = readKbFile(kbDir, path);
  } catch (error) {
    if (error instanceof UnreadableEntryError) {
      problems.push({ field: "file", message: `${path} ${error.reason}` });
    } else if (error instanceof Deno.errors.NotFound) missing = true;
    else throw error;
  }
  if (entry) {
    problems.push(...await validateForSave({ kbDir, entry, path, allowSecret }, ids));
    if (previousText === undefined && current !== undefined) {
      problems.push({ field: "id", message: `${path} already exists` });
    }
    // Written back, it would undo a removal (a rm, a sync, a teammate's) without a word.
    if (previousText !== undefined && missing) {
      problems.push({
        field: "file",
        message: `${path} was removed while it was being edited; nothing brings it back unasked`,
        raced: true,
      });
    }
  } else if (!isEntryPath(path)) {
    problems.push({ field: "path", message: `${path} is not an entry file under ${ENTRIES_DIR}/` });
  } else if (current === undefined) {
    problems.push({ field: "path", message: `${path} does not exist` });
  }
  if (previousText !== undefined && current !== undefined && current !== previousText) {
    problems.push({
      field: "body",
      message: `${path} changed on disk while it was being edited; run the command again`,
      raced: true,
    });
  }
  return problems;
}

/**
 * Every problem of a change set, against the files on disk; empty when it can be written. With
 * several changes, each field is prefixed with the entry it belongs to.
 */
async function changeProblems(
  kbDir: string,
  changes: readonly Change[],
  allowSecret: boolean,
): Promise<Problem[]> {
  const ids = idsAfter(kbDir, changes);
  const problems: Problem[] = [];
  const seen = new Set<string>();
  for (const change of changes) {
    const own = await problemsOf(kbDir, change, ids, allowSecret);
    if (seen.has(change.path)) {
      own.push({ field: "path", message: `${change.path} is in the change set twice` });
    }
    seen.add(change.path);
    const label = change.entry?.id ?? idFromPath(change.path) ?? change.path;
    problems.push(
      ...own.map((problem) =>
        changes.length > 1 ? { ...problem, field: `${label} ${problem.field}` } : problem
      ),
    );
  }
  return problems;
}

/**
 * Refuse a change set (and the attachments written with it) that has any problem, with one
 * {@link ValidationError} naming the entry, or every path of the set, and each problem.
 */
export async function assertValid(
  kbDir: string,
  changes: readonly Change[],
  { allowSecret, files }: { allowSecret: boolean; files: readonly AttachmentFile[] },
): Promise<void> {
  const problems = [
    ...await changeProblems(kbDir, changes, allowSecret),
    ...attachmentProblems(kbDir, files),
    ...await attachmentSecretProblems(kbDir, files, allowSecret),
  ];
  if (!problems.length) return;
  const paths = changes.map((change) => change.path);
  const what = changes.length === 1
    ? `Entry ${changes[0].entry?.id ?? idFromPath(paths[0]) ?? paths[0]}`
    : `The change set (${paths.join(", ")})`;
  throw new ValidationError(what, problems);
}
