/**
 * The branch captured knowledge waits on for review, by name: a module of its own, with nothing
 * to load, so that the save pipeline (and the prompt hook behind it) can tell the branch apart
 * without loading the proposals' code.
 *
 * @module
 */

/** The branch proposals live on, short name. */
export const PROPOSALS_BRANCH = "git-kb/proposals";

/** The branch proposals live on, full ref. */
export const PROPOSALS_REF = `refs/heads/${PROPOSALS_BRANCH}`;

/**
 * Whether a branch's short name is one git-kb keeps for itself (`git-kb/…`, the proposals
 * branch), never the knowledge base's own branch to save to or come back to.
 */
export function isGitKbBranch(name: string): boolean {
  return name.startsWith("git-kb/");
}

/**
 * The git-kb branch a `.git/HEAD` file's text has checked out (`ref: refs/heads/git-kb/…`), or
 * undefined for any other branch, a detached HEAD, or no HEAD.
 */
export function gitKbBranchOfHead(head: string): string | undefined {
  const match = /^ref: refs\/heads\/(.+)$/.exec(head.trim());
  return match && isGitKbBranch(match[1]) ? match[1] : undefined;
}

/**
 * Whether `ref` (a full name) is the proposals branch: this clone's, or a remote's as fetched
 * (`refs/remotes/<remote>/git-kb/proposals`).
 */
export function isProposalsRef(ref: string): boolean {
  return ref === PROPOSALS_REF || /^refs\/remotes\/[^/]+\/git-kb\/proposals$/.test(ref);
}

/** Whether a `.git/HEAD` file's text is a detached HEAD: a commit id, not a `ref:` line. */
export function isDetachedHead(head: string): boolean {
  return /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/.test(head.trim());
}

/** The refs that `packedRefs`, the text of git's `packed-refs` file, has at `commit`. */
export function packedRefsAt(packedRefs: string, commit: string): string[] {
  return packedRefs.split("\n").flatMap((line) => {
    const [id, ref] = line.trim().split(" ");
    return id === commit && ref !== undefined ? [ref] : [];
  });
}
