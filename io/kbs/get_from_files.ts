/**
 * Entries by id read from the entry files themselves, for `git-kb get` and the MCP server when
 * the index cannot be brought up to date (the cache takes no write: a read-only cache, as in an
 * agent's sandbox). Slower than the index, and plainer in why an id is not served: a file left
 * out of the index is not named.
 *
 * @module
 */
import { type LinkRowLike, neighbours } from "../../core/entry/links.ts";
import { readEntryForgivingly } from "../../core/entry/repair.ts";
import { qualifyId, splitQualifiedId } from "../../core/kbs/qualified.ts";
import { join } from "../../core/path.ts";
import { resolveKbs } from "../config.ts";
import { listEntryFiles, readKbFile } from "../kb.ts";
import { selfCommand } from "../self_command.ts";
import { type Found, type GetOutcome, inSeveralKbs, noKbNamed } from "./get.ts";

/** An entry as read from its file, without the index. */
interface OnDisk {
  id: string;
  title: string;
  links: readonly { rel: string; to: string }[];
  path: string;
  text: string;
}

/**
 * The entries of the knowledge base at `kbDir` read from their files, forgivingly as the index
 * reads them; only the files whose text holds one of `mentioning`, when it is given. A file that
 * cannot be read as an entry is passed over.
 */
function entriesOnDisk(kbDir: string, mentioning?: readonly string[]): OnDisk[] {
  const today = new Date().toISOString().slice(0, 10);
  return listEntryFiles(kbDir).entries.flatMap((path) => {
    let text: string;
    try {
      text = readKbFile(kbDir, path);
    } catch {
      return [];
    }
    if (mentioning && !mentioning.some((id) => text.includes(id))) return [];
    const { entry } = readEntryForgivingly(text, { path, fallbackDate: () => today });
    return entry ? [{ id: entry.id, title: entry.title, links: entry.links, path, text }] : [];
  });
}

/**
 * `getEntries` (io/kbs/get.ts) from the entry files, for when the index cannot be brought up to
 * date: each knowledge base's files are read (only those that mention an id asked for, unless
 * `links` wants every entry's links), and an id is served from the one file that has it.
 */
export function getFromFiles(
  kbFlag: string | undefined,
  ids: readonly string[],
  links: boolean | undefined,
): GetOutcome {
  const { kbs } = resolveKbs(kbFlag);
  const several = kbs.length > 1;
  const mentioning = links ? undefined : ids.map((typed) => splitQualifiedId(typed).id);
  const skipped: string[] = [];
  let failure: unknown;
  const read = kbs.flatMap((kb) => {
    try {
      return [{ ...kb, entries: entriesOnDisk(kb.kbDir, mentioning) }];
    } catch (error) {
      failure ??= error;
      skipped.push(`${kb.name} (${kb.kbDir}) is not read: ${(error as Error).message}`);
      return [];
    }
  });
  if (!read.length) throw failure;
  const found: Found[] = [];
  const reasons: string[] = [];
  for (const typed of ids) {
    const { kb: wanted, id } = splitQualifiedId(typed);
    const searched = wanted === undefined ? read : read.filter((kb) => kb.name === wanted);
    if (!searched.length) {
      reasons.push(noKbNamed(typed, read.map((kb) => kb.name)));
      continue;
    }
    const hits = searched.flatMap((kb) =>
      kb.entries.filter((entry) => entry.id === id).map((entry) => ({ ...kb, entry }))
    );
    if (hits.length > 1 && new Set(hits.map((hit) => hit.kbDir)).size === hits.length) {
      reasons.push(inSeveralKbs(id, hits.map((hit) => ({ ...hit, path: hit.entry.path }))));
    } else if (hits.length > 1) {
      const paths = hits.map((hit) => join(hit.kbDir, hit.entry.path));
      reasons.push(
        `${id} is not served: ${paths.join(" and ")} each have it; ${selfCommand()} ` +
          "doctor names the fix",
      );
    } else if (!hits.length) {
      const where = searched.map((kb) => join(kb.kbDir, "entries")).join(", ");
      reasons.push(`no entry ${id}: no file in ${where} has it`);
    } else {
      const [{ name, entries, entry }] = hits;
      found.push({
        id: several ? qualifyId(name, id) : id,
        path: entry.path,
        text: entry.text,
        links: links ? neighbours(id, linkRows(entries)) : undefined,
      });
    }
  }
  return { found, reasons, skipped };
}

/** Every link of `entries` as the index lists it, with the titles of both ends. */
function linkRows(entries: readonly OnDisk[]): LinkRowLike[] {
  const titles = new Map(entries.map((entry) => [entry.id, entry.title]));
  return entries.flatMap((entry) =>
    entry.links.map(({ rel, to }): LinkRowLike => [
      entry.id,
      rel,
      to,
      entry.title,
      titles.get(to) ?? null,
    ])
  );
}
