/**
 * Entry ids across several knowledge bases: where more than one is configured, an id carries its
 * knowledge base's name (`team:kb-7q2mx`), in results, pointers and on the command line. A name
 * never holds `:`, and neither does an id, so the first `:` splits them.
 *
 * @module
 */
import { isEntryId } from "../entry/identity.ts";

/** What a knowledge base's name must look like: it prefixes ids, so no `:` and no spaces. */
export const KB_NAME_PATTERN = /^[a-z0-9][a-z0-9_-]{0,31}$/;

/** `id` as shown where several knowledge bases are read: `team:kb-7q2mx`. */
export function qualifyId(name: string, id: string): string {
  return `${name}:${id}`;
}

/** An id as typed: the knowledge base it names, if any, and the plain id. */
export interface QualifiedId {
  /** The knowledge base's name, when the id carried one. */
  kb?: string;
  /** The entry id itself. */
  id: string;
}

/** Split `team:kb-7q2mx` into its name and id; an id without a name is returned as it is. */
export function splitQualifiedId(text: string): QualifiedId {
  const at = text.indexOf(":");
  return at < 0 ? { id: text } : { kb: text.slice(0, at), id: text.slice(at + 1) };
}

/** Whether `text` is an entry id as typed: bare (`kb-7q2mx`) or with a name (`team:kb-7q2mx`). */
export function isTypedEntryId(text: string): boolean {
  const { kb, id } = splitQualifiedId(text);
  return isEntryId(id) && (kb === undefined || KB_NAME_PATTERN.test(kb));
}

/**
 * Ids as typed, in order and each once: every argument split at spaces and commas, so
 * `"kb-7q2mx, kb-r4b9t"` names two.
 */
export function typedIds(args: readonly string[]): string[] {
  return [...new Set(args.flatMap((arg) => arg.split(/[\s,]+/)).filter(Boolean))];
}

/**
 * One list from several ranked ones, taking each list's first, then each one's second, and so
 * on (lists in the order given): a merge by rank, for rankings whose scores are not on one scale.
 */
export function interleave<T>(lists: readonly (readonly T[])[]): T[] {
  const merged: T[] = [];
  const longest = Math.max(0, ...lists.map((list) => list.length));
  for (let rank = 0; rank < longest; rank++) {
    for (const list of lists) if (rank < list.length) merged.push(list[rank]);
  }
  return merged;
}
