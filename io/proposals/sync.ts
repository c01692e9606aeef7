/**
 * The proposals branch carried by `git-kb sync`, so a team reviews the same queue (on its git
 * host too): fetched into its remote-tracking ref, joined with the local branch (fast-forward
 * either way, or a merge commit when both sides gained proposals), and pushed. Every move of the
 * local branch checks its old value, as every writer of it does (io/proposals/store.ts), and a
 * push the remote rejected (it moved meanwhile) starts the round again. Like the knowledge base's
 * own branch (io/remote/rewritten.ts), the proposals branch never publishes again commits the
 * remote dropped by a rewrite of its history (a purge of a leaked secret): the proposals branch
 * grows from the published history, so a clone made before the purge holds them. What went wrong
 * is returned, not thrown (the knowledge base's own branch is synced by then), with whether it
 * left proposals or reviews made here unpushed, which the caller reports.
 *
 * @module
 */
import {
  commitIdentity,
  git,
  gitOk,
  gitReason,
  GitTimeoutError,
  isAncestor,
  mergeTree,
  networkTimeoutMs,
} from "../git.ts";
import { EXIT, KbError, type Refusal } from "../../core/exit.ts";
import { gitCommand } from "../../core/shell/quote.ts";
import { plural } from "../../core/text/plural.ts";
import { fetchBranch } from "../remote/fetch.ts";
import { refusalWords } from "../remote/push.ts";
import { FORCE_REPUBLISH, republishedCommits } from "../remote/rewritten.ts";
import { type PushTarget, pushTarget, syncCommand, trackedTip } from "../remote/target.ts";
import { repoState } from "../save/repo_state.ts";
import { kbCommand } from "../self_command.ts";
import { PROPOSALS_BRANCH, PROPOSALS_REF } from "../../core/proposals/branch.ts";
import { commitOf, moveBranch, proposalsTip, withTemporaryIndex } from "./store.ts";

/** Rounds of fetch, join and push before the sync gives up on a remote that keeps moving. */
const ROUNDS = 3;

/** Raised inside a round when the remote cannot be reached; becomes the warning. */
class Unreachable extends Error {}

/** Raised inside a round when a push would publish again what the remote dropped. */
class Rewritten extends Error {
  /** Why, and the two ways out. */
  readonly refusal: Refusal;
  constructor(refusal: Refusal) {
    super(refusal.reason);
    this.refusal = refusal;
  }
}

/** A git call to the remote, bounded; a timeout becomes {@link Unreachable}. */
async function remoteCall(kbDir: string, args: string[], timeoutMs: number) {
  try {
    return await git(kbDir, args, { timeoutMs });
  } catch (error) {
    if (error instanceof GitTimeoutError) throw new Unreachable(error.message);
    throw error;
  }
}

/**
 * Whether `tip` is merged into the knowledge base's published branch (its upstream as fetched):
 * a proposals branch the host deleted after merging it is not pushed back with nothing new.
 */
async function mergedUpstream(kbDir: string, tip: string): Promise<boolean> {
  const upstream = await commitOf(kbDir, "@{upstream}");
  return upstream !== undefined && await isAncestor(kbDir, tip, upstream);
}

/**
 * A merge commit of `ours` and `theirs`. A file both changed in their own ways (two proposals
 * of one entry) is taken from `ours` in the tree; both sides' proposals and reviews stay in the
 * history, which is what review reads.
 */
async function joinTips(kbDir: string, ours: string, theirs: string): Promise<string> {
  // Two unrelated histories are joined only once no commit they would publish was purged.
  const { tree, conflicted } = await mergeTree(kbDir, ours, theirs, { unrelated: true });
  const { args: identity } = await commitIdentity(kbDir);
  return await withTemporaryIndex(async (env) => {
    await gitOk(kbDir, ["read-tree", tree], { env });
    for (const path of conflicted) {
      const blob = await git(kbDir, ["rev-parse", "--verify", "--quiet", `${ours}:${path}`]);
      await gitOk(
        kbDir,
        blob.code === 0
          ? ["update-index", "--add", "--cacheinfo", `100644,${blob.stdout.trim()},${path}`]
          : ["update-index", "--force-remove", "--", path],
        { env },
      );
    }
    const joined = (await gitOk(kbDir, ["write-tree"], { env })).trim();
    return (await gitOk(kbDir, [
      ...identity,
      "commit-tree",
      joined,
      "-p",
      ours,
      "-p",
      theirs,
      "-m",
      `kb proposals: join the proposals of another clone`,
    ])).trim();
  });
}

/** Which way proposals (and reviews of them) moved between this clone and its remote. */
export interface ProposalsTraffic {
  /** The remote's branch held commits this clone lacked, and the local branch now holds them. */
  cameIn: boolean;
  /** The local branch held commits the remote lacked, and the remote now holds them. */
  wentOut: boolean;
}

/**
 * What {@link syncProposals} did: which way proposals moved, and what went wrong, when something
 * did: `notPushed` when proposals or reviews made here did not go out (the remote's own words),
 * else a `warning` line (nothing of this clone's is left unsent).
 */
export interface ProposalsSync extends ProposalsTraffic {
  /** Why proposals or reviews made here are not pushed; absent when they are, or there are none. */
  notPushed?: string;
  /**
   * The commands that finish, when `notPushed` needs others than a sync: the ways out of a
   * remote whose history was rewritten.
   */
  wayOut?: string[];
  /** What went wrong while nothing made here was left unpushed, with the sync to run again. */
  warning?: string;
}

/** The ref `remote`'s proposals branch is fetched into. */
function trackingOf(remote: string): string {
  return `refs/remotes/${remote}/${PROPOSALS_BRANCH}`;
}

/**
 * Refuse (throw {@link Rewritten}) a push of the proposals branch at `ours` that would publish
 * again commits the remote dropped by a rewrite of its history: of the knowledge base's branch
 * (`target`, as last fetched) or of the proposals branch itself (now at `theirs`; one deleted
 * there is not a rewrite).
 */
async function refuseRewritten(
  kbDir: string,
  target: PushTarget,
  ours: string,
  theirs: string | undefined,
): Promise<void> {
  const main = await trackedTip(kbDir, target);
  const dropped = new Set([
    ...main ? await republishedCommits(kbDir, target.tracking, ours, main) : [],
    ...theirs ? await republishedCommits(kbDir, trackingOf(target.remote), ours, theirs) : [],
  ]);
  if (!dropped.size) return;
  const backup = `git-kb-proposals-before-rewrite-${ours.slice(0, 7)}`;
  const one = dropped.size === 1;
  throw new Rewritten({
    reason: `${target.remote}'s history was rewritten (a force-push dropped commits it had, as a ` +
      `purge of a leaked secret does): ${plural(dropped.size, "commit", "commits")} of ` +
      `${PROPOSALS_BRANCH} that ${target.remote} had before ${one ? "is" : "are"} no longer on ` +
      `it, and pushing the branch would publish ${one ? "it" : "them"} again. If the rewrite ` +
      `was meant, set this clone's ${PROPOSALS_BRANCH} aside as ${backup} (its proposals and ` +
      "reviews stay there to pick from) and sync; if the commits should be back, republish them",
    commands: [
      `${gitCommand(kbDir, "branch", "-m", PROPOSALS_BRANCH, backup)} && ${syncCommand(kbDir)}`,
      kbCommand("sync", FORCE_REPUBLISH, "--kb", kbDir),
    ],
  });
}

/**
 * One round: fetch, join, push; "again" when another writer or the remote moved meanwhile, which
 * `moved` records as far as it got. With `forceRepublish`, commits a rewrite of the remote's
 * history dropped are pushed again (the user's consent, `sync --force-republish`).
 */
async function round(
  kbDir: string,
  target: PushTarget,
  { timeoutMs, forceRepublish }: { timeoutMs: number; forceRepublish: boolean },
  moved: ProposalsTraffic,
): Promise<"done" | "again"> {
  const { remote } = target;
  const tracking = trackingOf(remote);
  const fetched = await remoteCall(
    kbDir,
    ["fetch", "--quiet", "--no-tags", remote, `+${PROPOSALS_REF}:${tracking}`],
    timeoutMs,
  );
  const absent = fetched.code !== 0 && /couldn't find remote ref/i.test(fetched.stderr);
  if (fetched.code !== 0 && !absent) throw new Unreachable(gitReason(fetched.stderr));
  const theirs = absent ? undefined : await commitOf(kbDir, tracking);
  const ours = await proposalsTip(kbDir);
  if (ours === theirs || (!ours && !theirs)) return "done";
  if (theirs && (!ours || await isAncestor(kbDir, ours, theirs))) {
    if (!await moveBranch(kbDir, theirs, ours)) return "again";
    moved.cameIn = true;
    return "done";
  }
  if (!ours || (!theirs && await mergedUpstream(kbDir, ours))) return "done";
  if (!forceRepublish) await refuseRewritten(kbDir, target, ours, theirs);
  let tip = ours;
  if (theirs && !await isAncestor(kbDir, theirs, ours)) {
    tip = await joinTips(kbDir, ours, theirs);
    if (!await moveBranch(kbDir, tip, ours)) return "again";
    moved.cameIn = true;
  }
  const pushed = await remoteCall(
    kbDir,
    ["push", "--porcelain", remote, `${tip}:${PROPOSALS_REF}`],
    timeoutMs,
  );
  if (pushed.code === 0) {
    moved.wentOut = true;
    return "done";
  }
  if (/\[rejected\]|non-fast-forward|fetch first/i.test(pushed.stdout + pushed.stderr)) {
    return "again";
  }
  throw new Unreachable(`the push was refused: ${refusalWords(pushed)}`);
}

/**
 * Whether the local proposals branch holds commits the remote's, as last fetched into `remote`'s
 * tracking ref, lacks.
 */
async function aheadOfRemote(kbDir: string, remote: string): Promise<boolean> {
  const ours = await proposalsTip(kbDir);
  if (!ours) return false;
  const theirs = await commitOf(kbDir, `refs/remotes/${remote}/${PROPOSALS_BRANCH}`);
  return !theirs || !await isAncestor(kbDir, ours, theirs);
}

/**
 * Bring the proposals branch of `kbDir` in step with the remote of `target`, the knowledge base's
 * branch on it (see the module), first fetching that branch with `fetchBranch` (a caller that has
 * not just fetched it); resolves to which way proposals moved and, when it failed, why:
 * as `notPushed` when commits of this clone were left unpushed (with the `wayOut` when a sync is
 * not it), else as a `warning`.
 */
export async function syncProposals(
  kbDir: string,
  target: PushTarget,
  options: { timeoutMs: number; forceRepublish?: boolean; fetchBranch?: boolean },
): Promise<ProposalsSync> {
  const { remote } = target;
  const moved: ProposalsTraffic = { cameIn: false, wentOut: false };
  const how = { timeoutMs: options.timeoutMs, forceRepublish: options.forceRepublish === true };
  let failure = `${remote}'s ${PROPOSALS_BRANCH} kept moving`;
  try {
    if (options.fetchBranch) {
      // The knowledge base's branch as the remote has it now, which a purge may have rewritten.
      const fetched = await fetchBranch(kbDir, target, options.timeoutMs);
      if (fetched.state === "failed") throw new Unreachable(fetched.reason);
    }
    for (let attempt = 0; attempt < ROUNDS; attempt++) {
      if (await round(kbDir, target, how, moved) === "done") {
        return moved;
      }
    }
  } catch (error) {
    if (error instanceof Rewritten) {
      return { ...moved, notPushed: error.refusal.reason, wayOut: error.refusal.commands };
    }
    failure = error instanceof Error ? error.message : String(error);
  }
  if (await aheadOfRemote(kbDir, remote)) return { ...moved, notPushed: failure };
  const warning = `the proposals branch ${PROPOSALS_BRANCH} was not synced with ${remote}: ` +
    `${failure}; sync again: ${kbCommand("sync", "--kb", kbDir)}`;
  return { ...moved, warning };
}

/**
 * Raised, after what the command did is said, when proposals or reviews recorded here on the
 * proposals branch could not be pushed: they are kept, and a sync sends them. Exit code 3, as a
 * commit that could not be pushed.
 */
export class ProposalsPushError extends KbError {
  /**
   * The proposals branch of `kbDir` is not pushed because of `cause`; `wayOut`, the commands that
   * finish when a sync is not it (the cause then says what each does).
   */
  constructor(kbDir: string, cause: string, wayOut?: readonly string[]) {
    super(
      `the proposals and reviews recorded here on ${PROPOSALS_BRANCH} are not pushed: ${cause}` +
        (wayOut ? ":" : ". They are kept here; to send them, run:"),
      EXIT.notPushed,
      wayOut ?? [syncCommand(kbDir)],
    );
    this.name = "ProposalsPushError";
  }
}

/** What the remote's proposals branch, as last fetched, holds that the local one lacks. */
export interface ProposalsBehind {
  /** The remote's name. */
  remote: string;
  /** How many commits (proposals, reviews, joins) the local branch lacks. */
  commits: number;
}

/**
 * Whether the remote's proposals branch, as last fetched (a clone fetches it; so does any
 * `git fetch`), holds commits the local branch lacks: proposals or reviews made on another
 * machine that only a sync takes in, so a review here does not list them yet.
 */
export async function proposalsBehind(kbDir: string): Promise<ProposalsBehind | undefined> {
  const state = await repoState(kbDir);
  if (state.state !== "branch") return undefined;
  const target = await pushTarget(kbDir, state.branch);
  const theirs = target && await commitOf(kbDir, trackingOf(target.remote));
  if (!target || !theirs) return undefined;
  const ours = await proposalsTip(kbDir);
  // Not the knowledge base's own history, which the proposals branch grows from.
  const lacking = await gitOk(kbDir, [
    "rev-list",
    "--count",
    theirs,
    "^HEAD",
    ...ours ? [`^${ours}`] : [],
  ]);
  const commits = Number(lacking.trim());
  return commits ? { remote: target.remote, commits } : undefined;
}

/** What sharing the reviews just recorded came to. */
export interface SharedReviews {
  /** What went wrong while nothing recorded here was left unpushed, one line each. */
  warnings: string[];
  /** Reviews recorded here did not go out: the error to end with. */
  notPushed?: ProposalsPushError;
}

/**
 * Share reviews just recorded (accepted, edited or rejected proposals) at once: the proposals
 * branch is synced with the remote of the knowledge base's branch, so every machine and the git
 * host see them without waiting for the next `git-kb sync`. Nothing to share with no remote, or
 * when the repo is not on a branch (the reviews stay recorded here and the next sync shares them).
 */
export async function shareReviews(kbDir: string): Promise<SharedReviews> {
  const state = await repoState(kbDir);
  if (state.state !== "branch") return { warnings: [] };
  const target = await pushTarget(kbDir, state.branch);
  if (!target) return { warnings: [] };
  // The knowledge base's branch is fetched first: what a purge dropped from it must not go out
  // again with the reviews.
  const { warning, notPushed, wayOut } = await syncProposals(kbDir, target, {
    timeoutMs: networkTimeoutMs(),
    fetchBranch: true,
  });
  return {
    warnings: warning ? [warning] : [],
    ...notPushed !== undefined
      ? { notPushed: new ProposalsPushError(kbDir, notPushed, wayOut) }
      : {},
  };
}
