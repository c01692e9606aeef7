/**
 * The kinds of folder an import reads, pure: how a folder's kind is told from what it holds, and
 * how its files become notes in each kind. Agent instruction files (CLAUDE.md, AGENTS.md,
 * `.cursor/rules`) become rules in any kind but Claude's memory folder, which has none.
 *
 * @module
 */
import { isAgentFile, readAgentFile } from "./agent_rules.ts";
import {
  conceptHeader,
  isIndexFile,
  MEMORY_INDEX,
  readKnowledgeFolder,
  readMemoryFolder,
} from "./indexed.ts";
import { type ImportedNote, readNote, type SourceNote } from "./note.ts";

/** The kinds of folder, as `--from` names them. */
export const SOURCE_KINDS = ["obsidian", "markdown", "knowledge", "claude-memory"] as const;
/** A kind of folder. */
export type SourceKind = typeof SOURCE_KINDS[number];

/** What tells a folder's kind. */
export interface FolderFacts {
  /** The folder's own name, e.g. `knowledge`. */
  name: string;
  /** Whether it has an `.obsidian/` folder. */
  obsidian: boolean;
  /** Its markdown files. */
  files: readonly SourceNote[];
}

/**
 * The kind of a folder: a vault has `.obsidian/`; Claude's memory folder a `MEMORY.md` at its
 * top; a `knowledge/` folder an index (`index.md`, `_index.md`) or its name, and concept files
 * (most of its other files start with `status:` / `timestamp:` lines); anything else is plain
 * markdown.
 */
export function detectKind({ name, obsidian, files }: FolderFacts): SourceKind {
  if (obsidian) return "obsidian";
  if (files.some((file) => file.path === MEMORY_INDEX)) return "claude-memory";
  const topics = files.filter((file) => !isIndexFile(file.path) && !isAgentFile(file.path));
  const concepts = topics.filter((file) => conceptHeader(file.text)).length;
  const indexed = files.some((file) => isIndexFile(file.path)) || /^knowledge$/i.test(name);
  return indexed && concepts > 0 && concepts * 2 >= topics.length ? "knowledge" : "markdown";
}

/** A note, and whether its source asks it to apply always (Cursor's `alwaysApply`). */
export type KindNote = ImportedNote & { alwaysApply?: boolean };

/** The notes of a folder's files read as `kind`, and the index files read for summaries. */
export function readFolderNotes(
  kind: SourceKind,
  files: readonly SourceNote[],
): { notes: KindNote[]; indexes: string[] } {
  if (kind === "claude-memory") {
    const indexes = files.some((file) => file.path === MEMORY_INDEX) ? [MEMORY_INDEX] : [];
    return { notes: readMemoryFolder(files), indexes };
  }
  const agentFiles = files.filter((file) => isAgentFile(file.path));
  const others = files.filter((file) => !isAgentFile(file.path));
  const rules = agentFiles.flatMap(readAgentFile);
  if (kind === "knowledge") {
    const { notes, indexes } = readKnowledgeFolder(others);
    return { notes: [...notes, ...rules], indexes };
  }
  return { notes: [...others.map(readNote), ...rules], indexes: [] };
}
