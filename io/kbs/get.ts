/**
 * Entries by id from every knowledge base in use, as `git-kb get` and the MCP server's `get`
 * tool show them: the file verbatim, optionally with its links both directions; an id that is
 * not served comes back as the reason (left out of the index, in conflict, held by two
 * knowledge bases, or no such id).
 *
 * @module
 */
import { type Neighbour, neighbours } from "../../core/entry/links.ts";
import type { IndexReader } from "../../core/index/reader.ts";
import { join } from "../../core/path.ts";
import { shellCommand, shellQuote } from "../../core/shell/quote.ts";
import { qualifyId, splitQualifiedId } from "../../core/kbs/qualified.ts";
import { displaySafe } from "../../core/text/display.ts";
import { meantId } from "../../core/entry/identity.ts";
import { UnwritableCacheError } from "../fs.ts";
import { git } from "../git.ts";
import type { OpenKb } from "../index/open.ts";
import { READ_TRUST_MS, readIndexedEntry } from "../index/store.ts";
import { pathExists } from "../disk.ts";
import { kbCommand, selfCommand } from "../self_command.ts";
import { type NamedKb, readFromFilesReason, withKbs } from "./open.ts";

/** One entry as found. */
export interface Found {
  /** Its id; `name:id` where several knowledge bases are read. */
  id: string;
  /** Its file, relative to its knowledge base. */
  path: string;
  /** The file's text, verbatim. */
  text: string;
  /** Its links both directions, with titles, when asked for. */
  links?: Neighbour[];
}

/** The entries found, why each other id is not, and the knowledge bases that could not be read. */
export interface GetOutcome {
  found: Found[];
  /** One line per id not served, naming it and what to do. */
  reasons: string[];
  /** One line per knowledge base passed over. */
  skipped: string[];
  /**
   * Why the entries were read from their files rather than the index, when they were: the
   * index could not be brought up to date, as the cache took no write.
   */
  readFromFiles?: string;
}

/**
 * The entries `ids` name (each an id or `name:id`), looked up in every knowledge base in use
 * (`kbFlag`, else `KB_DIR`, else the config), with their links when `links` is set. When the
 * index cannot be brought up to date because the cache takes no write (a read-only cache, as in
 * an agent's sandbox), they are read from the entry files instead, and `readFromFiles` says why.
 */
export async function getEntries(
  kbFlag: string | undefined,
  ids: readonly string[],
  { links, steps }: { links?: boolean; steps?: NextSteps } = {},
): Promise<GetOutcome> {
  try {
    return await getIndexed(kbFlag, ids, links, steps);
  } catch (error) {
    if (!(error instanceof UnwritableCacheError)) throw error;
    // Loaded only here: it brings the entry parser and the YAML library with it.
    const { getFromFiles } = await import("./get_from_files.ts");
    return { ...getFromFiles(kbFlag, ids, links), readFromFiles: readFromFilesReason(error) };
  }
}

/**
 * How a reason an id is not served names what to do next: the CLI's commands (the default), or
 * an MCP server's own tools ({@link MCP_STEPS}), which are what its client can call.
 */
export interface NextSteps {
  /** The call that fetches entry `id`. */
  get(id: string): string;
  /** The call that finds entry ids. */
  search: string;
}

/** An MCP server's next steps: its `get` and `search` tools. */
export const MCP_STEPS: NextSteps = {
  get: (id) => `the get tool with ids ${JSON.stringify([id])}`,
  search: "the search tool",
};

/** The CLI's next steps, naming the knowledge base by `--kb` when the command did (`kb`). */
function cliSteps(kb: string): NextSteps {
  return {
    get: (id) => `${selfCommand()} get ${id}${kb}`,
    search: `${selfCommand()} search <words>${kb}`,
  };
}

/** {@link getEntries} through the index. */
function getIndexed(
  kbFlag: string | undefined,
  ids: readonly string[],
  links: boolean | undefined,
  steps: NextSteps | undefined,
): Promise<GetOutcome> {
  return withKbs(kbFlag, { trustStampMs: READ_TRUST_MS }, async ({ kbs, skipped, several }) => {
    const found: Found[] = [];
    const reasons: string[] = [];
    for (const typed of ids) {
      const outcome = await fetchOne(kbs, typed, {
        several,
        pinned: kbFlag !== undefined,
        links,
        steps,
      });
      if (typeof outcome === "string") reasons.push(outcome);
      else found.push(outcome);
    }
    return { found, reasons, skipped };
  });
}

/** An entry as a listing names it. */
export interface ListedEntry {
  /** Its id; `name:id` where several knowledge bases are read. */
  id: string;
  title: string;
  type: string;
  status: string;
}

/**
 * Every entry the knowledge bases in use serve (`kbFlag`, else `KB_DIR`, else the config), in
 * index order, the default knowledge base first.
 */
export function listEntries(kbFlag: string | undefined): Promise<ListedEntry[]> {
  return withKbs(
    kbFlag,
    { trustStampMs: READ_TRUST_MS },
    ({ kbs, several }) =>
      kbs.flatMap(({ name, reader }) => {
        const listed: ListedEntry[] = [];
        const { nextOrd, docCount } = reader.manifest;
        for (let ord = 0; ord < Math.max(nextOrd, docCount); ord++) {
          const doc = reader.meta(ord) && reader.doc(ord);
          if (!doc) continue;
          const id = several ? qualifyId(name, doc.id) : doc.id;
          listed.push({ id, title: doc.title, type: doc.type, status: doc.status });
        }
        return listed;
      }),
  );
}

/**
 * The entry `typed` (an id, or `name:id`) names, or why it is not printed: no knowledge base of
 * that name, an id that two knowledge bases hold (never one shadowing the other), or why no
 * knowledge base serves it.
 */
async function fetchOne(
  kbs: NamedKb[],
  typed: string,
  { several, pinned, links, steps }: {
    several: boolean;
    pinned: boolean;
    links?: boolean;
    steps?: NextSteps;
  },
): Promise<Found | string> {
  const { kb: wanted, id } = splitQualifiedId(typed);
  const searched = wanted === undefined ? kbs : kbs.filter((kb) => kb.name === wanted);
  if (!searched.length) return noKbNamed(typed, kbs.map((kb) => kb.name));
  const hits = searched.flatMap((kb) => {
    const item = lookUp(kb, id, links);
    return item ? [{ kb, item }] : [];
  });
  if (hits.length > 1) {
    return inSeveralKbs(
      id,
      hits.map(({ kb, item }) => ({ name: kb.name, kbDir: kb.location.kbDir, path: item.path })),
    );
  }
  if (hits.length === 1) {
    const [{ kb, item }] = hits;
    return several ? { ...item, id: qualifyId(kb.name, id) } : item;
  }
  const why = await Promise.all(searched.map((kb) => whyNotServed(kb, id, pinned, steps)));
  const served = why.findIndex((reason) => !reason.startsWith("no entry "));
  if (served < 0) return why.find((reason) => reason.includes(" ids start with kb-:")) ?? why[0];
  return several ? `${searched[served].name}: ${why[served]}` : why[served];
}

/** Why `typed` (`name:id`) is not served: no knowledge base read is named so (`names` are). */
export function noKbNamed(typed: string, names: readonly string[]): string {
  const { kb } = splitQualifiedId(typed);
  return `${typed}: no knowledge base named "${kb}" is read (${names.join(", ")}); see ` +
    `${selfCommand()} doctor`;
}

/** Why `id` is not served: several knowledge bases hold it, each at the file named. */
export function inSeveralKbs(
  id: string,
  hits: readonly { name: string; kbDir: string; path: string }[],
): string {
  const where = hits.map((hit) => `${hit.name}: ${join(hit.kbDir, hit.path)}`);
  const asks = hits.map((hit) => kbCommand("get", qualifyId(hit.name, id)));
  return `${id} is in ${hits.length} knowledge bases (${where.join("; ")}); ask for one: ` +
    asks.join(" or ");
}

/**
 * The entry `id` as printed, or undefined when the index does not serve it. Throws when the
 * index is damaged or names a path that does not lead to a regular file in `entries/`.
 */
function lookUp({ reader, location }: OpenKb, id: string, links?: boolean): Found | undefined {
  const doc = reader.docById(id);
  if (!doc) return undefined;
  const text = readIndexedEntry(location.kbDir, id, doc.path);
  return { id, path: doc.path, text, links: links ? neighbours(id, reader.links()) : undefined };
}

/**
 * Why the index does not serve `id`: it shares its id with another file, its file is in a
 * merge or rebase conflict (asked of git only here, on a miss), its file was left out, or no
 * file has it; `steps` say what to call next (the CLI's commands unless given).
 */
async function whyNotServed(
  { reader, location }: OpenKb,
  id: string,
  pinned: boolean,
  steps?: NextSteps,
): Promise<string> {
  const { kbDir } = location;
  const kb = pinned ? ` --kb ${shellQuote(kbDir)}` : "";
  const next = steps ?? cliSteps(kb);
  const leftOut = leftOutFiles(reader, id);
  const duplicate = leftOut.find((item) => item.duplicateOf === id);
  if (duplicate) return `${id} is not served: ${duplicate.message}`;
  const conflicted = await conflictedFiles(kbDir, id);
  if (conflicted.length) {
    return `${id} is in conflict (${conflicted.join(", ")}): finish the rebase or merge: ` +
      `fix the file, then run ${finishCommand(kbDir, conflicted)}`;
  }
  if (leftOut.length) {
    const [{ path, message }] = leftOut;
    return `${id} is not served: ${displaySafe(path)} was left out of the index: ` +
      `${message.replace(/\n\s*/g, "; ")}; fix it, then check with ${selfCommand()} doctor${kb}`;
  }
  const near = meantId(id, reader.entryIds());
  if (near === `kb-${id}`) return `no entry ${id}; ids start with kb-: ${next.get(near)}`;
  if (near) return `no entry ${id}; did you mean ${near}? ${next.get(near)}`;
  return `no entry ${id}; find ids with ${next.search}`;
}

/** The files the index left out that are, or claim to be, entry `id`. */
function leftOutFiles(reader: IndexReader, id: string) {
  return reader.manifest.invalid.filter((item) =>
    item.duplicateOf === id || item.path.startsWith(`entries/${id}-`)
  );
}

/**
 * The files of entry `id` that git lists as unmerged (`git ls-files -u`); none when git may not
 * be run or the folder is not a repository.
 */
async function conflictedFiles(kbDir: string, id: string): Promise<string[]> {
  if (Deno.permissions.querySync({ name: "run", command: "git" }).state !== "granted") return [];
  // get runs without an approval prompt (hooks/fetch_allow.ts): io/git.ts turns off
  // core.fsmonitor, the program git would run for ls-files, for every call.
  const args = ["ls-files", "-u", "-z", "--", `entries/${id}-*`];
  const result = await git(kbDir, args);
  if (result.code !== 0) return [];
  const paths = result.stdout.split("\0").filter(Boolean).map((line) => line.split("\t")[1]);
  return [...new Set(paths)].sort();
}

/** The commands that mark `files` resolved and go on with the rebase or merge in progress. */
function finishCommand(kbDir: string, files: string[]): string {
  const gitDir = join(kbDir, ".git");
  const rebasing = [join(gitDir, "rebase-merge"), join(gitDir, "rebase-apply")].some(pathExists);
  const next = rebasing ? ["rebase", "--continue"] : ["commit", "--no-edit"];
  return `${shellCommand(["git", "-C", kbDir, "add", "--", ...files])} && ` +
    shellCommand(["git", "-C", kbDir, ...next]);
}
