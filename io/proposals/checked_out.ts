/**
 * The proposals branch checked out in the knowledge base's work tree: as a branch
 * (`git switch git-kb/proposals`), or as a detached HEAD (`git switch --detach git-kb/proposals`,
 * `git checkout origin/git-kb/proposals`, a proposal's commit checked out to look at it): its
 * files are proposals, which nothing indexes. Told from git's own files, with no git call, since
 * the readers of the index (the prompt hook among them) run none: the commit is one a proposals
 * ref, this clone's or a remote's, is at now (its ref file, or `packed-refs`) or was at here
 * (its reflog: each proposal written here, each review, each sync that moved it), and no other
 * branch is at (a host that merged the branch by fast-forward put the knowledge base's branch
 * there: its files are entries then). A commit of the branch it never was at here (one of several
 * written at once, or fetched inside a longer history) is not told apart.
 *
 * @module
 */
import { join } from "../../core/path.ts";
import {
  gitKbBranchOfHead,
  isDetachedHead,
  isProposalsRef,
  packedRefsAt,
  PROPOSALS_REF,
} from "../../core/proposals/branch.ts";

/** The largest ref or reflog file read; a larger one (tens of thousands of moves) is not. */
const MAX_READ_BYTES = 8 * 1024 * 1024;

/** The most ref files listed under `refs/heads` and `refs/remotes`. */
const MAX_REFS = 10_000;

/** The text of `path`, or "" when it is missing, not a file, or larger than {@link MAX_READ_BYTES}. */
function readSmall(path: string): string {
  try {
    const info = Deno.statSync(path);
    return info.isFile && info.size <= MAX_READ_BYTES ? Deno.readTextFileSync(path) : "";
  } catch {
    return "";
  }
}

/**
 * The refs of the files under `<gitDir>/<under>` (`refs/heads`, `refs/remotes`; `logs/…` for
 * reflogs, named by their ref), at most {@link MAX_REFS}.
 */
function refFiles(gitDir: string, under: string): string[] {
  const found: string[] = [];
  const walk = (folder: string) => {
    let items: Deno.DirEntry[];
    try {
      items = [...Deno.readDirSync(join(gitDir, folder))];
    } catch {
      return;
    }
    for (const item of items) {
      if (found.length >= MAX_REFS) return;
      const path = `${folder}/${item.name}`;
      if (item.isDirectory) walk(path);
      else if (item.isFile) found.push(path);
    }
  };
  walk(under);
  return found;
}

/**
 * The proposals ref whose commit the knowledge base at `kbDir` has checked out as a detached
 * HEAD (`head`: the text of its `.git/HEAD`), as `git-kb/proposals` or
 * `<remote>/git-kb/proposals`; undefined for a branch checked out, or a commit no proposals ref
 * is or was at here, or one another branch is at.
 */
export function proposalsAtDetachedHead(kbDir: string, head: string): string | undefined {
  if (!isDetachedHead(head)) return undefined;
  const commit = head.trim();
  const gitDir = join(kbDir, ".git");
  const loose = [...refFiles(gitDir, "refs/heads"), ...refFiles(gitDir, "refs/remotes")];
  const at = [
    ...loose.filter((ref) => readSmall(join(gitDir, ref)).trim() === commit),
    ...packedRefsAt(readSmall(join(gitDir, "packed-refs")), commit),
  ];
  if (at.some((ref) => !isProposalsRef(ref))) return undefined;
  const logged = [
    PROPOSALS_REF,
    ...refFiles(gitDir, "logs/refs/remotes").map((log) => log.slice("logs/".length)),
  ].filter(isProposalsRef).find((ref) => readSmall(join(gitDir, "logs", ref)).includes(commit));
  const found = at[0] ?? logged;
  return found?.replace(/^refs\/(?:heads|remotes)\//, "");
}

/** The text of the knowledge base's `.git/HEAD`; "" when it has none (not a plain checkout). */
function headOf(kbDir: string): string {
  try {
    return Deno.readTextFileSync(join(kbDir, ".git", "HEAD"));
  } catch {
    return "";
  }
}

/**
 * What the knowledge base at `kbDir` has checked out of the proposals branch, named for a message:
 * a `git-kb/` branch (`git-kb/proposals`), or a commit of it as a detached HEAD (see
 * {@link proposalsAtDetachedHead}); undefined when it has its own branch (or another commit)
 * checked out. `head` is the text of its `.git/HEAD`, read when not given.
 */
export function proposalsCheckedOut(kbDir: string, head = headOf(kbDir)): string | undefined {
  const branch = gitKbBranchOfHead(head);
  if (branch) return branch;
  const detached = proposalsAtDetachedHead(kbDir, head);
  return detached && `the commit ${head.trim().slice(0, 12)} of ${detached} (a detached HEAD)`;
}
