/**
 * The kinds of folder an import reads, pure: how a folder's kind is told from what it holds, and
 * how its files become notes in each kind. Agent instruction files (CLAUDE.md, AGENTS.md,
 * `.cursor/rules`) become rules in any kind but Claude's memory folder, which has none, and so
 * do the files a CLAUDE.md imports (`@docs/testing.md`, up to five hops, as Claude Code reads
 * them), since they are part of it.
 *
 * @module
 */
import { claudeImports, isAgentFile, readAgentFile, sectionsLeftOut } from "./agent_rules.ts";
import { join } from "../path.ts";
import {
  conceptHeader,
  isIndexFile,
  MEMORY_INDEX,
  readKnowledgeFolder,
  readMemoryFolder,
} from "./indexed.ts";
import { type ImportedNote, readNote, type SourceNote } from "./note.ts";

/** The kinds of folder, as `--from` names them. */
export const SOURCE_KINDS = [
  "obsidian",
  "dendron",
  "markdown",
  "knowledge",
  "claude-memory",
] as const;
/** A kind of folder. */
export type SourceKind = typeof SOURCE_KINDS[number];

/** What tells a folder's kind. */
export interface FolderFacts {
  /** The folder's own name, e.g. `knowledge`. */
  name: string;
  /** Whether it has an `.obsidian/` folder. */
  obsidian: boolean;
  /** Whether it has Dendron's `root.schema.yml` or `dendron.yml` at its top. */
  dendron: boolean;
  /** Its markdown files. */
  files: readonly SourceNote[];
}

/**
 * The kind of a folder: a vault has `.obsidian/`, a Dendron vault or workspace its
 * `root.schema.yml` or `dendron.yml`; Claude's memory folder a `MEMORY.md` at its
 * top; a `knowledge/` folder an index (`index.md`, `_index.md`) or its name, and concept files
 * (most of its other files start with `status:` / `timestamp:` lines); anything else is plain
 * markdown.
 */
export function detectKind({ name, obsidian, dendron, files }: FolderFacts): SourceKind {
  if (obsidian) return "obsidian";
  if (dendron) return "dendron";
  if (files.some((file) => file.path === MEMORY_INDEX)) return "claude-memory";
  const topics = files.filter((file) => !isIndexFile(file.path) && !isAgentFile(file.path));
  const concepts = topics.filter((file) => conceptHeader(file.text)).length;
  const indexed = files.some((file) => isIndexFile(file.path)) || /^knowledge$/i.test(name);
  return indexed && concepts > 0 && concepts * 2 >= topics.length ? "knowledge" : "markdown";
}

/** A note, and whether its source asks it to apply always (Cursor's `alwaysApply`). */
export type KindNote = ImportedNote & { alwaysApply?: boolean };

/** What {@link readFolderNotes} read. */
export interface FolderNotes {
  notes: KindNote[];
  /** The index files read for summaries. */
  indexes: string[];
  /** Sections of agent files that are no note, each by its key with why. */
  leftOut: { path: string; reason: string }[];
}

/** The notes of a folder's files read as `kind`, and what of them is no note. */
export function readFolderNotes(kind: SourceKind, files: readonly SourceNote[]): FolderNotes {
  if (kind === "claude-memory") {
    const indexes = files.some((file) => file.path === MEMORY_INDEX) ? [MEMORY_INDEX] : [];
    return { notes: readMemoryFolder(files), indexes, leftOut: [] };
  }
  const imported = importedByClaude(files);
  const isRules = (file: SourceNote) => isAgentFile(file.path) || imported.has(file.path);
  const agentFiles = files.filter(isRules);
  const others = files.filter((file) => !isRules(file));
  const rules = agentFiles.flatMap(readAgentFile);
  const leftOut = agentFiles.flatMap(sectionsLeftOut);
  if (kind === "knowledge") {
    const { notes, indexes } = readKnowledgeFolder(others);
    return { notes: [...notes, ...rules], indexes, leftOut };
  }
  return { notes: [...others.map(readNote), ...rules], indexes: [], leftOut };
}

/** How many hops of `@imports` Claude Code follows from a CLAUDE.md. */
const IMPORT_HOPS = 5;

/** The files of the folder that a CLAUDE.md imports, directly or through others. */
function importedByClaude(files: readonly SourceNote[]): Set<string> {
  const byPath = new Map(files.map((file) => [file.path, file]));
  const imported = new Set<string>();
  let reached = files.filter((file) => /(^|\/)CLAUDE(\.local)?\.md$/.test(file.path));
  for (let hop = 0; hop < IMPORT_HOPS && reached.length; hop++) {
    const next: SourceNote[] = [];
    for (const file of reached) {
      const folder = file.path.includes("/") ? file.path.slice(0, file.path.lastIndexOf("/")) : "";
      for (const target of claudeImports(file.text)) {
        const found = byPath.get(join(folder, target));
        if (found && !imported.has(found.path) && !isAgentFile(found.path)) {
          imported.add(found.path);
          next.push(found);
        }
      }
    }
    reached = next;
  }
  return imported;
}
