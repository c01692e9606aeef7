/**
 * An entry's identity, in one place: whether a value is an entry id, the id a file's name carries
 * (`entries/<id>-<slug>.md`, spec/entry-format.md), a file name given another id, and the id a
 * mistyped one meant. The id's
 * shape itself is `ID_PATTERN` in `schema.ts`, beside the rest of the vocabulary.
 *
 * @module
 */
import { fnv1a } from "../hash.ts";
import { closestWord } from "../text/closest.ts";
import { ID_PATTERN } from "./schema.ts";

/** How many characters an id has: `kb-` and five. */
const ID_LENGTH = 8;

/** Whether `value` is an entry id: `kb-` and five characters of `[0-9a-z]`. */
export function isEntryId(value: unknown): value is string {
  return typeof value === "string" && ID_PATTERN.test(value);
}

/**
 * The id a file's name starts with, in any folder: `entries/kb-7q2mx-slug.md` and
 * `entries/kb-7q2mx.md` → `kb-7q2mx`; undefined when the name does not start with a whole id
 * followed by `-` or `.md`.
 */
export function idFromPath(path: string): string | undefined {
  const name = path.slice(path.lastIndexOf("/") + 1);
  const id = name.slice(0, ID_LENGTH);
  return isEntryId(id) && /^(-|\.md$)/.test(name.slice(ID_LENGTH)) ? id : undefined;
}

/**
 * A file name (no folder) under `id`: `<id>-` before it, in place of the id it starts with, if
 * any (`kb-old00-keys.md` → `kb-new00-keys.md`, `keys.md` → `kb-new00-keys.md`).
 */
export function nameWithId(name: string, id: string): string {
  const own = idFromPath(name) && name[ID_LENGTH] === "-";
  return `${id}-${own ? name.slice(ID_LENGTH + 1) : name}`;
}

/**
 * The id a file that names none is given, the same each time for the same `seed` (its path): so
 * the rewrite `doctor --fix` shows is the one `doctor --fix --write` makes. None of `taken`.
 */
export function idForFile(seed: string, taken: { has(id: string): boolean }): string {
  for (let round = 0;; round++) {
    const id = `kb-${(fnv1a(`${seed}#${round}`) % 36 ** 5).toString(36).padStart(5, "0")}`;
    if (!taken.has(id)) return id;
  }
}

/**
 * The id of `ids` that `typed`, which none of them is, most likely meant, for a "did you mean":
 * `typed` in lower case (`KB-7Q2MX`), with `kb-` before it (`7q2mx`), or an id one or two
 * characters off (`kb-7q2nx`); undefined when none is near.
 *
 * @example
 * ```ts
 * meantId("kb-7q2nx", ["kb-7q2mx", "kb-3hd8w"]); // "kb-7q2mx"
 * ```
 */
export function meantId(typed: string, ids: Iterable<string>): string | undefined {
  const known = new Set(ids);
  const lower = typed.trim().toLowerCase();
  const exact = [lower, `kb-${lower}`].find((guess) => guess !== typed && known.has(guess));
  return exact ?? (isEntryId(lower) ? closestWord(lower, known) : undefined);
}
