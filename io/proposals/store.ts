/**
 * Where proposals live: commits on the knowledge base's branch `git-kb/proposals`, each putting
 * the proposed entry file at its real path, so merging that branch on a git host accepts them
 * like a pull request; each review (accepted or rejected) is a commit there too, whose trailers
 * record it and whose tree takes the reviewed file back out, so a merge brings in nothing
 * already decided. Everything is written with git plumbing (a temporary index, `hash-object`,
 * `commit-tree`, `update-ref` with the old value checked): the user's work tree, index and
 * checked-out branch are never touched, and a writer that loses a race to another reads the
 * branch again and retries, so no proposal is lost.
 *
 * @module
 */
import { EXIT, KbError } from "../../core/exit.ts";
import { PROPOSALS_BRANCH, PROPOSALS_REF } from "../../core/proposals/branch.ts";
import { join } from "../../core/path.ts";
import { gitCommand } from "../../core/shell/quote.ts";
import { type Entry, parseEntryText, toEntry } from "../../core/entry/entry.ts";
import { entryFileName } from "../../core/entry/edit.ts";
import { idFromPath } from "../../core/entry/identity.ts";
import { LIMITS } from "../../core/entry/schema.ts";
import { describeSecret, entrySecrets } from "../../core/entry/secrets.ts";
import { findSecrets, SECRET_LABELS } from "../../core/text/secrets.ts";
import { displaySafe } from "../../core/text/display.ts";
import {
  type LoggedCommit,
  pendingProposals,
  type Proposal,
  proposalKey,
  type ProposalLog,
  proposalMessage,
  type ProposalRecord,
  type ProposeOutcome,
  readLog,
  rejectionOf,
  type Resolution,
  resolutionMessage,
  twinProposals,
} from "../../core/proposals/proposal.ts";
import { blobTexts, commitIdentity, git, GitError, gitOk, isAncestor } from "../git.ts";
import { cacheRoot } from "../paths.ts";
import { ENTRIES_DIR } from "../kb.ts";

export type { Proposal, ProposeOutcome };

/** How many times a writer that lost the race for the branch reads it again and retries. */
const MAX_ATTEMPTS = 20;

/** The id git gives "no object": an `update-ref` old value meaning the ref must not exist. */
const NO_COMMIT = "0".repeat(40);

/** Raised when the proposals branch could not be written; names the cause and a next step. */
export class ProposalStoreError extends KbError {
  constructor(message: string) {
    super(message, EXIT.failed);
    this.name = "ProposalStoreError";
  }
}

/** The commit `rev` names, or undefined when it names none. */
export async function commitOf(kbDir: string, rev: string): Promise<string | undefined> {
  const found = await git(kbDir, ["rev-parse", "--verify", "--quiet", `${rev}^{commit}`]);
  return found.code === 0 ? found.stdout.trim() : undefined;
}

/** The tip of the proposals branch, or undefined before the first proposal. */
export function proposalsTip(kbDir: string): Promise<string | undefined> {
  return commitOf(kbDir, PROPOSALS_REF);
}

/** Every proposal and review recorded on the proposals branch (tip `tip`). */
async function logOf(kbDir: string, tip: string | undefined): Promise<ProposalLog> {
  if (!tip) return readLog([]);
  const listing = await gitOk(kbDir, [
    "log",
    "--format=%H%x00%aI%x00%B%x1e",
    "--extended-regexp",
    "--grep=^Git-Kb-(Proposal|Accepted|Rejected):",
    tip,
  ]);
  const commits: LoggedCommit[] = listing.split("\x1e").map((item) => item.trim()).filter(Boolean)
    .map((item) => {
      const [commit, date, message] = item.split("\0");
      return { commit, date, message: message ?? "" };
    });
  return readLog(commits);
}

/** The proposals already in the knowledge base's checked-out branch, by how they got there. */
interface Landed {
  /** Merged into it (on a host, or by hand): their commits are in its history. */
  merged: Set<string>;
  /** Not merged, but their file is there exactly as proposed (a squash merge, a copy by hand). */
  copied: Set<string>;
}

/** Which of `records` landed in the checked-out branch (see {@link Landed}). */
async function landedCommits(
  kbDir: string,
  tip: string,
  records: readonly ProposalRecord[],
): Promise<Landed> {
  const landed: Landed = { merged: new Set(), copied: new Set() };
  const head = await commitOf(kbDir, "HEAD");
  if (!head || !records.length) return landed;
  const unmerged = new Set(
    (await gitOk(kbDir, ["rev-list", `${head}..${tip}`])).split("\n").filter(Boolean),
  );
  const blobs = await batchCheck(
    kbDir,
    "%(objectname)",
    records.flatMap(({ commit, path }) => [`${commit}:${path}`, `${head}:${path}`]),
  );
  records.forEach(({ commit }, at) => {
    if (!unmerged.has(commit)) landed.merged.add(commit);
    else if (blobs[2 * at] === blobs[2 * at + 1]) landed.copied.add(commit);
  });
  return landed;
}

/** The proposals branch as a writer or a reviewer sees it. */
export interface ProposalsState {
  /** The branch's tip; undefined before the first proposal. */
  tip?: string;
  /** Every proposal and review on it. */
  log: ProposalLog;
  /** The proposals waiting for a review, newest first. */
  pending: ProposalRecord[];
  /**
   * Proposals not reviewed whose file the checked-out branch holds as proposed without having
   * merged them (a squash merge on the host): not pending, but still adding their file.
   */
  copied: ProposalRecord[];
  /** Proposals a newer one of the same key stands for (see {@link twinProposals}). */
  twins: ProposalRecord[];
}

/** The proposals branch read: its log and what is pending. */
export async function readProposals(kbDir: string): Promise<ProposalsState> {
  const tip = await proposalsTip(kbDir);
  const log = await logOf(kbDir, tip);
  if (!tip) return { tip, log, pending: [], copied: [], twins: [] };
  const { merged, copied } = await landedCommits(kbDir, tip, log.proposals);
  const landed = new Set([...merged, ...copied]);
  const reviewed = new Set(log.resolutions.map((record) => record.proposal));
  return {
    tip,
    log,
    pending: pendingProposals(log, landed),
    copied: log.proposals.filter(({ commit }) => copied.has(commit) && !reviewed.has(commit)),
    twins: twinProposals(log, landed),
  };
}

/** Files a merge of the proposals branch would bring in that no pending proposal shows. */
export interface StrayFiles {
  /** Where the proposals branch and the checked-out branch meet: what a merge starts from. */
  meet: string;
  /**
   * The paths, each changed on the branch since `meet` and held as no pending proposal has it.
   */
  paths: string[];
  /**
   * Files the branch holds as an older pending proposal has them, not as the newest one of the
   * same file (two machines proposed edits of one entry, and a sync joined them keeping its own):
   * a merge would bring in the older one's text and take the newer one for merged.
   */
  older: { path: string; holds: string; newest: string }[];
}

/**
 * What merging the proposals branch (on a host, or by hand) would bring in beyond the pending
 * proposals as a review shows them: a file changed since the branches met that no pending
 * proposal holds (a commit without trailers pushed after it), or that the branch holds as an
 * older pending proposal of it rather than the newest. Anyone who can push the branch can add
 * such commits.
 */
export async function strayFiles(kbDir: string, state: ProposalsState): Promise<StrayFiles> {
  const meet = await meetOf(kbDir, state.tip);
  if (!meet) return { meet, paths: [], older: [] };
  const changed =
    (await gitOk(kbDir, ["diff", "--name-only", "--no-renames", "-z", meet, state.tip!]))
      .split("\0").filter(Boolean);
  const byPath = new Map<string, ProposalRecord[]>();
  for (const record of state.pending) {
    byPath.set(record.path, [...byPath.get(record.path) ?? [], record]);
  }
  const held = changed.filter((path) => byPath.has(path));
  const proposed = held.flatMap((path) => byPath.get(path)!);
  const blobs = await batchCheck(kbDir, "%(objectname)", [
    ...held.map((path) => `${state.tip}:${path}`),
    ...proposed.map(({ commit, path }) => `${commit}:${path}`),
  ]);
  const tipBlob = new Map(held.map((path, at) => [path, blobs[at]]));
  const holding = new Map<string, ProposalRecord>();
  proposed.forEach((record, at) => {
    if (!holding.has(record.path) && blobs[held.length + at] === tipBlob.get(record.path)) {
      holding.set(record.path, record);
    }
  });
  const older = held.filter((path) =>
    holding.has(path) && holding.get(path) !== byPath.get(path)![0]
  )
    .map((path) => ({
      path,
      holds: holding.get(path)!.commit,
      newest: byPath.get(path)![0].commit,
    }));
  return { meet, paths: changed.filter((path) => !holding.has(path)), older };
}

/**
 * The text of `path` at `rev`, or undefined when it has none there or it is larger than an
 * entry file can be (see {@link filesAt}).
 */
export async function fileAt(
  kbDir: string,
  rev: string,
  path: string,
): Promise<string | undefined> {
  return (await filesAt(kbDir, [[rev, path]]))[0];
}

/**
 * The text of each `[rev, path]` (a path of a proposal record: no control character), or
 * undefined where it has none there or the file is larger than an entry file can be (anyone who
 * can push the proposals branch chooses its files: a huge one is never read whole). Two git calls
 * for them all, however many: a git call for each would make a listing of thousands of
 * proposals take minutes.
 */
export async function filesAt(
  kbDir: string,
  wanted: readonly (readonly [string, string])[],
): Promise<(string | undefined)[]> {
  const found = await batchCheck(
    kbDir,
    "%(objectname) %(objecttype) %(objectsize)",
    wanted.map(([rev, path]) => `${rev}:${path}`),
  );
  const readable = found.map((line) => {
    const [blob, type, size] = line.split(" ");
    return type === "blob" && Number(size) <= LIMITS.maxEntryFileBytes ? blob : undefined;
  });
  const texts = await blobTexts(kbDir, readable.filter((blob) => blob !== undefined));
  let next = 0;
  return readable.map((blob) => blob === undefined ? undefined : texts[next++]);
}

/** An entry file committed on the checked-out branch. */
interface CommittedFile {
  path: string;
  blob: string;
}

/** The entry files committed on the checked-out branch, by id. */
async function committedEntries(kbDir: string): Promise<Map<string, CommittedFile>> {
  const head = await commitOf(kbDir, "HEAD");
  const ids = new Map<string, CommittedFile>();
  if (!head) return ids;
  const listing = await gitOk(kbDir, ["ls-tree", "-r", "-z", head, "--", ENTRIES_DIR]);
  for (const line of listing.split("\0")) {
    const [meta, path] = line.split("\t");
    const id = path?.endsWith(".md") ? idFromPath(path) : undefined;
    if (id && !ids.has(id)) ids.set(id, { path, blob: meta.split(" ")[2] });
  }
  return ids;
}

/** Every credential in `text`, in words: "a GitHub token (ghp_…AB) in its `where`". */
export function secretsIn(text: string, where: string): string[] {
  return findSecrets(text).map(({ kind, masked }) =>
    `${SECRET_LABELS[kind]} (${masked}) in its ${where}`
  );
}

/** A proposal checked and placed: the entry it holds and the path its file goes to. */
interface Placed {
  proposal: Proposal;
  path: string;
  key: string;
  /** The blob the entry file is now, for a change of an existing entry. */
  base?: string;
}

/**
 * The path of `proposal`'s entry file, or why it cannot be proposed: an entry that breaks the
 * contract, one whose id is not the proposal's, one holding a credential (the save pipeline's
 * own scanner, field by field), a new entry whose id is taken, a change of an entry that is not
 * there.
 */
function place(proposal: Proposal, committed: ReadonlyMap<string, CommittedFile>): Placed | string {
  const secrets = [
    ...secretsIn(proposal.reason, "reason"),
    ...secretsIn(proposal.source, "source"),
  ];
  let entry: Entry | undefined;
  let problems: string[] = [];
  try {
    const read = toEntry(parseEntryText(proposal.markdown, `proposal for ${proposal.entryId}`));
    entry = read.entry;
    problems = read.problems.map(({ field, message }) => `${field}: ${message}`);
  } catch (error) {
    problems = [error instanceof Error ? error.message : String(error)];
    secrets.push(...secretsIn(proposal.markdown, "text"));
  }
  const existing = committed.get(proposal.entryId);
  const path = proposal.kind === "new" || !existing
    ? `${ENTRIES_DIR}/${entry ? entryFileName(entry) : `${proposal.entryId}.md`}`
    : existing.path;
  if (entry) secrets.push(...entrySecrets(entry).map((secret) => describeSecret(secret)));
  if (secrets.length) {
    return `it holds ${secrets.join(", ")}; a credential proposed here would be pushed with the ` +
      "proposals branch and stay in the history of every clone, so it is never written";
  }
  if (!entry || problems.length) return `its entry is not valid: ${problems.join("; ")}`;
  if (entry.id !== proposal.entryId) {
    return `its entry's id is ${entry.id}, not the proposal's ${proposal.entryId}`;
  }
  if (proposal.kind === "new" && existing) {
    return `${proposal.entryId} is already an entry (${existing.path}); propose an edit of it ` +
      "instead";
  }
  if (proposal.kind !== "new" && !existing) {
    return `there is no entry ${proposal.entryId} to change (a ${proposal.kind} proposal needs one)`;
  }
  return { proposal, path, key: proposalKey(proposal), base: existing?.blob };
}

/** Run `use` with a private folder under the cache root (named `prefix…`), removed after. */
async function withTemporaryDir<T>(prefix: string, use: (dir: string) => Promise<T>): Promise<T> {
  const dir = await Deno.makeTempDir({ dir: cacheRoot(), prefix });
  try {
    return await use(dir);
  } finally {
    await Deno.remove(dir, { recursive: true }).catch(() => {});
  }
}

/**
 * Run `use` with the environment of a temporary index file of git's (in a private folder under
 * the cache root, removed after), for building trees without touching the user's index.
 */
export function withTemporaryIndex<T>(
  use: (env: Record<string, string>) => Promise<T>,
): Promise<T> {
  return withTemporaryDir("proposal-index-", (dir) => use({ GIT_INDEX_FILE: join(dir, "index") }));
}

/** An entry file merged by {@link mergeTexts}. */
export interface MergedText {
  /** The merge, with conflict markers where both sides changed the same lines. */
  text: string;
  /** Whether no lines conflicted. */
  clean: boolean;
}

/**
 * git's three-way merge of one file (`git merge-file`): the changes from `base` to `theirs`
 * made to `ours`, both sides' lines between `<<<<<<<` and `>>>>>>>` markers where they changed
 * the same ones (`labels`: the names the markers give ours, base and theirs).
 */
export async function mergeTexts(
  kbDir: string,
  texts: { ours: string; base: string; theirs: string },
  labels: readonly [string, string, string],
): Promise<MergedText> {
  return await withTemporaryDir("proposal-merge-", async (dir) => {
    const files = ["ours", "base", "theirs"] as const;
    for (const name of files) await Deno.writeTextFile(join(dir, name), texts[name]);
    const args = ["merge-file", "-p", ...labels.flatMap((label) => ["-L", label])];
    const merged = await git(kbDir, [...args, ...files.map((name) => join(dir, name))]);
    // Its exit code is the number of conflicts (at most 127), or an error.
    if (merged.code < 0 || merged.code > 127) throw new GitError(args, merged);
    return { text: merged.stdout, clean: merged.code === 0 };
  });
}

/** One file change of a commit built on the proposals branch: a blob at a path, or none. */
interface FileChange {
  path: string;
  /** The file's text; undefined removes the path. */
  text?: string;
  /** The blob to put there instead of `text`. */
  blob?: string;
}

/** One commit to add on the proposals branch. */
interface PlannedCommit {
  message: string;
  /** The file it changes; none: its tree is its parent's (a record alone). */
  change?: FileChange;
}

/** Put `change` into the temporary index of `env`: its blob at its path, or the path out. */
async function stage(kbDir: string, change: FileChange, env: Record<string, string>) {
  const blob = change.blob ??
    (change.text === undefined
      ? undefined
      : (await gitOk(kbDir, ["hash-object", "-w", "--stdin"], { stdin: change.text })).trim());
  const update = blob
    ? ["update-index", "--add", "--cacheinfo", `100644,${blob},${change.path}`]
    : ["update-index", "--force-remove", "--", change.path];
  await gitOk(kbDir, update, { env });
}

/**
 * Commit `commits` one after another on top of `parent` (none: a first, parentless commit), with
 * a temporary index; returns each new commit, the last being the new tip.
 */
async function buildCommits(
  kbDir: string,
  parent: string | undefined,
  commits: readonly PlannedCommit[],
): Promise<string[]> {
  const { args: identity } = await commitIdentity(kbDir);
  return await withTemporaryIndex(async (env) => {
    await gitOk(kbDir, parent ? ["read-tree", parent] : ["read-tree", "--empty"], { env });
    const made: string[] = [];
    let base = parent;
    for (const { message, change } of commits) {
      if (change) await stage(kbDir, change, env);
      const tree = (await gitOk(kbDir, ["write-tree"], { env })).trim();
      const parents = base ? ["-p", base] : [];
      base = (await gitOk(kbDir, [...identity, "commit-tree", tree, ...parents, "-F", "-"], {
        stdin: message,
      })).trim();
      made.push(base);
    }
    return made;
  });
}

/**
 * Move the proposals branch from `old` (undefined: it must not exist yet) to `next`, only if it
 * is still at `old`; false when another writer moved it first.
 */
export async function moveBranch(
  kbDir: string,
  next: string,
  old: string | undefined,
): Promise<boolean> {
  const moved = await git(kbDir, [
    "update-ref",
    "-m",
    "git-kb: proposals",
    PROPOSALS_REF,
    next,
    old ?? NO_COMMIT,
  ]);
  return moved.code === 0;
}

/** A little while, longer on each attempt and never the same for two writers. */
function backoff(attempt: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 5 + Math.random() * 20 * (attempt + 1)));
}

/** Refuse to move a branch that is checked out: its work tree would no longer match it. */
async function assertNotCheckedOut(kbDir: string): Promise<void> {
  const head = await git(kbDir, ["symbolic-ref", "-q", "HEAD"]);
  if (head.stdout.trim() === PROPOSALS_REF) {
    throw new ProposalStoreError(
      `${kbDir} has the proposals branch ${PROPOSALS_BRANCH} checked out, which git-kb writes ` +
        `on its own; switch back to your branch: ${gitCommand(kbDir, "switch", "-")}`,
    );
  }
}

/**
 * The commit new proposals go on: the branch's tip; or, before the first proposal and once the
 * branch is merged, what the knowledge base has published (its branch's upstream as last
 * fetched, else its checked-out branch), so the branch starts from history that stays (commits
 * not pushed yet may still be replayed by a sync).
 */
async function baseFor(kbDir: string, tip: string | undefined): Promise<string | undefined> {
  const published = await commitOf(kbDir, "@{upstream}") ?? await commitOf(kbDir, "HEAD");
  if (!tip) return published;
  if (!published) return tip;
  return await isAncestor(kbDir, tip, published) ? published : tip;
}

/**
 * Add commits to the proposals branch: `plan` sees the branch as it is and says what to commit
 * (nothing: leave it); the branch moves only if no one moved it meanwhile, else the whole round
 * runs again on what the other writer left. Returns what `plan` returned last and the commits.
 */
async function commitToBranch<T>(
  kbDir: string,
  plan: (state: ProposalsState) => Promise<{ commits: PlannedCommit[]; result: T }>,
): Promise<{ result: T; made: string[] }> {
  await assertNotCheckedOut(kbDir);
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const state = await readProposals(kbDir);
    const { commits, result } = await plan(state);
    if (!commits.length) return { result, made: [] };
    const made = await buildCommits(kbDir, await baseFor(kbDir, state.tip), commits);
    if (await moveBranch(kbDir, made.at(-1)!, state.tip)) return { result, made };
    await backoff(attempt);
  }
  throw new ProposalStoreError(
    `the proposals branch ${PROPOSALS_BRANCH} of ${kbDir} kept moving while git-kb wrote to it ` +
      `(${MAX_ATTEMPTS} tries); nothing was written, run the command again`,
  );
}

/**
 * Writes proposals as commits on the knowledge base's proposals branch (never the checked-out
 * branch); refuses (per proposal, with the reason) one holding a credential, one already
 * rejected, one that duplicates a pending proposal.
 */
export async function propose(kbDir: string, proposals: Proposal[]): Promise<ProposeOutcome[]> {
  const committed = await committedEntries(kbDir);
  const placed = proposals.map((proposal) => place(proposal, committed));
  const { result: outcomes, made } = await commitToBranch(kbDir, (state) => {
    const pendingKeys = new Map(state.pending.map((record) => [record.key, record]));
    const writing = new Set<string>();
    const outcomes: ProposeOutcome[] = [];
    const commits: PlannedCommit[] = [];
    placed.forEach((item, at) => {
      const proposal = proposals[at];
      if (typeof item === "string") {
        outcomes.push({ proposal, written: false, refusal: item });
        return;
      }
      const rejected = rejectionOf(state.log, item.key);
      const twin = pendingKeys.get(item.key);
      const refusal = rejected
        ? `the same proposal was rejected on ${rejected.date.slice(0, 10)}` +
          (rejected.why ? ` (${displaySafe(rejected.why)})` : "") +
          "; a rejected proposal is not offered again"
        : twin
        ? `it duplicates the pending proposal ${twin.commit.slice(0, 12)} (${twin.kind} ` +
          `${twin.entryId})`
        : writing.has(item.key)
        ? "it duplicates another proposal given with it"
        : undefined;
      if (refusal) {
        outcomes.push({ proposal, written: false, refusal });
        return;
      }
      writing.add(item.key);
      outcomes.push({ proposal, written: true });
      commits.push({
        message: proposalMessage(proposal, item.path, item.base),
        change: { path: item.path, text: proposal.markdown },
      });
    });
    return Promise.resolve({ commits, result: outcomes });
  });
  let next = 0;
  for (const outcome of outcomes) if (outcome.written) outcome.commit = made[next++];
  return outcomes;
}

/**
 * Record the review of `record` on the proposals branch: a commit whose trailers say
 * accepted or rejected (shared through the remote with the branch) and whose tree puts the
 * entry file back as the branch found it (the newest other pending proposal of the same file,
 * else the file where the branch and the checked-out branch meet), so merging the branch on a
 * host brings nothing already reviewed. Nothing is written when it was reviewed already.
 */
export async function recordResolution(
  kbDir: string,
  record: ProposalRecord,
  resolution: Omit<Resolution, "proposal" | "key">,
): Promise<boolean> {
  return (await recordResolutions(kbDir, [record], resolution)).length === 1;
}

/**
 * {@link recordResolution} of each of `records` alike, in one move of the branch (one commit
 * each), so reviewing thousands of proposals at once reads the branch once, not once each; the
 * twins each one stands for (the same idea proposed again, see {@link twinProposals}) are
 * recorded with it, so their files leave the branch too. Resolves to the records it recorded:
 * not those reviewed already.
 */
export async function recordResolutions(
  kbDir: string,
  records: readonly ProposalRecord[],
  resolution: Omit<Resolution, "proposal" | "key">,
): Promise<ProposalRecord[]> {
  const { result } = await commitToBranch(kbDir, async (state) => {
    // An accept's save may have made it look landed (its file as proposed): still recorded.
    const reviewed = new Set(state.log.resolutions.map((item) => item.proposal));
    const open = records.filter((record) =>
      !reviewed.has(record.commit) && !rejectionOf(state.log, record.key)
    );
    const keys = new Set(open.map((record) => record.key));
    const twins = state.twins.filter((record) => keys.has(record.key));
    const commits = await resolutionCommits(kbDir, state, [...open, ...twins], resolution);
    return { commits, result: open };
  });
  return result;
}

/**
 * Record as accepted every proposal the checked-out branch holds as proposed without having
 * merged it (a squash merge on the host), so the branch stops adding its file: a later change
 * of the entry would otherwise conflict with it at the next merge. Resolves to how many.
 */
export async function settleCopied(kbDir: string): Promise<number> {
  const { result } = await commitToBranch(kbDir, async (state) => {
    const commits = await resolutionCommits(kbDir, state, state.copied, { verdict: "accepted" });
    return { commits, result: commits.length };
  });
  return result;
}

/** Where the proposals branch (tip `tip`) and the checked-out branch meet; "" when they do not. */
async function meetOf(kbDir: string, tip: string | undefined): Promise<string> {
  const head = await commitOf(kbDir, "HEAD");
  return head && tip ? (await git(kbDir, ["merge-base", tip, head])).stdout.trim() : "";
}

/**
 * The commits that record `resolution` of each of `records`, each putting its file back as the
 * branch should hold it once they are all reviewed: the newest pending proposal of that file
 * not among them, else the file where the branch and the checked-out branch meet. A proposal the
 * branch no longer holds (deleted or moved back while it was reviewed) added no file to it: its
 * record changes no file, where putting one back as the branch found it would take out of it an
 * entry it holds (the one the accept just saved, which a merge of the branch would then delete).
 */
async function resolutionCommits(
  kbDir: string,
  state: ProposalsState,
  records: readonly ProposalRecord[],
  resolution: Omit<Resolution, "proposal" | "key">,
): Promise<PlannedCommit[]> {
  if (!records.length) return [];
  const resolving = new Set(records.map((record) => record.commit));
  const meet = await meetOf(kbDir, state.tip);
  const sources = records.map(({ path }) =>
    state.pending.find((item) => item.path === path && !resolving.has(item.commit))?.commit ??
      meet
  );
  const blobs = await blobsAt(kbDir, records.map(({ path }, at) => [sources[at], path]));
  const held = new Set(state.log.proposals.map(({ commit }) => commit));
  return records.map((record, at) => ({
    message: resolutionMessage(record, { ...resolution, proposal: record.commit, key: record.key }),
    ...held.has(record.commit) ? { change: { path: record.path, blob: blobs[at] } } : {},
  }));
}

/**
 * The blob at each `[rev, path]` (a path of a proposal record: no control character), or
 * undefined where there is none or `rev` is "": one git call for them all.
 */
async function blobsAt(
  kbDir: string,
  wanted: readonly (readonly [string, string])[],
): Promise<(string | undefined)[]> {
  const lines = await batchCheck(
    kbDir,
    "%(objectname) %(objecttype)",
    wanted.filter(([rev]) => rev).map(([rev, path]) => `${rev}:${path}`),
  );
  let next = 0;
  return wanted.map(([rev]) => {
    if (!rev) return undefined;
    const [name, type] = lines[next++].split(" ");
    return type === "blob" ? name : undefined;
  });
}

/**
 * `git cat-file --batch-check=<format>`'s line for each of `objects` (`<rev>:<path>`, one a
 * line of its input), in order: one git call for them all, none for none.
 */
async function batchCheck(
  kbDir: string,
  format: string,
  objects: readonly string[],
): Promise<string[]> {
  if (!objects.length) return [];
  const lines = await gitOk(kbDir, ["cat-file", `--batch-check=${format}`], {
    stdin: objects.map((object) => `${object}\n`).join(""),
  });
  return lines.split("\n");
}

/** The blob id git gives `text` (nothing written). */
export async function blobIdOf(kbDir: string, text: string): Promise<string> {
  return (await gitOk(kbDir, ["hash-object", "--stdin"], { stdin: text })).trim();
}
