/**
 * The branches git-kb keeps for itself in a knowledge base's repo (`git-kb/…`, the proposals
 * branch among them): never the branch to save to, come back to, or index. Pure.
 *
 * @module
 */

/** The prefix of the branches git-kb keeps for itself. */
const GIT_KB_PREFIX = "git-kb/";

/**
 * Whether a branch's short name is one git-kb keeps for itself (`git-kb/…`, the proposals
 * branch), never the knowledge base's own branch to save to or come back to.
 */
export function isGitKbBranch(name: string): boolean {
  return name.startsWith(GIT_KB_PREFIX);
}

/**
 * The git-kb branch a `.git/HEAD` file's text has checked out (`ref: refs/heads/git-kb/…`), or
 * undefined for any other branch, a detached HEAD, or no HEAD.
 */
export function gitKbBranchOfHead(head: string): string | undefined {
  const match = /^ref: refs\/heads\/(.+)$/.exec(head.trim());
  return match && isGitKbBranch(match[1]) ? match[1] : undefined;
}
