/**
 * Delivery receipts, pure: which entry ids a shell command fetches with `git-kb get`, and the
 * per-session record of fetched ids and of prompts that matched nothing, bounded in size. What a
 * session was shown is its ledger (core/surface.ts `Ledger`); receipts hold only the rest.
 *
 * @module
 */
import { ID_PATTERN } from "./schema.ts";
import { commandWords, parseShell } from "./shell.ts";

/** What a session did with the knowledge base beyond what it was shown. */
export interface Receipts {
  /** Entry ids fetched with `git-kb get`, first fetch first. */
  fetched: string[];
  /** Prompts that matched no entry: how many, and how often each of their words came up. */
  unmatched: { prompts: number; words: Record<string, number> };
}

/** The bounds of one session's receipts. */
export const RECEIPT_LIMITS = {
  /** Fetched ids kept; later ones are dropped. */
  fetched: 200,
  /** Distinct words of unmatched prompts kept; the rarest go first. */
  words: 60,
  /** Words taken from one unmatched prompt. */
  wordsPerPrompt: 8,
};

/** Receipts of a session that did nothing yet. */
export function emptyReceipts(): Receipts {
  return { fetched: [], unmatched: { prompts: 0, words: {} } };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Receipts from parsed JSON: whatever is malformed counts as empty. */
export function parseReceipts(data: unknown): Receipts {
  const receipts = emptyReceipts();
  if (!isObject(data)) return receipts;
  if (Array.isArray(data.fetched)) {
    receipts.fetched = data.fetched.filter((id): id is string =>
      typeof id === "string" && ID_PATTERN.test(id)
    ).slice(0, RECEIPT_LIMITS.fetched);
  }
  const unmatched = data.unmatched;
  if (isObject(unmatched)) {
    const prompts = unmatched.prompts;
    if (typeof prompts === "number" && Number.isInteger(prompts) && prompts > 0) {
      receipts.unmatched.prompts = prompts;
    }
    if (isObject(unmatched.words)) {
      for (const [word, count] of Object.entries(unmatched.words)) {
        if (typeof count === "number" && count > 0) receipts.unmatched.words[word] = count;
      }
    }
  }
  return receipts;
}

/** `receipts` with `ids` added to the fetched ids (once each, within the bound). */
export function withFetched(receipts: Receipts, ids: string[]): Receipts {
  const fetched = [...receipts.fetched];
  for (const id of ids) {
    if (!fetched.includes(id) && fetched.length < RECEIPT_LIMITS.fetched) fetched.push(id);
  }
  return { ...receipts, fetched };
}

/**
 * `receipts` with one more unmatched prompt whose words were `words` (the first
 * {@link RECEIPT_LIMITS.wordsPerPrompt} distinct ones count); past the bound, the words seen
 * least (and, among those, last) are dropped.
 */
export function withUnmatched(receipts: Receipts, words: string[]): Receipts {
  const counts = { ...receipts.unmatched.words };
  for (const word of [...new Set(words)].slice(0, RECEIPT_LIMITS.wordsPerPrompt)) {
    counts[word] = (counts[word] ?? 0) + 1;
  }
  const kept = Object.entries(counts).map((item, order) => ({ item, order }))
    .sort((a, b) => b.item[1] - a.item[1] || a.order - b.order)
    .slice(0, RECEIPT_LIMITS.words).sort((a, b) => a.order - b.order).map(({ item }) => item);
  return {
    ...receipts,
    unmatched: { prompts: receipts.unmatched.prompts + 1, words: Object.fromEntries(kept) },
  };
}

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
  // `deno task get …` runs this repo's task; `deno run … cli/main.ts get …` the CLI itself.
  if (mode === "task") return args.slice(index);
  if (mode === "run" && SCRIPT.test(baseName(args[index] ?? ""))) return args.slice(index + 1);
  return undefined;
}

/** Shells whose `-c` argument is a command line of its own. */
const SHELLS = new Set(["sh", "bash", "zsh", "dash"]);

/**
 * The entry ids a shell command line fetches with `git-kb get`, in order, once each: the
 * launcher by any path (quoted or not, through `env`, `sudo`, `sh -c`…), its bundle, a compiled
 * binary, `deno task get` and `deno run … cli/main.ts get`. Ids may be separated by blanks or
 * commas, as `get` accepts them.
 *
 * @example
 * ```ts
 * fetchedIds("'/opt/my kb/plugin/bin/git-kb' get kb-7q2mx,kb-c0mw8 --kb ~/kb"); // ["kb-7q2mx", "kb-c0mw8"]
 * fetchedIds("git-kb search token"); // []
 * ```
 */
export function fetchedIds(command: string, depth = 0): string[] {
  const ids: string[] = [];
  for (const { words } of parseShell(command)) {
    const [program, ...rest] = commandWords(words);
    if (program && SHELLS.has(baseName(program)) && rest[0] === "-c" && depth < 2) {
      ids.push(...fetchedIds(rest[1] ?? "", depth + 1));
      continue;
    }
    const args = cliArgs(words);
    if (args?.[0] !== "get") continue;
    for (const arg of args.slice(1)) {
      for (const id of arg.split(/[\s,]+/)) if (ID_PATTERN.test(id)) ids.push(id);
    }
  }
  return [...new Set(ids)];
}
