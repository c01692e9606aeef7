/**
 * The save pipeline every write goes through, step by step: under the save lock, check that the
 * repo is on its branch with nothing under way, validate against the contract
 * (io/save/validate.ts), write the files atomically and `git commit` them in one commit
 * (io/save/commit.ts), push when there is a remote, bringing in what the remote gained first when
 * it moved (io/save/publish.ts), and bring the index up to date. A refused or invalid save
 * writes and commits nothing.
 *
 * @module
 */
import { EXIT, KbError } from "../../core/exit.ts";
import { commitIdentity, fallbackIdentityWarning, gitOk, networkTimeoutMs } from "../git.ts";
import { indexAfterWrite } from "../index/after_write.ts";
import { readEntryForgivingly } from "../../core/entry/repair.ts";
import type { Entry } from "../../core/entry/entry.ts";
import { acceptKernelRules, waitsForAcceptance } from "../kernel/acceptance.ts";
import { pushTarget } from "../remote/target.ts";
import { kbCommand } from "../self_command.ts";
import type { AttachmentFile } from "./attachments.ts";
import { commitChanges } from "./commit.ts";
import { withLock } from "./lock.ts";
import { publish, PushError } from "./publish.ts";
import { findOrphans, orphansMessage, readyBranch, saveLockPath } from "./repo_state.ts";
import type {
  Change,
  ChangesRequest,
  ChangesResult,
  PushOutcome,
  SaveRequest,
  SaveResult,
} from "./request.ts";
import { keptSecretWarnings } from "./secrets.ts";
import { assertValid } from "./validate.ts";

/**
 * Raised before anything is written when the repo is in a state a save must not touch (a
 * detached HEAD, an operation under way, conflicts, git's lock files): one line saying so, then
 * the commands that get out of it. Exit code 1.
 */
export class SaveRefusedError extends KbError {
  /** `reason` says what stands in the way; `commands` get out of it. */
  constructor(reason: string, commands: readonly string[] = []) {
    super(`${reason}; nothing was written.`, EXIT.failed, commands);
    this.name = "SaveRefusedError";
  }
}

/** How long a save waits for another save's lock. */
const SAVE_LOCK_WAIT_MS = 120_000;

/** What a save committed, as far as it got under the lock. */
type Committed = Omit<ChangesResult, "index">;

/**
 * Push `commit` of `paths` on `branch` when there is a remote. When it cannot be pushed, the
 * {@link PushError} also says how the index was brought up to date (the commit stands, so the
 * index must show it) and carries `warnings`.
 */
async function publishCommit(
  kbDir: string,
  branch: string,
  { paths, commit, warnings }: Omit<Committed, "push">,
  timeoutMs: number,
): Promise<Committed> {
  const target = await pushTarget(kbDir, branch);
  if (!target) return { paths, commit, push: "NO_REMOTE", warnings };
  const what = paths.length === 1 ? paths[0] : `${paths.length} files`;
  try {
    const push = await publish({ kbDir, what, commit, target }, branch, timeoutMs);
    return { paths, commit: (await gitOk(kbDir, ["rev-parse", "HEAD"])).trim(), push, warnings };
  } catch (error) {
    if (!(error instanceof PushError)) throw error;
    const { warning } = await indexAfterWrite(kbDir);
    if (warning) warnings.push(warning);
    error.message += warnings.map((warning) => `\nwarning: ${warning}`).join("");
    throw error;
  }
}

/**
 * The pipeline for `changes` committed with `message`: under the save lock, refuse a repo off
 * its branch, note orphans, validate, commit, push; then reindex (also after a commit that could
 * not be pushed).
 */
async function runSave(
  kbDir: string,
  { message, changes }: { message: string; changes: readonly Change[] },
  { timeoutMs, allowSecret, files = [], push }: {
    timeoutMs: number;
    allowSecret: boolean;
    files?: readonly AttachmentFile[];
    push: boolean;
  },
): Promise<ChangesResult> {
  const done = await withLock(await saveLockPath(kbDir), async (): Promise<Committed> => {
    const branch = await readyBranch(
      kbDir,
      ({ reason, commands }) => new SaveRefusedError(reason, commands),
    );
    const paths = changes.map((change) => change.path);
    const warnings: string[] = [];
    const orphans = (await findOrphans(kbDir)).filter(({ path }) => !paths.includes(path));
    if (orphans.length) warnings.push(await orphansMessage(kbDir, orphans));
    await assertValid(kbDir, changes, { allowSecret, files });
    const identity = await commitIdentity(kbDir);
    const commit = changes.length || files.length
      ? await commitChanges(kbDir, changes, message, files)
      : "";
    if (!commit) return { paths, commit, push: "NO_REMOTE" as PushOutcome, warnings };
    if (allowSecret) warnings.push(...keptSecretWarnings(changes, files));
    if (identity.fallback) warnings.push(fallbackIdentityWarning());
    if (!push) {
      const held: PushOutcome = await pushTarget(kbDir, branch) ? "held" : "NO_REMOTE";
      return { paths, commit, push: held, warnings };
    }
    return await publishCommit(kbDir, branch, { paths, commit, warnings }, timeoutMs);
  }, { timeoutMs: SAVE_LOCK_WAIT_MS });
  const { report, warning } = await indexAfterWrite(kbDir);
  return {
    ...done,
    index: report,
    warnings: warning ? [...done.warnings, warning] : done.warnings,
  };
}

/**
 * Validate, write, commit, push and reindex a change set in ONE commit, holding the knowledge
 * base's save lock throughout, so concurrent saves (other processes included) line up.
 * Throws {@link SaveRefusedError} or a `ValidationError` before touching anything,
 * {@link PushError} after the commit.
 */
export function saveChanges(request: ChangesRequest): Promise<ChangesResult> {
  const { kbDir, message, changes } = request;
  return runSave(kbDir, { message, changes }, {
    timeoutMs: request.networkTimeoutMs ?? networkTimeoutMs(),
    allowSecret: request.allowSecret === true,
    files: request.files,
    push: request.push !== false,
  });
}

/**
 * Push the commits of saves made with `push: false` (`paths`: the files they wrote, for the
 * messages), once for them all, as a save pushes its own: under the save lock, rebased onto the
 * remote when it moved, then the index brought up to date (a rebase brings others' commits).
 * Throws {@link SaveRefusedError} when the repo is off its branch, {@link PushError} when the
 * commits stay unpushed (they stand). Returns what the push did and the warnings.
 */
export async function pushSaved(
  kbDir: string,
  paths: readonly string[],
): Promise<Pick<ChangesResult, "push" | "warnings">> {
  const pushed = await withLock(await saveLockPath(kbDir), async () => {
    const branch = await readyBranch(
      kbDir,
      ({ reason, commands }) => new SaveRefusedError(reason, commands),
    );
    const commit = (await gitOk(kbDir, ["rev-parse", "HEAD"])).trim();
    return await publishCommit(
      kbDir,
      branch,
      { paths: [...paths], commit, warnings: [] },
      networkTimeoutMs(),
    );
  }, { timeoutMs: SAVE_LOCK_WAIT_MS });
  const { warning } = await indexAfterWrite(kbDir);
  const { push, warnings } = pushed;
  return { push, warnings: warning ? [...warnings, warning] : warnings };
}

/**
 * Whether saving `entry` over `previousText` (none: a new entry) is this user's word on the rule's
 * body: a new entry is, and so is an edit of one that was no kernel rule in force (the user makes
 * it one), of a rule this user had accepted as it read, or one that gives the rule another body.
 * An edit of a rule waiting for acceptance (a teammate's) that leaves its body as it was (a tag, a
 * title, a link) is not: its body may be words the user never read.
 */
function ownsRuleBody(entry: Entry, previousText: string | undefined, path: string): boolean {
  if (previousText === undefined) return true;
  const before = readEntryForgivingly(previousText, { path, fallbackDate: () => "" }).entry;
  return !before || !waitsForAcceptance(before) || before.body.trim() !== entry.body.trim();
}

/**
 * Record an active kernel rule this user just saved as accepted on this machine: it is theirs, so
 * it applies at once (see io/kernel/acceptance.ts), unless its body is not their word
 * ({@link ownsRuleBody}). Returns a warning when it was not accepted; the save itself stands.
 */
async function acceptSavedRule(
  { entry, othersWords, previousText, path }: Pick<
    SaveRequest,
    "entry" | "othersWords" | "previousText" | "path"
  >,
): Promise<string | undefined> {
  if (othersWords || !entry.kernel || entry.status !== "active") return undefined;
  if (!ownsRuleBody(entry, previousText, path)) {
    return `${entry.id} is a kernel rule that waits for your acceptance: this edit left its body ` +
      `as it was, which you have not accepted; read it, and accept it there: ${
        kbCommand("kernel")
      }`;
  }
  try {
    await acceptKernelRules([entry]);
    return undefined;
  } catch (error) {
    return `${entry.id} was saved, but could not be recorded as a kernel rule you accepted ` +
      `(${error instanceof Error ? error.message : String(error)}), so it does not apply yet; ` +
      `accept it: ${kbCommand("kernel", "--accept", entry.id)}`;
  }
}

/**
 * {@link saveChanges} of one entry: a new file, or an edit of `previousText`. The command that
 * saves it (add, edit, promote) is this user's own doing: a kernel rule saved is accepted,
 * unless the request says the words are someone else's (`othersWords`).
 */
export async function saveEntry(request: SaveRequest): Promise<SaveResult> {
  const { entry, path, previousText, othersWords: _othersWords, ...rest } = request;
  let saved: ChangesResult;
  try {
    saved = await saveChanges({ ...rest, changes: [{ path, entry, previousText }] });
  } catch (error) {
    // Committed, not pushed: the rule is saved all the same.
    if (error instanceof PushError) {
      const warning = await acceptSavedRule(request);
      if (warning) error.message += `\nwarning: ${warning}`;
    }
    throw error;
  }
  const warning = await acceptSavedRule(request);
  const { paths: _, ...result } = saved;
  if (warning) result.warnings.push(warning);
  return { id: entry.id, path, ...result };
}
