/**
 * Ranked search over every knowledge base in use, as `git-kb search` and the MCP server's
 * `search` tool show it: several queries fused into one ranking per knowledge base, the
 * rankings merged, each hit with its snippet and its links both directions.
 *
 * @module
 */
import { splitFrontmatter } from "../../core/entry/frontmatter.ts";
import { neighbours } from "../../core/entry/links.ts";
import { mergeHits } from "../../core/kbs/hits.ts";
import { qualifyId } from "../../core/kbs/qualified.ts";
import { search, type SearchOptions } from "../../core/search/rank.ts";
import { makeSnippet } from "../../core/text/snippet.ts";
import { plural } from "../../core/text/plural.ts";
import { kbCommand } from "../self_command.ts";
import { READ_TRUST_MS, readIndexedEntry } from "../index/store.ts";
import { type OpenKbs, withKbsOrFiles } from "./open.ts";

/** A search hit as shown. */
export interface HitView {
  /** The entry's id; `name:id` where several knowledge bases are read. */
  id: string;
  /** The knowledge base's name, where several are read. */
  kb?: string;
  title: string;
  type: string;
  status: string;
  score: number;
  path: string;
  snippet: string;
  tags: string[];
  matched: string[];
  links: { rel: string; direction: "out" | "in"; id: string; title?: string }[];
}

/** A knowledge base searched whose index left files under entries/ out (not searched). */
export interface LeftOut {
  kbDir: string;
  /** How many files. */
  files: number;
}

/**
 * The line a search that found nothing says of `leftOut`: an entry the index left out (a conflict,
 * a broken file) may be the one looked for; the doctor that names why, and how to fix each.
 */
export function leftOutNote({ kbDir, files }: LeftOut): string {
  return `${plural(files, "file", "files")} under entries/ left out of the index, not searched; ` +
    `why, and how to fix each: ${kbCommand("doctor", "--kb", kbDir)}`;
}

/**
 * The hits, one line for each knowledge base that could not be read, and each one searched
 * whose index left files out.
 */
export interface SearchOutcome {
  hits: HitView[];
  skipped: string[];
  leftOut: LeftOut[];
  /**
   * Why the entries were read from their files rather than the index, when they were: the
   * index could not be brought up to date, as the cache took no write.
   */
  readFromFiles?: string;
}

/** The body of entry `id` at `path` (as the index gave it: checked to lie in entries/), or "". */
function readBody(kbDir: string, id: string, path: string): string {
  try {
    return splitFrontmatter(readIndexedEntry(kbDir, id, path), path).body;
  } catch {
    return "";
  }
}

/**
 * Search every knowledge base in use (`kbFlag`, else `KB_DIR`, else the config) for `queries`
 * (non-blank), fused into one ranking. When the index cannot be brought up to date because the
 * cache takes no write, it is built in memory from the entry files, and `readFromFiles` says why.
 */
export async function searchKbs(
  kbFlag: string | undefined,
  queries: readonly string[],
  options: SearchOptions & { limit: number },
): Promise<SearchOutcome> {
  const { value, readFromFiles } = await withKbsOrFiles(
    kbFlag,
    { trustStampMs: READ_TRUST_MS },
    (opened) => rankAll(opened, queries, options),
  );
  return readFromFiles === undefined ? value : { ...value, readFromFiles };
}

/** The hits of `queries` in the knowledge bases `opened`, merged into one ranking. */
function rankAll(
  { kbs, skipped, several }: OpenKbs,
  queries: readonly string[],
  options: SearchOptions & { limit: number },
): SearchOutcome {
  const byName = new Map(kbs.map((kb) => [kb.name, kb]));
  const merged = mergeHits(
    kbs.map((kb) => ({ kb: kb.name, hits: search(kb.reader, [...queries], options) })),
    options.limit,
  );
  const hits = merged.map(({ doc, score, terms, kb: name }): HitView => {
    const { reader, location } = byName.get(name)!;
    const shown = (id: string) => several ? qualifyId(name, id) : id;
    return {
      id: shown(doc.id),
      ...several ? { kb: name } : {},
      title: doc.title,
      type: doc.type,
      status: doc.status,
      score: Number(score.toFixed(4)),
      path: doc.path,
      snippet: makeSnippet(readBody(location.kbDir, doc.id, doc.path), terms),
      tags: doc.tags,
      matched: terms,
      links: neighbours(doc.id, reader.links()).map((link) => ({ ...link, id: shown(link.id) })),
    };
  });
  const leftOut = kbs.filter((kb) => kb.reader.manifest.invalid.length).map((kb) => ({
    kbDir: kb.location.kbDir,
    files: kb.reader.manifest.invalid.length,
  }));
  return { hits, skipped, leftOut };
}
