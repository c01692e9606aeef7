/**
 * One call that finds the configured knowledge base and opens its up-to-date index: what every
 * read command and hook starts with.
 *
 * @module
 */
import { type KbLocation, resolveKb } from "./config.ts";
import { type OpenIndex, openIndex, type OpenOptions } from "./index_store.ts";

/** The knowledge base in use and its index. */
export interface OpenKb extends OpenIndex {
  location: KbLocation;
}

/** Resolve the knowledge base (flag, KB_DIR, config) and open its index. */
export async function openKb(flag: string | undefined, options: OpenOptions = {}): Promise<OpenKb> {
  const location = resolveKb(flag);
  return { location, ...await openIndex(location.kbDir, options) };
}
