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
