/**
 * `syncKb`: bring one knowledge base in step with its remote. Under the save lock, it fetches the
 * branch (bounded), replays the local commits onto what came in (`git merge-tree`, no work tree
 * touched until the end, when `git reset --keep` moves the branch and keeps every uncommitted
 * change), pushes, and brings the index up to date; the report names the entries that came in
 * and went out. It changes nothing when the remote cannot be reached, when an uncommitted change
 * sits in a file the remote changed, when a file the ignore rules keep out of git sits where the
 * remote has one (git would overwrite it), and when both sides changed an entry each in its own
 * way (the conflict is named with the commands that finish it).
 *
 * @module
 */
import { displaySafe } from "../../core/text/display.ts";
import { EXIT, KbError } from "../../core/exit.ts";
import { LIMITS } from "../../core/entry/schema.ts";
import { editFileCommand, gitCommand } from "../../core/shell/quote.ts";
import {
  classifyChanges,
  describeEntry,
  type EntryChanges,
  entryLabel,
  parseNameStatus,
  type SyncedEntry,
} from "../../core/sync/changes.ts";
import {
  commitIdentity,
  fallbackIdentityWarning,
  git,
  gitOk,
  gitReason,
  keepEntriesAsWritten,
  networkTimeoutMs,
  pastedIdentityArgs,
  remoteBranchName,
  replayOnto,
} from "../git.ts";
import type { RefreshReport } from "../index/store.ts";
import { indexAfterWrite } from "../index/after_write.ts";
import { ENTRIES_DIR, readKbFile } from "../kb.ts";
import { fetchBranch } from "../remote/fetch.ts";
import { goneBranchRefusal } from "../remote/gone.ts";
import {
  ignoredInTheWayOf,
  ignoredRefusalFor,
  movedPaths,
  workTreeStatus,
} from "../remote/ignored.ts";
import { markerRefusal } from "../remote/markers.ts";
import { moveBranchFiles } from "../remote/move.ts";
import { PUSH_ATTEMPTS, pushBranch } from "../remote/push.ts";
import { republishRefusal } from "../remote/rewritten.ts";
import { type PushTarget, pushTarget, syncCommand } from "../remote/target.ts";
import { type ProposalsTraffic, syncProposals } from "../proposals/sync.ts";
import { readProposals } from "../proposals/store.ts";
import { withLock } from "../save/lock.ts";
import { gitDir, readyBranch, saveLockPath, uncommittedEntryChanges } from "../save/repo_state.ts";
import { writeRefusal } from "../fs.ts";

/** How to run a sync. */
export interface SyncOptions {
  /** Bound of each git call that reaches the remote, in ms; `networkTimeoutMs()` (45 s) by default. */
  networkTimeoutMs?: number;
  /**
   * Push commits the remote had and dropped by a rewrite of its history (see
   * io/remote/rewritten.ts): the user's consent, `sync --force-republish`. Refused otherwise.
   */
  forceRepublish?: boolean;
}

/** Commits, and the entries they added, changed and removed. */
export interface EntryTraffic {
  /** How many commits. */
  commits: number;
  added: SyncedEntry[];
  changed: SyncedEntry[];
  removed: SyncedEntry[];
}

/** What came in from the remote: commits this clone lacked, and what they did to entries. */
export type Incoming = EntryTraffic;

/** What went out to the remote: the commits pushed, and what they did to entries. */
export type Outgoing = EntryTraffic;

/** What a sync did. */
export interface SyncReport {
  /** The knowledge base folder. */
  kbDir: string;
  /**
   * `synced`: commits of the branch came in or went out; `up-to-date`: none had to; `no-remote`:
   * the repo has no remote, so nothing to sync with. The proposals branch is in `proposals`.
   */
  outcome: "synced" | "up-to-date" | "no-remote";
  /** The local branch. */
  branch: string;
  /** The remote branch, `origin/main`; undefined without a remote. */
  upstream?: string;
  incoming: Incoming;
  outgoing: Outgoing;
  /** Whether local commits were replayed onto the remote's (a rebase). */
  rebased: boolean;
  /**
   * What bringing the index up to date did; undefined when that failed (what the sync did
   * stands: a warning says why and how to rebuild the index).
   */
  index?: RefreshReport;
  /**
   * Which way the proposals branch (`git-kb review`'s queue) moved, neither way without a remote;
   * `pending`, how many proposals wait for a review once it moved (absent when it did not, or the
   * branch could not be read); `notPushed`, why proposals or reviews made here did not go out, when
   * they did not, and `wayOut`, the commands that finish when a sync is not it (see
   * io/proposals/sync.ts `ProposalsPushError`).
   */
  proposals: ProposalsTraffic & { pending?: number; notPushed?: string; wayOut?: string[] };
  /** One line each: what the user should know although the sync worked. */
  warnings: string[];
}

/**
 * Raised when the sync cannot start or go on without risking what the user has: a repo in a
 * state a save refuses, uncommitted changes in files the remote changed, ignored files where the
 * remote has files, merge commits to rewrite. Nothing was changed. Exit code 1.
 */
export class SyncRefusedError extends KbError {
  /** `reason` says what stands in the way; `commands` get out of it. */
  constructor(reason: string, commands: readonly string[] = []) {
    super(`${reason}; nothing was changed.`, EXIT.failed, commands);
    this.name = "SyncRefusedError";
  }
}

/** Raised when the remote cannot be reached (or did not answer in time); nothing was changed. */
export class SyncOfflineError extends KbError {
  /** `remote` of `kbDir` could not be reached because of `cause`. */
  constructor(kbDir: string, remote: string, cause: string) {
    super(
      `cannot reach ${remote}: ${cause}. Nothing was changed (HEAD, files and index are as ` +
        `they were). Check the network and the remote's address (${
          gitCommand(kbDir, "remote", "-v")
        }), then sync again:`,
      EXIT.failed,
      [syncCommand(kbDir)],
    );
    this.name = "SyncOfflineError";
  }
}

/**
 * Raised when both sides changed the same entries, each in its own way. Nothing was changed: the
 * local version is in the work tree, the remote's is kept under {@link THEIRS_REF}, and the
 * commands merge the two, open each file to keep what is wanted of both, commit and sync.
 * Exit code 4.
 */
export class SyncConflictError extends KbError {
  /** The entries both sides changed. */
  readonly entries: SyncedEntry[];
  /** `message` names the entries and where both versions are; `commands` finish the sync. */
  constructor(message: string, entries: SyncedEntry[], commands: readonly string[]) {
    super(message, EXIT.conflict, commands);
    this.name = "SyncConflictError";
    this.entries = entries;
  }
}

/**
 * Raised when what came in was brought in but the local commits could not be pushed: they are
 * kept, and syncing again (or the push printed) finishes. Exit code 3, as a save's.
 */
export class SyncPushError extends KbError {
  /** `commits` of `kbDir` are not pushed because of `cause`. */
  constructor(kbDir: string, commits: number, cause: string) {
    super(
      `${commits === 1 ? "1 local commit is" : `${commits} local commits are`} not pushed: ` +
        `${cause}. What came in is in; the commits are kept. To finish, run:`,
      EXIT.notPushed,
      [syncCommand(kbDir)],
    );
    this.name = "SyncPushError";
  }
}

/** Where the remote's side of a conflict is kept until the next conflict. */
export const THEIRS_REF = "refs/git-kb/sync-theirs";

/**
 * Fetch the remote branch into its tracking ref: its tip, or undefined when the remote has no
 * such branch yet (an empty remote). Throws {@link SyncOfflineError} when it cannot be reached,
 * a {@link KbError} naming the disk when what it sent found no room there, and
 * {@link SyncRefusedError} when it no longer has the branch `branch` was fetched from.
 */
async function fetchTip(
  kbDir: string,
  target: PushTarget,
  { branch, timeoutMs }: { branch: string; timeoutMs: number },
): Promise<string | undefined> {
  const fetched = await fetchBranch(kbDir, target, timeoutMs);
  // The remote answered: what it sent could not be written here (no room, or a folder of git's
  // that takes no write), which no network or address explains.
  const refusal = fetched.state === "failed" && writeRefusal(await gitDir(kbDir), fetched.reason);
  if (refusal) {
    throw new KbError(`${refusal.reason}:`, EXIT.failed, [...refusal.commands, syncCommand(kbDir)]);
  }
  if (fetched.state === "failed") throw new SyncOfflineError(kbDir, target.remote, fetched.reason);
  if (fetched.state === "gone") {
    const { reason, commands } = await goneBranchRefusal(kbDir, target, branch, timeoutMs);
    throw new SyncRefusedError(reason, commands);
  }
  return fetched.tip;
}

/**
 * Move the branch from `from` to `to` (its replayed or fast-forwarded tip). Refuses, changing
 * nothing, when an uncommitted change sits in a file the move would change (`git reset --keep`
 * keeps every other one), and when a file the ignore rules keep out of git sits where the move
 * writes one (git would overwrite it). The entries it checks out are the committed bytes,
 * whatever a `.gitattributes` that came in asks.
 */
async function moveBranch(kbDir: string, from: string, to: string, remote: string) {
  const touched = await movedPaths(kbDir, from, to);
  const status = await workTreeStatus(kbDir, touched);
  const blocked = touched.filter((path) => status.uncommitted.has(path)).sort();
  if (blocked.length) {
    const identity = await pastedIdentityArgs(kbDir);
    const named = blocked.map(displaySafe).join(", ");
    throw new SyncRefusedError(
      `uncommitted changes to ${named}, which ${remote} changed too, stand in the ` +
        "way of what comes in; commit them (a sync then merges them, or names the conflict), " +
        "and sync",
      [
        gitCommand(kbDir, "add", "--", ...blocked),
        gitCommand(kbDir, ...identity, "commit", "-m", "kb: commit hand edits", "--", ...blocked),
        syncCommand(kbDir),
      ],
    );
  }
  const ignored = await ignoredRefusalFor(kbDir, touched, status, remote);
  if (ignored) throw new SyncRefusedError(ignored.reason, ignored.commands);
  await keepEntriesAsWritten(kbDir);
  const moved = await moveBranchFiles(kbDir, { from, to }, ["reset", "--quiet", "--keep", to]);
  if (moved.code !== 0) {
    throw new SyncRefusedError(
      `git could not write the files that came in from ${remote} (${gitReason(moved.stderr)}), ` +
        "as on a full disk or in a folder it may not write; those it had begun to write are put " +
        "back as they were; make room or fix the folder, then sync",
      [syncCommand(kbDir)],
    );
  }
}

/** The entry files changed between two commits, by what happened to them. */
async function entryChanges(kbDir: string, from: string, to: string) {
  const diff = await gitOk(kbDir, [
    "diff",
    "--name-status",
    "--no-renames",
    "-z",
    from,
    to,
    "--",
    ENTRIES_DIR,
  ]);
  return classifyChanges(parseNameStatus(diff));
}

/** Every entry file in commit `rev`, as added: what a first push to an empty remote sends. */
async function allEntries(kbDir: string, rev: string): Promise<EntryChanges> {
  const files = await gitOk(kbDir, ["ls-tree", "-r", "-z", "--name-only", rev, "--", ENTRIES_DIR]);
  return classifyChanges(
    files.split("\0").filter(Boolean).map((path) => ({ status: "A", path })),
  );
}

/**
 * The entry at `path` as a sync names it: from the file, else as it was in commit `rev`, else
 * from its path alone (an entry file too large to be one is never read whole).
 */
async function describe(kbDir: string, path: string, rev: string): Promise<SyncedEntry> {
  try {
    return describeEntry(readKbFile(kbDir, path), path);
  } catch { /* gone from the work tree, or not readable as an entry */ }
  const size = await git(kbDir, ["cat-file", "-s", `${rev}:${path}`]);
  if (size.code !== 0 || Number(size.stdout.trim()) > LIMITS.maxEntryFileBytes) {
    return describeEntry("", path);
  }
  const shown = await git(kbDir, ["show", `${rev}:${path}`]);
  return describeEntry(shown.code === 0 ? shown.stdout : "", path);
}

/** {@link describe} of each path, one at a time (a mass removal must not start a git per file at once). */
async function describeAll(kbDir: string, paths: string[], rev: string): Promise<SyncedEntry[]> {
  const entries: SyncedEntry[] = [];
  for (const path of paths) entries.push(await describe(kbDir, path, rev));
  return entries;
}

/** How many commits `to` has that `from` lacks. */
async function countCommits(kbDir: string, from: string | undefined, to: string) {
  const range = from ? [`${from}..${to}`] : [to];
  return Number((await gitOk(kbDir, ["rev-list", "--count", ...range])).trim());
}

/**
 * The merge of `ref` (what came from `upstream`) a refusal prints, committing as `identity` says:
 * one that would write over a file the ignore rules keep out of git stops instead, naming it.
 */
function mergeCommand(kbDir: string, identity: string[], upstream: string, ref: string): string {
  const message = `kb: sync with ${upstream}`;
  return gitCommand(kbDir, ...identity, "merge", "--no-overwrite-ignore", "-m", message, ref);
}

/** The conflict both sides' changes to `paths` make, named, with the commands that finish it. */
async function conflictError(
  kbDir: string,
  target: PushTarget,
  theirs: string,
  paths: string[],
): Promise<SyncConflictError> {
  await gitOk(kbDir, ["update-ref", THEIRS_REF, theirs]);
  const entries = await describeAll(kbDir, paths, theirs);
  const identity = await pastedIdentityArgs(kbDir);
  const upstream = remoteBranchName(target.tracking);
  const shows = paths.map((path) => gitCommand(kbDir, "show", `${THEIRS_REF}:${path}`)).join(", ");
  const message = `${upstream} and this clone both changed ` +
    `${entries.map((entry) => `${entryLabel(entry)} (${displaySafe(entry.path)})`).join(", ")}, ` +
    `each in its own way. Nothing was changed: your version is in the files, ${upstream}'s is ` +
    `kept in ${THEIRS_REF} (${shows}). To finish, merge it (the merge stops at the ` +
    "conflict), keep what you want of both versions in each file (and remove the <<<<<<<, " +
    "======= and >>>>>>> lines), commit, and sync:";
  const commands = [
    mergeCommand(kbDir, identity, upstream, THEIRS_REF),
    ...paths.map((path) => editFileCommand(`${kbDir}/${path}`)),
    gitCommand(kbDir, "add", "--", ...paths),
    gitCommand(kbDir, ...identity, "commit", "--no-edit"),
    syncCommand(kbDir),
  ];
  return new SyncConflictError(message, entries, commands);
}

/**
 * Bring the branch, at `head`, in step with `theirs` (the fetched remote tip), `base` being the
 * newest commit they share: fast-forward when it has no commits of its own, else replay them on
 * top. Returns whether it replayed.
 */
async function integrate(
  kbDir: string,
  target: PushTarget,
  { head, theirs, base }: { head: string; theirs: string; base: string },
): Promise<boolean> {
  if (base === theirs) return false;
  if (base === head) {
    await moveBranch(kbDir, head, theirs, target.remote);
    return false;
  }
  const replay = await replayOnto(kbDir, theirs, head);
  if (replay.outcome !== "replayed") {
    // The merge the refusal prints would write the remote's files as well: clear the way first.
    const ignored = await ignoredInTheWayOf(kbDir, {
      from: head,
      to: theirs,
      remote: target.remote,
    });
    if (ignored) throw new SyncRefusedError(ignored.reason, ignored.commands);
  }
  if (replay.outcome === "conflict") throw await conflictError(kbDir, target, theirs, replay.paths);
  if (replay.outcome === "merges") {
    const identity = await pastedIdentityArgs(kbDir);
    const upstream = remoteBranchName(target.tracking);
    throw new SyncRefusedError(
      `this clone and ${upstream} have diverged and the local commits hold a merge commit, ` +
        `which a sync does not rewrite; merge ${upstream} and sync`,
      [
        mergeCommand(kbDir, identity, upstream, upstream),
        syncCommand(kbDir),
      ],
    );
  }
  await moveBranch(kbDir, head, replay.tip, target.remote);
  return true;
}

/**
 * Refuse to push conflict markers, before anything moves: the entry files the local commits
 * (those of `head` since `base`, the commit it shares with the fetched remote tip; all of them
 * when the remote has no branch) add or change that still hold them at `head`. Replaying those
 * commits onto the remote's adds none (a replay that would stops as a conflict).
 */
async function assertNoMarkers(
  kbDir: string,
  { head, base }: { head: string; base: string | undefined },
): Promise<void> {
  const local = base ? await entryChanges(kbDir, base, head) : await allEntries(kbDir, head);
  const refusal = await markerRefusal(kbDir, head, [...local.added, ...local.changed]);
  if (refusal) throw new SyncRefusedError(refusal.reason, refusal.commands);
}

/**
 * Refuse, having pushed nothing, when `branch`, at `head`, holds commits the remote had and
 * dropped by a rewrite of its history since (see io/remote/rewritten.ts).
 */
async function assertNotRewritten(
  kbDir: string,
  target: PushTarget,
  { branch, head, theirs }: { branch: string; head: string; theirs: string | undefined },
): Promise<void> {
  const refusal = await republishRefusal(kbDir, {
    tracking: target.tracking,
    branch,
    head,
    theirs,
  });
  if (refusal) throw new SyncRefusedError(refusal.reason, refusal.commands);
}

/** What the sync did, without the index: the part done under the lock. */
type Moved = Omit<SyncReport, "index">;

/** Nothing came in, or nothing went out. */
const NOTHING: EntryTraffic = { commits: 0, added: [], changed: [], removed: [] };

/** Where the sync ended: the commits that frame what came in and what went out. */
interface Ends {
  /** HEAD before the sync. */
  start: string;
  /** The remote's tip as fetched; undefined when the remote has no such branch. */
  theirs?: string;
  /** HEAD after the sync (pushed). */
  head: string;
  /** The entry files the pushed commits changed. */
  sent: EntryChanges;
  /** How many commits were pushed. */
  pushed: number;
}

/** What came in and what went out between the {@link Ends}, by entry. */
async function traffic(
  kbDir: string,
  ends: Ends,
): Promise<{ incoming: Incoming; outgoing: Outgoing }> {
  const { start, theirs, head, sent, pushed } = ends;
  const outgoing = {
    commits: pushed,
    added: await describeAll(kbDir, sent.added, head),
    changed: await describeAll(kbDir, sent.changed, head),
    removed: await describeAll(kbDir, sent.removed, theirs ?? head),
  };
  if (!theirs) return { incoming: NOTHING, outgoing };
  const since = await beforeOwnMerges(kbDir, start, theirs);
  const came = await entryChanges(kbDir, await mergeBase(kbDir, since, theirs), theirs);
  const incoming = {
    commits: await countCommits(kbDir, since, theirs),
    added: await describeAll(kbDir, came.added, theirs),
    changed: await describeAll(kbDir, came.changed, theirs),
    removed: await describeAll(kbDir, came.removed, since),
  };
  return { incoming, outgoing };
}

/**
 * Where the branch stood before it took in the remote's commits through merges of its own, as
 * a conflict's printed steps make one: the first parent of the oldest commit on the first-parent
 * line of `start` that `theirs` (the remote's tip) does not hold, when that line holds a merge;
 * else `start`. What came in is counted from there: the sync that follows such a merge names the
 * remote's commits it brought in, which are no longer new to `start`.
 */
async function beforeOwnMerges(kbDir: string, start: string, theirs: string): Promise<string> {
  const line =
    (await gitOk(kbDir, ["rev-list", "--first-parent", "--parents", start, `^${theirs}`]))
      .split("\n").filter(Boolean).map((row) => row.split(" "));
  if (!line.some((commit) => commit.length > 2)) return start;
  return line.at(-1)![1] ?? start;
}

/** The sync itself, under the save lock. */
async function syncLocked(
  kbDir: string,
  timeoutMs: number,
  forceRepublish: boolean,
): Promise<Moved> {
  const branch = await readyBranch(
    kbDir,
    ({ reason, commands }) => new SyncRefusedError(reason, commands),
  );
  const target = await pushTarget(kbDir, branch);
  if (!target) {
    return {
      kbDir,
      outcome: "no-remote",
      branch,
      incoming: NOTHING,
      outgoing: NOTHING,
      rebased: false,
      proposals: { cameIn: false, wentOut: false },
      warnings: [],
    };
  }
  const start = (await gitOk(kbDir, ["rev-parse", "HEAD"])).trim();
  let rebased = false;
  for (let attempt = 1;; attempt++) {
    const theirs = await fetchTip(kbDir, target, { branch, timeoutMs });
    const before = (await gitOk(kbDir, ["rev-parse", "HEAD"])).trim();
    if (!forceRepublish) {
      await assertNotRewritten(kbDir, target, { branch, head: before, theirs });
    }
    const base = theirs ? await mergeBase(kbDir, before, theirs) : undefined;
    await assertNoMarkers(kbDir, { head: before, base });
    if (theirs && base) {
      rebased = await integrate(kbDir, target, { head: before, theirs, base }) || rebased;
    }
    const head = (await gitOk(kbDir, ["rev-parse", "HEAD"])).trim();
    const pushed = await countCommits(kbDir, theirs, head);
    const sent = theirs ? await entryChanges(kbDir, theirs, head) : await allEntries(kbDir, head);
    if (pushed) {
      const push = await pushBranch(kbDir, target, branch, { tip: theirs, timeoutMs });
      if (push.outcome === "failed") throw new SyncPushError(kbDir, pushed, push.reason);
      if (push.outcome === "rejected" && attempt < PUSH_ATTEMPTS) continue;
      if (push.outcome === "rejected") {
        throw new SyncPushError(
          kbDir,
          pushed,
          `${target.remote} kept moving while the sync pushed`,
        );
      }
    }
    const { incoming, outgoing } = await traffic(kbDir, { start, theirs, head, sent, pushed });
    const fallback = rebased && (await commitIdentity(kbDir)).fallback;
    const { warning, ...moved } = await syncProposals(kbDir, target, {
      timeoutMs,
      forceRepublish,
    });
    const proposals = moved.cameIn || moved.wentOut
      ? { ...moved, pending: await pendingCount(kbDir) }
      : moved;
    return {
      kbDir,
      outcome: incoming.commits || outgoing.commits ? "synced" : "up-to-date",
      branch,
      upstream: remoteBranchName(target.tracking),
      incoming,
      outgoing,
      rebased,
      proposals,
      warnings: [...fallback ? [fallbackIdentityWarning()] : [], ...warning ? [warning] : []],
    };
  }
}

/** How many proposals wait for a review; undefined when the proposals branch cannot be read. */
async function pendingCount(kbDir: string): Promise<number | undefined> {
  try {
    return (await readProposals(kbDir)).pending.length;
  } catch {
    return undefined;
  }
}

/** The newest commit `a` and `b` share; refused when they share none (two unrelated repos). */
async function mergeBase(kbDir: string, a: string, b: string): Promise<string> {
  const found = await git(kbDir, ["merge-base", a, b]);
  if (found.code === 0) return found.stdout.trim();
  throw new SyncRefusedError(
    `${kbDir} and its remote share no commit: they hold two different histories, which a sync ` +
      "does not join; clone the remote into a folder of its own and use that one",
    [],
  );
}

/**
 * Sync the knowledge base at `kbDir` with its remote: fetch, replay local commits onto the
 * remote's, push, reindex (see the module). Holds the save lock throughout, so no save
 * interleaves. Throws {@link SyncRefusedError} or {@link SyncOfflineError} (exit 1) and
 * {@link SyncConflictError} (exit 4) having changed nothing, {@link SyncPushError} (exit 3)
 * having brought in what came.
 */
export async function syncKb(kbDir: string, options: SyncOptions = {}): Promise<SyncReport> {
  const timeoutMs = options.networkTimeoutMs ?? networkTimeoutMs();
  let moved: Moved;
  try {
    moved = await withLock(
      await saveLockPath(kbDir),
      () => syncLocked(kbDir, timeoutMs, options.forceRepublish === true),
    );
  } catch (error) {
    // What came in stands although the push failed, so the index must show it.
    if (error instanceof SyncPushError) {
      const { warning } = await indexAfterWrite(kbDir);
      if (warning) error.message += `\nwarning: ${warning}`;
    }
    throw error;
  }
  const { report, warning } = await indexAfterWrite(kbDir);
  const { edits, staged } = moved.outcome === "no-remote"
    ? {}
    : await uncommittedEntryChanges(kbDir);
  return {
    ...moved,
    index: report,
    warnings: [
      ...moved.warnings,
      ...warning ? [warning] : [],
      ...edits
        ? [
          `${edits.summary}: not committed, so not sent (a sync sends commits); to commit and ` +
          `send: ${edits.commit} && ${syncCommand(kbDir)}`,
        ]
        : [],
      ...staged ? [`${staged.summary}; unstage: ${staged.unstage}`] : [],
    ],
  };
}
