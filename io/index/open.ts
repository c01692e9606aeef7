/**
 * One call that finds the configured knowledge base and opens its up-to-date index: what every
 * read command and hook starts with.
 *
 * @module
 */
import { DamagedIndexError } from "../../core/index/reader.ts";
import { type KbLocation, resolveKb } from "../config.ts";
import { type OpenIndex, openIndex, type OpenOptions, UnsafeEntryPathError } from "./store.ts";

/** The knowledge base in use and its index. */
export interface OpenKb extends OpenIndex {
  /** Where the knowledge base is and which rule found it. */
  location: KbLocation;
}

/** Resolve the knowledge base (flag, KB_DIR, config) and open its index. */
export async function openKb(flag: string | undefined, options: OpenOptions = {}): Promise<OpenKb> {
  const location = resolveKb(flag);
  return { location, ...await openIndex(location.kbDir, options) };
}

/**
 * Open the knowledge base's index and run `use` on it. When the index turns out damaged on the
 * way ({@link DamagedIndexError}, or a record naming a path outside `entries/`), rebuild it from
 * the entry files and run `use` once more: a command answers instead of failing.
 */
export async function withKb<T>(
  flag: string | undefined,
  options: OpenOptions,
  use: (kb: OpenKb) => T | Promise<T>,
): Promise<T> {
  try {
    return await use(await openKb(flag, options));
  } catch (error) {
    if (!(error instanceof DamagedIndexError || error instanceof UnsafeEntryPathError)) throw error;
    return await use(await openKb(flag, { ...options, full: true }));
  }
}
