/**
 * `git-kb doctor`'s look at the cache: the cache root, the knowledge base's cache folder and the
 * folders git-kb keeps in them must each be a private folder of the user's (see
 * {@link ensurePrivateDir}). git-kb refuses anything else there, and a hook refuses in silence:
 * a planted `sessions -> /elsewhere` link would mute the prompt hook with no word said.
 *
 * @module
 */
import type { Finding } from "../core/setup/finding.ts";
import { join } from "../core/path.ts";
import { shellCommand } from "../core/shell/quote.ts";
import {
  cacheWriteError,
  ensurePrivateDir,
  ifExists,
  NEW_CACHE_LINE,
  UnsafeCacheError,
  UnwritableCacheError,
} from "./fs.ts";
import { cacheRootPath, kbCachePath } from "./paths.ts";

/** The folders of one knowledge base's cache: the index, session ledgers, judge verdicts, eval. */
const KB_CACHE_FOLDERS = ["index", "sessions", "verdicts", "eval"];

/** The folders of the cache root shared by every knowledge base: the editor's drafts. */
const ROOT_FOLDERS = ["drafts"];

/**
 * What is wrong with the thing at `path`, and the fix: the command that removes it, or the line
 * that keeps the cache elsewhere when that command would fail: for a cache root another user
 * owns (a sticky /tmp keeps the user from removing it) and for another user's folder (a
 * `sudo git-kb` leaves root's), whose files `rm -r` may not delete.
 */
function unsafeFinding(path: string, info: Deno.FileInfo, root: boolean): Finding {
  const theirs = info.uid !== null && info.uid !== Deno.uid();
  const owner = theirs ? `, and uid ${info.uid}'s, not yours (uid ${Deno.uid()})` : "";
  const what = info.isSymlink
    ? `a symbolic link (to ${Deno.readLinkSync(path)})${owner}`
    : info.isDirectory
    ? `a folder of uid ${info.uid}'s, not yours (uid ${Deno.uid()})`
    : `not a folder${owner}`;
  const remove = info.isDirectory ? ["rm", "-r", path] : ["rm", path];
  const fix = theirs && (root || info.isDirectory)
    ? `have its owner remove it, or keep the cache in a folder of your own; for this shell, a ` +
      `new one: ${NEW_CACHE_LINE}`
    : shellCommand(remove);
  return {
    level: "error",
    check: "cache",
    message: `${path} is ${what}: git-kb neither reads nor writes there, so the hooks stay ` +
      `silent and commands fail; fix: ${fix}`,
  };
}

/**
 * The problem with the cache folder at `path`, or undefined when it is a private folder of the
 * user's or not there yet (git-kb makes it when it needs it). A folder of the user's that others
 * may enter is narrowed to 0700, as every use does. `root`: it is the cache root.
 */
function folderProblem(path: string, root = false): Finding | undefined {
  const info = ifExists(() => Deno.lstatSync(path));
  if (!info) return undefined;
  try {
    ensurePrivateDir(path);
    return undefined;
  } catch (error) {
    if (error instanceof UnsafeCacheError) return unsafeFinding(path, info, root);
    throw error;
  }
}

/**
 * The error of a cache that takes no write (no permission, a read-only mount as in an agent's
 * sandbox, no room), as a command words it, when it takes none: a file is made and removed in
 * the knowledge base's cache folder, or in the cache root while that folder is not there yet (the
 * root made, as every command makes it).
 */
function writeProblem(root: string, kbCache: string): Finding[] {
  try {
    const folder = ifExists(() => Deno.lstatSync(kbCache)) ? kbCache : ensurePrivateDir(root);
    try {
      Deno.removeSync(Deno.makeTempFileSync({ dir: folder, prefix: ".doctor-" }));
    } catch (error) {
      throw cacheWriteError(error, folder);
    }
    return [];
  } catch (error) {
    if (!(error instanceof UnwritableCacheError)) throw error;
    return [{ level: "error", check: "cache", message: error.message }];
  }
}

/**
 * The cache of the knowledge base at `kbDir`: one error per folder that is not a private folder
 * of the user's (nothing under an unsafe folder is looked at), else one if it takes no write,
 * else one ok.
 */
export function cacheFindings(kbDir: string): Finding[] {
  const root = cacheRootPath();
  const rootProblem = folderProblem(root, true);
  if (rootProblem) return [rootProblem];
  const kbCache = kbCachePath(kbDir);
  const kbProblem = folderProblem(kbCache);
  const folders = [
    ...ROOT_FOLDERS.map((name) => join(root, name)),
    ...kbProblem ? [] : KB_CACHE_FOLDERS.map((name) => join(kbCache, name)),
  ];
  const problems = [
    ...kbProblem ? [kbProblem] : [],
    ...folders.flatMap((path) => folderProblem(path) ?? []),
  ];
  if (!problems.length) problems.push(...writeProblem(root, kbCache));
  return problems.length ? problems : [{
    level: "ok",
    check: "cache",
    message: `the cache folders under ${root} are yours alone`,
  }];
}
