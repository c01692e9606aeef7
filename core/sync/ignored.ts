/**
 * Files the ignore rules keep out of git, in the way of a branch that moves: git counts an
 * ignored file as expendable, so `git reset --keep` and `git merge --ff-only` overwrite one that
 * sits where the commit they move to has a file, without a word. This reads `git status` for the
 * ignored files, finds those a move would write over, and words the refusal that names them with
 * the commands that set each aside and finish. The git calls are io/remote/ignored.ts's.
 *
 * @module
 */
import type { Refusal } from "../exit.ts";
import { shellCommand } from "../shell/quote.ts";
import { displaySafe } from "../text/display.ts";

/** What `git status --porcelain=v1 -z --ignored --untracked-files=all` says of the work tree. */
export interface WorkTreeStatus {
  /** Files changed or untracked (both names of a rename or copy). */
  uncommitted: Set<string>;
  /** Files the ignore rules keep out of git (`!!`). */
  ignored: string[];
}

/**
 * Read `git status --porcelain=v1 -z --ignored --untracked-files=all` output (ignored files one
 * by one, also those inside a folder an ignore rule names).
 */
export function parseStatus(output: string): WorkTreeStatus {
  const words = output.split("\0");
  const status: WorkTreeStatus = { uncommitted: new Set(), ignored: [] };
  for (let at = 0; at < words.length; at++) {
    const item = words[at];
    if (!item) continue;
    const path = item.slice(3);
    if (item.startsWith("!! ")) {
      status.ignored.push(path);
      continue;
    }
    status.uncommitted.add(path);
    if (/^[RC]/.test(item)) status.uncommitted.add(words[++at]);
  }
  return status;
}

/**
 * What stands where a move writes the files `touched`, of the `ignored` ones: an ignored file at
 * a touched path, or at a folder of one (the move needs a folder there), and a folder holding
 * ignored files at a touched path (the move puts a file there). Each is named once, sorted.
 */
export function ignoredInTheWay(
  touched: readonly string[],
  ignored: readonly string[],
): string[] {
  const writes = new Set(touched.filter(Boolean));
  const folders = new Set([...writes].flatMap(folderPrefixes));
  const found = new Set<string>();
  for (const path of ignored) {
    if (folders.has(path)) found.add(path);
    for (const prefix of [...folderPrefixes(path), path]) {
      if (writes.has(prefix)) found.add(prefix);
    }
  }
  return [...found].sort();
}

/** The folders `path` lies in, outermost first: `a/b/c` gives `a` and `a/b`. */
function folderPrefixes(path: string): string[] {
  const parts = path.split("/");
  return parts.slice(1).map((_, depth) => parts.slice(0, depth + 1).join("/"));
}

/** One thing in the way and the free name next to it that it is moved to. */
export interface SetAside {
  /** The file (or folder), relative to the knowledge base. */
  path: string;
  /** Where it goes, relative to the knowledge base: a name nothing has yet. */
  aside: string;
  /** The ignore rule that keeps it out of git, `source:line:pattern`, when git names one. */
  rule?: string;
}

/**
 * The refusal for the files `blocked`, which the commits of `remote` put files at while this
 * clone's ignore rules keep its own out of git: they are named with their rules, and the
 * commands move each aside (`mv`, absolute paths in `kbDir`), then run `retry`.
 */
export function ignoredRefusal(
  kbDir: string,
  blocked: readonly SetAside[],
  remote: string,
  retry: string,
): Refusal {
  const one = blocked.length === 1;
  const named = blocked.map(({ path, rule }) =>
    rule ? `${displaySafe(path)} (ignored by ${displaySafe(rule)})` : displaySafe(path)
  ).join(", ");
  const asides = blocked.map(({ aside }) => displaySafe(aside)).join(", ");
  return {
    reason: `${remote} has ${one ? "a file" : "files"} at ${named}, where this clone keeps ` +
      `${one ? "one" : "some"} of its own out of git by its ignore rules, and git would ` +
      `overwrite ${one ? "it" : "them"} without a word; move ${one ? "it" : "them"} aside ` +
      `(to ${asides}), sync, then compare ${one ? "it" : "each"} with what came in and keep ` +
      "what you want",
    commands: [
      ...blocked.map(({ path, aside }) =>
        shellCommand(["mv", "--", `${kbDir}/${path}`, `${kbDir}/${aside}`])
      ),
      retry,
    ],
  };
}
