/**
 * `git-kb get <id>…`: entries verbatim, several at once; an id that is not served is reported
 * with the reason (left out, in conflict, or no such id) and the others still printed.
 *
 * @module
 */
import { type Neighbour, neighbours } from "../core/entry/links.ts";
import type { IndexReader } from "../core/index/reader.ts";
import { join } from "../core/path.ts";
import { shellCommand, shellQuote } from "../core/shell/quote.ts";
import { git } from "../io/git.ts";
import { qualifyId, splitQualifiedId } from "../core/kbs/qualified.ts";
import type { OpenKb } from "../io/index/open.ts";
import { type NamedKb, withKbs } from "../io/kbs/open.ts";
import { READ_TRUST_MS, readIndexedEntry } from "../io/index/store.ts";
import { type CommandSpec, helpText, parseCommand } from "./args.ts";
import { printJson, red, yellow } from "./output.ts";
import { pathExists } from "../io/disk.ts";
import { kbCommand, selfCommand } from "../io/self_command.ts";

/** The command: its usage, options and positionals. */
export const command = {
  usage: ["get <id>... [options]"],
  about: `Print entries exactly as stored, several at once. An id that is not served is
reported on stderr with the reason (exit 1) and the other entries are still
printed: the file was left out of the index (two files with one id, or a file
that breaks the contract), it is in a merge or rebase conflict, or no entry has it.
Where several knowledge bases are configured, every one is looked in; name one
with <name>:<id> (team:kb-7q2mx), as an id two of them hold must be.`,
  options: {
    links: {
      type: "boolean",
      help: "after each entry, list its linked entries (both directions) with titles",
    },
    json: { type: "boolean", help: "print [{id, path, text, links?}] as JSON" },
  },
  positionals: { name: "<id>", min: 1 },
} as const satisfies CommandSpec;

/** Help text. */
export const help: string = helpText(command);

/** One entry as printed. */
interface Found {
  id: string;
  path: string;
  text: string;
  links?: Neighbour[];
}

/** Run the command. */
export async function run(args: string[]): Promise<number> {
  const { values, positionals } = parseCommand(args, command.options, command);
  const ids = [...new Set(positionals.flatMap((arg) => arg.split(/[\s,]+/)).filter(Boolean))];
  const { found, reasons } = await withKbs(
    values.kb,
    { trustStampMs: READ_TRUST_MS },
    async ({ kbs, skipped, several }) => {
      for (const line of skipped) console.error(yellow(`git-kb get: ${line}`));
      const found: Found[] = [];
      const reasons: string[] = [];
      for (const typed of ids) {
        const outcome = await fetchOne(kbs, typed, {
          several,
          pinned: values.kb !== undefined,
          links: values.links,
        });
        if (typeof outcome === "string") reasons.push(outcome);
        else found.push(outcome);
      }
      return { found, reasons };
    },
  );
  for (const reason of reasons) console.error(red(`git-kb get: ${reason}`));
  if (values.json) printJson(found);
  else printEntries(found);
  return reasons.length ? 1 : 0;
}

/**
 * The entry `typed` (an id, or `name:id`) names, or why it is not printed: no knowledge base of
 * that name, an id that two knowledge bases hold (never one shadowing the other), or why no
 * knowledge base serves it.
 */
async function fetchOne(
  kbs: NamedKb[],
  typed: string,
  { several, pinned, links }: { several: boolean; pinned: boolean; links?: boolean },
): Promise<Found | string> {
  const { kb: wanted, id } = splitQualifiedId(typed);
  const searched = wanted === undefined ? kbs : kbs.filter((kb) => kb.name === wanted);
  if (!searched.length) {
    return `${typed}: no knowledge base named "${wanted}" is read (${
      kbs.map((kb) => kb.name).join(", ")
    }); see ${selfCommand()} doctor`;
  }
  const hits = searched.flatMap((kb) => {
    const item = lookUp(kb, id, links);
    return item ? [{ kb, item }] : [];
  });
  if (hits.length > 1) {
    const where = hits.map(({ kb, item }) => `${kb.name}: ${join(kb.location.kbDir, item.path)}`);
    const asks = hits.map(({ kb }) => kbCommand("get", qualifyId(kb.name, id)));
    return `${id} is in ${hits.length} knowledge bases (${where.join("; ")}); ask for one: ` +
      asks.join(" or ");
  }
  if (hits.length === 1) {
    const [{ kb, item }] = hits;
    return several ? { ...item, id: qualifyId(kb.name, id) } : item;
  }
  const why = await Promise.all(searched.map((kb) => whyNotServed(kb, id, pinned)));
  const served = why.findIndex((reason) => !reason.startsWith("no entry "));
  if (served < 0) return why[0];
  return several ? `${searched[served].name}: ${why[served]}` : why[served];
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

function printEntries(found: Found[]): void {
  found.forEach((item, index) => {
    if (index) console.log();
    Deno.stdout.writeSync(
      new TextEncoder().encode(item.text.endsWith("\n") ? item.text : `${item.text}\n`),
    );
    if (item.links?.length) {
      console.log(`Links of ${item.id}:`);
      for (const link of item.links) {
        console.log(
          `  ${link.direction === "out" ? "→" : "←"} ${link.rel} ${link.id} ${
            link.title ?? "(missing)"
          }`,
        );
      }
    }
  });
}

/**
 * Why the index does not serve `id`: it shares its id with another file, its file is in a
 * merge or rebase conflict (asked of git only here, on a miss), its file was left out, or no
 * file has it.
 */
async function whyNotServed(
  { reader, location }: OpenKb,
  id: string,
  pinned: boolean,
): Promise<string> {
  const { kbDir } = location;
  const kb = pinned ? ` --kb ${shellQuote(kbDir)}` : "";
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
    return `${id} is not served: ${path} was left out of the index: ` +
      `${message.replace(/\n\s*/g, "; ")}; fix it, then check with ${selfCommand()} doctor${kb}`;
  }
  return `no entry ${id}; find ids with ${selfCommand()} search <words>${kb}`;
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
  const result = await git(kbDir, ["ls-files", "-u", "-z", "--", `entries/${id}-*`]);
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
