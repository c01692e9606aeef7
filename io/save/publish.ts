/**
 * Publishing a save's commit: push the branch to where it belongs (see io/remote/), and when the
 * remote moved meanwhile, fetch it, replay the branch's own commits on top and push again. A
 * commit that cannot be published stays, and {@link PushError} (exit 3) names the cause and the
 * commands that finish: a conflict, uncommitted changes or ignored files in the way, conflict
 * markers, a remote whose history was rewritten, one out of reach.
 *
 * @module
 */
import { displaySafe } from "../../core/text/display.ts";
import { idFromPath } from "../../core/entry/identity.ts";
import { EXIT, KbError, type Refusal } from "../../core/exit.ts";
import { gitOk, gitReason, replayOnto, SigningTimeoutError } from "../git.ts";
import { ENTRIES_DIR } from "../kb.ts";
import { fetchBranch } from "../remote/fetch.ts";
import { goneBranchRefusal } from "../remote/gone.ts";
import { ignoredInTheWayOf } from "../remote/ignored.ts";
import { markerRefusal } from "../remote/markers.ts";
import { moveBranchFiles } from "../remote/move.ts";
import { PUSH_ATTEMPTS, pushBranch } from "../remote/push.ts";
import { republishRefusal } from "../remote/rewritten.ts";
import { type PushTarget, syncCommand, trackedTip } from "../remote/target.ts";
import type { PushOutcome } from "./request.ts";

/** Raised when the change was committed locally but could not be pushed. Exit code 3. */
export class PushError extends KbError {
  /** The local commit that was not pushed. */
  readonly commit: string;
  /** `message` says why the push failed; `commit` was made; `commands` finish the push. */
  constructor(message: string, commit: string, commands: readonly string[]) {
    super(message, EXIT.notPushed, commands);
    this.name = "PushError";
    this.commit = commit;
  }
}

/** A save committed and to publish: what the message says when it is not pushed. */
export interface Unpushed {
  /** The knowledge base folder. */
  kbDir: string;
  /** What was saved, for the message: a path, or a count of files. */
  what: string;
  /** The commit made. */
  commit: string;
  /** Where the branch is pushed. */
  target: PushTarget;
}

/** The end of the first line of a {@link PushError}'s message: the commands that finish follow. */
export const KEPT_TO_FINISH = "The commit is kept; to finish, run:";

/**
 * The commit of `saved` is kept but not pushed because of `cause`; `commands` finish (by default
 * a sync, which replays the commit onto what the remote got meanwhile before it pushes: a plain
 * `git push` pasted once the remote answers again is rejected when another machine pushed).
 */
function notPushed(saved: Unpushed, cause: string, commands?: readonly string[]): PushError {
  const { kbDir, what, commit } = saved;
  return new PushError(
    `Committed ${what} locally in ${commit.slice(0, 7)}, but it is not pushed: ${cause}. ` +
      KEPT_TO_FINISH,
    commit,
    commands ?? [syncCommand(kbDir)],
  );
}

/** {@link notPushed} for what stops the push, with its own way out. */
function refused(saved: Unpushed, refusal: Refusal): PushError {
  return notPushed(saved, refusal.reason, refusal.commands);
}

/** The remote changed entries of `paths` in another way than the commit to push. */
function conflictError(saved: Unpushed, paths: string[]): PushError {
  const named = paths.map((path) =>
    idFromPath(path) ? `${idFromPath(path)} (${displaySafe(path)})` : displaySafe(path)
  );
  return notPushed(
    saved,
    `${saved.target.remote} changed the same entries in another way: ${named.join(", ")}; ` +
      "sync, which keeps both versions and prints how to finish",
    [syncCommand(saved.kbDir)],
  );
}

/**
 * The branch could not move onto what came in: an uncommitted change in a file the remote changed
 * stopped it, or git could not write the files (`stderr` names no file then).
 */
function moveError(saved: Unpushed, stderr: string): PushError {
  const paths = [...stderr.matchAll(/^error: Entry '([^']+)' not uptodate/gm)].map((match) =>
    match[1]
  );
  if (!paths.length) {
    // Not a change of the user's in the way: git could not write (a full disk, a folder).
    return notPushed(
      saved,
      `git could not write the files that came in from ${saved.target.remote} ` +
        `(${gitReason(stderr)}), as on a full disk or in a folder it may not write; those it had ` +
        "begun to write are put back as they were; make room or fix the folder, then sync",
      [syncCommand(saved.kbDir)],
    );
  }
  return notPushed(
    saved,
    `you have uncommitted changes to ${paths.join(", ")}, which ` +
      `${saved.target.remote} also changed, so its changes cannot come in ` +
      `(${gitReason(stderr)}); sync, which says how to commit them first`,
    [syncCommand(saved.kbDir)],
  );
}

/**
 * Refuse to publish conflict markers: an entry file changed by the commits to push (those the
 * remote branch, last fetched at `theirs`, lacks) that still holds `<<<<<<<` or `>>>>>>>` lines
 * (a merge finished by hand without resolving it) stays local.
 */
async function refuseMarkers(
  saved: Unpushed,
  branch: string,
  theirs: string | undefined,
): Promise<void> {
  const { kbDir } = saved;
  const range = theirs ? [`${theirs}..refs/heads/${branch}`] : [branch];
  const changed = await gitOk(kbDir, ["log", "--format=", "--name-only", "-z", ...range, "--"]);
  const paths = [...new Set(changed.split("\0").filter((path) => path.startsWith(ENTRIES_DIR)))];
  const refusal = await markerRefusal(kbDir, branch, paths);
  if (refusal) throw refused(saved, refusal);
}

/**
 * Replay the branch's commits that the remote lacks onto the fetched remote branch, with
 * `git merge-tree` and `git commit-tree` (authors and messages kept), then move the branch there
 * with `git reset --keep`. Nothing here needs a clean work tree: uncommitted changes in files
 * the remote did not touch stay as they are; one in a file it did touch stops the reset (and
 * the save reports it), and so does a file the ignore rules keep out of git where the remote
 * has one (which the reset would overwrite). A real conflict leaves everything as it was.
 * Returns the branch's new tip: the save's commit, replayed.
 */
async function replayOntoRemote(saved: Unpushed, branch: string): Promise<string> {
  const { kbDir, target } = saved;
  const replay = await replayOnto(kbDir, target.tracking, `refs/heads/${branch}`).catch(
    (error) => {
      // The save's own commit stands: only its replay was stopped, so it is not pushed.
      if (!(error instanceof SigningTimeoutError)) throw error;
      throw notPushed(saved, `its replay onto ${target.remote}'s commits stopped: ${error.reason}`);
    },
  );
  if (replay.outcome === "merges") {
    throw notPushed(
      saved,
      `${branch} and ${target.remote} have diverged and ${branch} holds merge commits, ` +
        "which a save does not rewrite; sync, which says how to merge them",
      [syncCommand(kbDir)],
    );
  }
  if (replay.outcome === "conflict") throw conflictError(saved, replay.paths);
  const from = `refs/heads/${branch}`;
  const ignored = await ignoredInTheWayOf(kbDir, { from, to: replay.tip, remote: target.remote });
  if (ignored) throw refused(saved, ignored);
  const reset = await moveBranchFiles(kbDir, {
    from: (await gitOk(kbDir, ["rev-parse", from])).trim(),
    to: replay.tip,
  }, ["reset", "--quiet", "--keep", replay.tip]);
  if (reset.code !== 0) throw moveError(saved, reset.stderr);
  return replay.tip;
}

/**
 * Refuse (the commit kept, exit 3) when the branch holds commits the remote had and dropped by a
 * rewrite of its history, as last fetched (the remote branch now at `theirs`; see
 * io/remote/rewritten.ts): before every push, and right after a fetch, before the branch is
 * replayed onto it (a replay would copy them under new hashes).
 */
async function refuseRewritten(
  saved: Unpushed,
  branch: string,
  theirs: string | undefined,
): Promise<void> {
  const { kbDir, target } = saved;
  const head = (await gitOk(kbDir, ["rev-parse", `refs/heads/${branch}`])).trim();
  const refusal = await republishRefusal(kbDir, {
    tracking: target.tracking,
    branch,
    head,
    theirs,
  });
  if (refusal) throw refused(saved, refusal);
}

/**
 * Push the branch to where it belongs, and only there. Rejected because the remote moved: fetch
 * it, replay ours on top ({@link replayOntoRemote}) and push again, {@link PUSH_ATTEMPTS} times
 * in all. Anything that stops the push is a {@link PushError} naming its cause.
 */
export async function publish(
  saved: Unpushed,
  branch: string,
  timeoutMs: number,
): Promise<PushOutcome> {
  const { kbDir, target } = saved;
  let rebased = false;
  for (let attempt = 0; attempt < PUSH_ATTEMPTS; attempt++) {
    const theirs = await trackedTip(kbDir, target);
    await refuseMarkers(saved, branch, theirs);
    await refuseRewritten(saved, branch, theirs);
    const pushed = await pushBranch(kbDir, target, branch, { tip: theirs, timeoutMs });
    if (pushed.outcome === "pushed") return rebased ? "rebased-and-pushed" : "pushed";
    if (pushed.outcome === "failed") throw notPushed(saved, pushed.reason);
    const fetched = await fetchBranch(kbDir, target, timeoutMs);
    if (fetched.state === "gone") {
      throw refused(saved, await goneBranchRefusal(kbDir, target, branch, timeoutMs));
    }
    if (fetched.state === "failed" || !fetched.tip) {
      const why = fetched.state === "failed" ? fetched.reason : `it has no ${target.ref}`;
      throw notPushed(saved, `the push was rejected and fetching ${target.remote} failed: ${why}`);
    }
    await refuseRewritten(saved, branch, fetched.tip);
    // From here on, a message names the save's commit as replayed: the one on the branch.
    saved = { ...saved, commit: await replayOntoRemote(saved, branch) };
    rebased = true;
  }
  throw notPushed(
    saved,
    `${target.remote} kept moving while the save pushed`,
    [syncCommand(kbDir)],
  );
}
