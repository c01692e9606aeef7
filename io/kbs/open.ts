/**
 * Every configured knowledge base with its up-to-date index: what the read commands (search,
 * get) start with when several are configured. A knowledge base that cannot be opened (its
 * folder gone, not a knowledge base) is passed over with the reason, for the command to warn;
 * only when none opens does the first failure stand.
 *
 * @module
 */
import { DamagedIndexError } from "../../core/index/reader.ts";
import { type KnowledgeBase, resolveKbs } from "../config.ts";
import { UnwritableCacheError } from "../fs.ts";
import type { OpenKb } from "../index/open.ts";
import {
  type OpenIndex,
  openIndex,
  type OpenOptions,
  UnsafeEntryPathError,
} from "../index/store.ts";

/** One knowledge base in use, its name and its index. */
export interface NamedKb extends OpenKb {
  /** Its name in the config (from its folder for `--kb` and `KB_DIR`). */
  name: string;
}

/** The knowledge bases that opened, the default first, and those that did not, with why. */
export interface OpenKbs {
  /** At least one. */
  kbs: NamedKb[];
  /** One line per knowledge base passed over: its name, folder and the reason. */
  skipped: string[];
  /** Whether more than one is in use (opened or not): ids are then shown as `name:id`. */
  several: boolean;
}

async function openAll(
  kbs: readonly KnowledgeBase[],
  source: string,
  open: (kbDir: string) => OpenIndex | Promise<OpenIndex>,
): Promise<OpenKbs> {
  const opened: OpenKbs = { kbs: [], skipped: [], several: kbs.length > 1 };
  let failure: unknown;
  for (const kb of kbs) {
    try {
      const location = { kbDir: kb.kbDir, source, name: kb.name };
      opened.kbs.push({ name: kb.name, location, ...await open(kb.kbDir) });
    } catch (error) {
      if (isDamage(error)) throw error;
      failure ??= error;
      opened.skipped.push(`${kb.name} (${kb.kbDir}) is not read: ${(error as Error).message}`);
    }
  }
  if (!opened.kbs.length) throw failure;
  return opened;
}

function isDamage(error: unknown): boolean {
  return error instanceof DamagedIndexError || error instanceof UnsafeEntryPathError;
}

/**
 * Open every knowledge base in use (`--kb`, `KB_DIR` or the config: see io/config.ts) and run
 * `use` on them. When an index turns out damaged on the way, rebuild them from the entry files
 * and run `use` once more, as `withKb` (io/index/open.ts) does for one.
 */
export async function withKbs<T>(
  flag: string | undefined,
  options: OpenOptions,
  use: (opened: OpenKbs) => T | Promise<T>,
): Promise<T> {
  const { kbs, source } = resolveKbs(flag);
  try {
    return await use(await openAll(kbs, source, (kbDir) => openIndex(kbDir, options)));
  } catch (error) {
    if (!isDamage(error)) throw error;
    return await use(
      await openAll(kbs, source, (kbDir) => openIndex(kbDir, { ...options, full: true })),
    );
  }
}

/**
 * {@link withKbs}, but when a cache takes no write ({@link UnwritableCacheError}: a read-only
 * cache, as in an agent's sandbox), `use` runs on indexes built in memory from the entry files
 * instead (slower, the same answers), and `readFromFiles` says why.
 */
export async function withKbsOrFiles<T>(
  flag: string | undefined,
  options: OpenOptions,
  use: (opened: OpenKbs) => T | Promise<T>,
): Promise<{ value: T; readFromFiles?: string }> {
  try {
    return { value: await withKbs(flag, options, use) };
  } catch (error) {
    if (!(error instanceof UnwritableCacheError)) throw error;
    // Loaded only here: it brings the entry parser and the YAML library with it.
    const { indexInMemory } = await import("../index/in_memory.ts");
    const { kbs, source } = resolveKbs(flag);
    return {
      value: await use(await openAll(kbs, source, indexInMemory)),
      readFromFiles: readFromFilesReason(error),
    };
  }
}

/** Why a read command read the entry files rather than the index: the cache took no write. */
export function readFromFilesReason(error: UnwritableCacheError): string {
  return "the index could not be brought up to date, so the entries were read from their " +
    `files: ${error.message}`;
}
