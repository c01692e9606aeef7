/**
 * Which entry ids a shell command line fetches with `git-kb get`, pure: what the PostToolUse
 * receipts hook records. Apart from core/delivery/receipts.ts so the prompt hook, which writes receipts
 * too, never loads the shell parser.
 *
 * @module
 */
import { isTypedEntryId, splitQualifiedId, typedIds } from "../kbs/qualified.ts";
import { commandWords, parseShell } from "../shell/words.ts";
import { STOPWORDS } from "../text/tokenize.ts";

/** The last path component of a word (`/opt/kb/plugin/bin/git-kb` → `git-kb`). */
function baseName(word: string): string {
  return word.slice(Math.max(word.lastIndexOf("/"), word.lastIndexOf("\\")) + 1);
}

/** The launchers (sh, cmd) and compiled binaries of the CLI. */
const LAUNCHER = /^git-kb(?:\.cmd|-[a-z0-9_-]+)?$/;

/** Scripts that `deno run` runs as the CLI: the bundle and the entry points. */
const SCRIPT = /^(?:git-kb\.js|main\.ts|launch\.ts)$/;

/** `deno` flags that take a separate value. */
const DENO_VALUED = new Set(["-c", "--config", "--cwd", "--import-map", "--lock", "--cert"]);

/** The words after the git-kb command word when `words` run the CLI, else undefined. */
function cliArgs(words: string[]): string[] | undefined {
  const [program, ...args] = commandWords(words);
  if (program === undefined) return undefined;
  if (LAUNCHER.test(baseName(program))) return args;
  if (baseName(program) !== "deno") return undefined;
  const mode = args[0];
  let index = 1;
  while (index < args.length && args[index].startsWith("-")) {
    if (DENO_VALUED.has(args[index])) index++;
    index++;
  }
  // `deno task get …` runs this repo's task; `deno run … app/main.ts get …` the CLI itself.
  if (mode === "task") return args.slice(index);
  if (mode === "run" && SCRIPT.test(baseName(args[index] ?? ""))) return args.slice(index + 1);
  return undefined;
}

/** Shells whose `-c` argument is a command line of its own. */
const SHELLS = new Set(["sh", "bash", "zsh", "dash"]);

/**
 * The arguments of every call of the CLI in a shell command line, in order: the launcher by any
 * path (quoted or not, through `env`, `sudo`, `sh -c`…), its bundle, a compiled binary,
 * `deno task …` and `deno run … app/main.ts …`.
 */
function cliCalls(command: string, depth = 0): string[][] {
  const calls: string[][] = [];
  for (const { words } of parseShell(command)) {
    const [program, ...rest] = commandWords(words);
    if (program && SHELLS.has(baseName(program)) && rest[0] === "-c" && depth < 2) {
      calls.push(...cliCalls(rest[1] ?? "", depth + 1));
      continue;
    }
    const args = cliArgs(words);
    if (args) calls.push(args);
  }
  return calls;
}

/** The entries one `git-kb get` of a command line fetches. */
export interface Fetched {
  /** The folder its `--kb` names, as written; undefined when it names none. */
  kbFlag?: string;
  /** The ids as typed, plain (`kb-7q2mx`) or with their knowledge base (`team:kb-7q2mx`). */
  ids: string[];
}

/**
 * What each `git-kb get` of a shell command line fetches (any spelling of the CLI, see
 * {@link cliCalls}), in order: the folder its `--kb` names (`--kb <dir>` or `--kb=<dir>`, the
 * last one given) and its ids, once each. Ids may be separated by blanks or commas, as `get`
 * accepts them; a call that names no id is left out.
 *
 * @example
 * ```ts
 * fetchedByKb("'/opt/my kb/plugin/bin/git-kb' get kb-7q2mx,kb-c0mw8 --kb ~/kb");
 * // [{ kbFlag: "~/kb", ids: ["kb-7q2mx", "kb-c0mw8"] }]
 * fetchedByKb("git-kb search token"); // []
 * ```
 */
export function fetchedByKb(command: string): Fetched[] {
  const found: Fetched[] = [];
  for (const args of cliCalls(command)) {
    if (args[0] !== "get") continue;
    let kbFlag: string | undefined;
    const words: string[] = [];
    for (let index = 1; index < args.length; index++) {
      if (args[index] === "--kb") kbFlag = args[++index];
      else if (args[index].startsWith("--kb=")) kbFlag = args[index].slice("--kb=".length);
      else words.push(args[index]);
    }
    const ids = typedIds(words).filter(isTypedEntryId);
    if (ids.length) found.push(kbFlag === undefined ? { ids } : { kbFlag, ids });
  }
  return found;
}

/** A configured knowledge base, as far as routing a fetch needs it. */
export interface FetchTarget {
  name: string;
  /** Its folder, absolute. */
  kbDir: string;
}

/**
 * The plain ids each knowledge base of `kbs` (the default first) was fetched from, by folder: an
 * id typed with its knowledge base's name goes to that one (a name not configured: nowhere, as
 * `get` fetched nothing); else to the one the call's `--kb` names (`folderOf` makes the flag a
 * folder); else to the one whose session ledger showed it (`shown`); else to the default.
 */
export function fetchesPerKb(
  kbs: readonly FetchTarget[],
  fetched: readonly Fetched[],
  folderOf: (flag: string) => string,
  shown: (kbDir: string, id: string) => boolean,
): Map<string, string[]> {
  const perKb = new Map<string, string[]>();
  const add = (kbDir: string, id: string) => {
    const ids = perKb.get(kbDir) ?? [];
    if (!ids.includes(id)) perKb.set(kbDir, [...ids, id]);
  };
  for (const { kbFlag, ids } of fetched) {
    const flagged = kbFlag === undefined
      ? undefined
      : kbs.find((kb) => kb.kbDir === folderOf(kbFlag));
    for (const typed of ids) {
      const { kb: name, id } = splitQualifiedId(typed);
      if (name !== undefined) {
        const named = kbs.find((kb) => kb.name === name);
        if (named) add(named.kbDir, id);
        continue;
      }
      const home = flagged ?? kbs.find((kb) => shown(kb.kbDir, id)) ?? kbs[0];
      if (home) add(home.kbDir, id);
    }
  }
  return perKb;
}

/** The options of `git-kb search` that take a value (the word after them is no query). */
const SEARCH_VALUED = new Set(["--type", "--tag", "--limit", "--kb"]);

/**
 * The words a shell command line searches for with `git-kb search` (any spelling of the CLI, see
 * {@link cliCalls}), lowercase, once each, stopwords and option values left out; the last
 * search's when there are several.
 *
 * @example
 * ```ts
 * searchedWords("git-kb search 'rotate the token' --limit 3"); // ["rotate", "token"]
 * ```
 */
export function searchedWords(command: string): string[] {
  let found: string[] = [];
  for (const args of cliCalls(command)) {
    if (args[0] !== "search") continue;
    const query: string[] = [];
    for (let index = 1; index < args.length; index++) {
      if (SEARCH_VALUED.has(args[index])) index++;
      else if (!args[index].startsWith("-")) query.push(args[index]);
    }
    const terms = query.join(" ").toLowerCase().split(/[^\p{L}\p{N}_.-]+/u)
      .map((word) => word.replace(/^[.-]+|[.-]+$/g, ""))
      .filter((word) => word.length > 1 && !STOPWORDS.has(word));
    if (terms.length) found = [...new Set(terms)];
  }
  return found;
}
