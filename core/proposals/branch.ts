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
