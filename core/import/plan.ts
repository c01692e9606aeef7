/**
 * What an import writes, pure: each source note becomes an entry, or updates the entry an
 * earlier import of the same note made (found by the `imported_folder` field, which names the
 * imported folder, and the `imported_from` field, which keeps the note's path inside it), or is
 * left unchanged. A note of one folder never updates the entry of another folder's note at the
 * same path; a folder moved to another path updates the entries of the notes that read as they
 * did. Wikilinks are resolved across
 * the imported notes and the knowledge base's own entries; each resolved one is a `[[kb-id]]`
 * mention in the body and a `related` link. A note that says it supersedes another gets a
 * `supersedes` link to it, and the other, when it comes in with the same import, the status
 * `superseded`.
 *
 * @module
 */
import { type Entry, type Link, serializeEntry } from "../entry/entry.ts";
import { slugify } from "../entry/edit.ts";
import { LIMITS, oneLineProblem } from "../entry/schema.ts";
import { fnv1a } from "../hash.ts";
import { basename } from "../path.ts";
import type { ImportedNote } from "./note.ts";
import { type LinkTarget, resolveWikilinks, wikilinkLookup } from "./wikilinks.ts";

/** The frontmatter field that names the source note an entry was imported from. */
export const IMPORTED_FROM = "imported_from";

/**
 * The file inside the folder that the source path of an imported note names: a section's key
 * (`CLAUDE.md#setup`, `MEMORY.md#deploys-2`) without the `#` and slug of its heading; a file whose
 * path holds a `#` itself (`C#.md`, `F#/Pipes.md`) as it is.
 */
export function sourceFile(sourcePath: string): string {
  return /^(.+\.(?:md|markdown|mdx|mdc))#[a-z0-9-]+$/i.exec(sourcePath)?.[1] ?? sourcePath;
}

/** The frontmatter field that names the folder an entry was imported from (see {@link folderKey}). */
export const IMPORTED_FOLDER = "imported_folder";

/**
 * The key of an imported folder, as {@link IMPORTED_FOLDER} keeps it: its name and a digest of its
 * full path (`vault-1f3a9c0e`), so two folders of one name are told apart without writing the
 * user's paths into the knowledge base.
 */
export function folderKey(absolutePath: string): string {
  const name = absolutePath.replace(/[/\\]+$/, "").split(/[/\\]/).pop() ?? "";
  return `${slugify(name)}-${fnv1a(absolutePath).toString(16).padStart(8, "0")}`;
}

/** An entry already in the knowledge base. */
export interface ExistingEntry {
  entry: Entry;
  /** Its file, `entries/<id>-<slug>.md`. */
  path: string;
  /** Its file's text as read, so the save refuses a file changed since. */
  text: string;
}

/** One file the import writes. */
export interface ImportChange {
  path: string;
  entry: Entry;
  /** The file's text before, for an update; undefined for a new entry. */
  previousText?: string;
}

/** The import's plan and what its report says. */
export interface ImportPlan {
  changes: ImportChange[];
  /** Ids of the entries added, updated and left as they were. */
  added: string[];
  updated: string[];
  unchanged: string[];
  /** How many wikilinks became `[[kb-id]]` mentions. */
  linksResolved: number;
  /** Wikilinks that named no note brought in, with the note they are in. */
  unresolved: UnresolvedLink[];
}

/** A wikilink (or relative link) that names no note brought in. */
export interface UnresolvedLink {
  /** The note it is in. */
  sourcePath: string;
  /** The name as written: a wikilink's name, a markdown link's target. */
  name: string;
  /** Set when a markdown link names it (`[text](gone.md)`), not a wikilink. */
  markdown?: true;
  /** The note of the folder it names, when that note was left out (too large, refused). */
  leftOut?: string;
}

/**
 * The entries earlier imports of the folder `folder` made, by the note's path: those that name
 * the folder, and those an import older than the folder field made (no `imported_folder`) when
 * the note still has their title and creation date, so a folder imported before keeps its entries
 * while another folder's note of the same path never takes them.
 */
function earlierImports(
  notes: readonly ImportedNote[],
  existing: readonly ExistingEntry[],
  folder: string,
): Map<string, ExistingEntry> {
  const bySource = new Map<string, ExistingEntry>();
  const unnamed = new Map<string, ExistingEntry>();
  for (const item of existing) {
    const from = item.entry.extra[IMPORTED_FROM];
    if (typeof from !== "string") continue;
    const named = item.entry.extra[IMPORTED_FOLDER];
    if (named === folder) bySource.set(from, item);
    else if (named === undefined) unnamed.set(from, item);
  }
  for (const note of notes) {
    const older = unnamed.get(note.sourcePath);
    if (
      older && !bySource.has(note.sourcePath) && older.entry.title === note.title &&
      older.entry.created === note.created
    ) {
      bySource.set(note.sourcePath, older);
    }
  }
  return bySource;
}

/**
 * A Dendron note's aliases, with its name in the vault's hierarchy (its file's name,
 * `dendron.topic.commands`) added when its title or an alias does not say it already and an
 * alias can hold it: a vault repeats titles ("Commands" under each tool), and only that name
 * tells them apart. A name too long for an alias is not added: the note comes in without it.
 */
function withDendronName(note: ImportedNote): string[] {
  const name = (basename(note.sourcePath) ?? "").replace(/\.md$/i, "");
  const said = [note.title, ...note.aliases].some((text) =>
    text.toLowerCase() === name.toLowerCase()
  );
  const fits = name.length <= LIMITS.maxKeywordChars &&
    note.aliases.length < LIMITS.maxListItems && oneLineProblem(name) === undefined;
  return name && fits && !said ? [...note.aliases, name] : note.aliases;
}

/**
 * Plan the import of `notes` of the folder keyed `folder` (see {@link folderKey}) into a knowledge
 * base holding `existing`. `newId` gives a fresh id that neither the knowledge base nor an earlier
 * call has. `dendron`: the folder is a Dendron vault (see `resolveWikilinks`).
 */
export function planImport(
  notes: readonly ImportedNote[],
  existing: readonly ExistingEntry[],
  newId: () => string,
  folder: string,
  dendron = false,
): ImportPlan {
  const earlier = earlierImports(notes, existing, folder);
  const moved = movedImports(notes, existing, folder, earlier);
  const plan = () => planWith(notes, existing, newId, { folder, dendron }, earlier, moved);
  const first = plan();
  if (!first.changedSinceMove.length) return first.plan;
  // Such a note is not taken for its moved entry: planned again, it comes in as a new one. A note
  // that changes only by linking to one of those (a new id) keeps its entry: planned once more.
  for (const sourcePath of first.changedSinceMove) moved.delete(sourcePath);
  return plan().plan;
}

/** The name of the folder a {@link folderKey} stands for, without the digest of its path. */
function folderName(key: string): string {
  return key.replace(/-[0-9a-f]{8}$/, "");
}

/**
 * The entries an import of this folder made when it was at another path, by the note's path: an
 * entry of a folder of the same name (another digest) with the note's path and title, and no
 * entry of this folder for it (`here`: see {@link earlierImports}). Each is a candidate only: {@link planWith} says which notes changed
 * since the entry was written, and those come in as new entries, so that a note of another folder
 * of the same name never replaces the entry of a different note.
 */
function movedImports(
  notes: readonly ImportedNote[],
  existing: readonly ExistingEntry[],
  folder: string,
  here: ReadonlyMap<string, ExistingEntry>,
): Map<string, ExistingEntry> {
  const name = folderName(folder);
  const candidates = new Map<string, ExistingEntry[]>();
  for (const item of existing) {
    const from = item.entry.extra[IMPORTED_FROM];
    const named = item.entry.extra[IMPORTED_FOLDER];
    if (typeof from !== "string" || typeof named !== "string") continue;
    if (named === folder || folderName(named) !== name) continue;
    candidates.set(from, [...candidates.get(from) ?? [], item]);
  }
  const moved = new Map<string, ExistingEntry>();
  if (!candidates.size) return moved;
  for (const note of notes) {
    if (here.has(note.sourcePath)) continue;
    const found = candidates.get(note.sourcePath)?.find((item) => item.entry.title === note.title);
    if (found) moved.set(note.sourcePath, found);
  }
  return moved;
}

/**
 * {@link planImport} with `earlier` (see {@link earlierImports}) and `moved` (see
 * {@link movedImports}) taken as earlier imports, and the notes of `moved` whose entry would
 * change besides naming this folder. `dendron`: the folder is a Dendron vault, whose links name
 * their note after their text.
 */
function planWith(
  notes: readonly ImportedNote[],
  existing: readonly ExistingEntry[],
  newId: () => string,
  { folder, dendron }: { folder: string; dendron: boolean },
  earlier: ReadonlyMap<string, ExistingEntry>,
  moved: ReadonlyMap<string, ExistingEntry>,
): { plan: ImportPlan; changedSinceMove: string[] } {
  const bySource = new Map([...earlier, ...moved]);
  const changedSinceMove: string[] = [];
  const ids = notes.map((note) => bySource.get(note.sourcePath)?.entry.id ?? newId());
  const targets: LinkTarget[] = notes.map((note, index) => ({
    id: ids[index],
    sourcePath: note.sourcePath,
    title: note.title,
    aliases: note.aliases,
  }));
  for (const { entry, path } of existing) {
    targets.push({ id: entry.id, sourcePath: path, title: entry.title, aliases: entry.aliases });
  }
  const lookup = wikilinkLookup(targets);
  // A Dendron name is a file's: looked up by paths and file names, with no title or alias.
  const dendronNote = dendron
    ? wikilinkLookup(targets.map((target) => ({ ...target, title: "", aliases: [] })))
    : undefined;
  const byPath = new Map(notes.map((note, index) => [note.sourcePath, ids[index]]));
  const pathLookup = (path: string) => byPath.get(path);
  const superseded = new Map<number, string[]>();
  const supersededIds = new Set<string>();
  const unresolvedSupersedes: ImportPlan["unresolved"] = [];
  notes.forEach((note, index) => {
    const to: string[] = [];
    for (const name of note.supersedes) {
      const id = lookup(name);
      if (!id) unresolvedSupersedes.push({ sourcePath: note.sourcePath, name });
      else if (id !== ids[index] && !to.includes(id)) to.push(id);
    }
    superseded.set(index, to);
    for (const id of to) supersededIds.add(id);
  });
  const plan: ImportPlan = {
    changes: [],
    added: [],
    updated: [],
    unchanged: [],
    linksResolved: 0,
    unresolved: unresolvedSupersedes,
  };
  notes.forEach((note, index) => {
    const id = ids[index];
    const status = supersededIds.has(id) && note.status === "active" ? "superseded" : note.status;
    const resolve = (text: string) =>
      resolveWikilinks(text, lookup, pathLookup, note.sourcePath, dendronNote);
    const resolved = resolve(note.body);
    // A link in a property (`up: "[[Parent]]"`) links the entry too; the property stays as written.
    const properties = resolve(propertyLinks(note.fields ?? {}));
    const linked = [...new Set([...resolved.linked, ...properties.linked])];
    plan.linksResolved += linked.length;
    const unresolved = [
      ...resolved.unresolved,
      ...properties.unresolved.filter((name) => !FILE_NAME.test(name)),
    ];
    for (const name of new Set(unresolved)) {
      const markdown = resolved.markdown.includes(name) ? { markdown: true as const } : {};
      plan.unresolved.push({ sourcePath: note.sourcePath, name, ...markdown });
    }
    const before = bySource.get(note.sourcePath);
    const aliases = dendron ? withDendronName(note) : note.aliases;
    const entry = entryOf(
      { ...note, status, aliases },
      id,
      { body: resolved.body, linked },
      superseded.get(index)!,
      before?.entry,
      folder,
    );
    if (before && moved.get(note.sourcePath) === before) {
      const asBefore = { ...entry.extra, [IMPORTED_FOLDER]: before.entry.extra[IMPORTED_FOLDER] };
      if (serializeEntry({ ...entry, extra: asBefore }) !== before.text) {
        changedSinceMove.push(note.sourcePath);
      }
    }
    if (!before) {
      plan.changes.push({ path: `entries/${id}-${slugify(entry.title)}.md`, entry });
      plan.added.push(id);
    } else if (serializeEntry(entry) === before.text) {
      plan.unchanged.push(id);
    } else {
      plan.changes.push({ path: before.path, entry, previousText: before.text });
      plan.updated.push(id);
    }
  });
  return { plan, changedSinceMove };
}

/** A file's name that is no note's, as a property names a banner or a cover: `cover.webp`. */
const FILE_NAME = /\.(?!(?:md|markdown|mdx)$)[a-z0-9]{1,8}$/i;

/**
 * The links a note's properties hold, one a line, to resolve as the body's are: Obsidian writes a
 * link property as `up: "[[Parent]]"`, or a list of them; YAML reads one written without quotes,
 * `up: [[Parent]]`, as a list holding a list of its name, `[["Parent"]]`, the same link.
 */
function propertyLinks(fields: Record<string, unknown>): string {
  const links: string[] = [];
  for (const value of Object.values(fields)) {
    for (const item of Array.isArray(value) ? value : [value]) {
      if (typeof item === "string" && item.includes("[[")) links.push(item);
      else if (Array.isArray(item) && item.length === 1 && typeof item[0] === "string") {
        links.push(`[[${item[0]}]]`);
      }
    }
  }
  return links.join("\n");
}

/**
 * The entry of a note. An update keeps what the knowledge base added to the entry (links of
 * its own, fields outside the contract, a kernel flag, a status of superseded or archived that
 * the note does not say: a promote or a review made it) and takes the rest from the note.
 */
function entryOf(
  note: ImportedNote,
  id: string,
  { body, linked }: { body: string; linked: readonly string[] },
  supersedes: readonly string[],
  before: Entry | undefined,
  folder: string,
): Entry {
  const declared: Link[] = [
    ...supersedes.map((to) => ({ rel: "supersedes" as const, to })),
    ...linked.filter((to) => to !== id && !supersedes.includes(to))
      .map((to) => ({ rel: "related" as const, to })),
  ];
  const kept = (before?.links ?? []).filter((link) =>
    !declared.some((other) => other.to === link.to)
  );
  const entry: Entry = {
    id,
    title: note.title,
    type: note.type,
    tags: note.tags,
    aliases: note.aliases,
    appliesTo: before?.appliesTo ?? [],
    kernel: before?.kernel ?? false,
    status: note.status === "active" && before ? before.status : note.status,
    created: note.created,
    updated: note.updated,
    links: [...kept, ...declared].slice(0, LIMITS.maxListItems),
    extra: {
      ...before?.extra,
      ...note.fields,
      [IMPORTED_FROM]: note.sourcePath,
      [IMPORTED_FOLDER]: folder,
    },
    body: body.endsWith("\n") ? body : `${body}\n`,
  };
  if (note.source) entry.source = note.source;
  return entry;
}
