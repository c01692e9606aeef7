/**
 * Test support: an index kept in memory, with every file copied both ways as it would be on
 * disk (JSON through JSON, text and bytes as they are), and a factory of plain entries. Used by the core tests only.
 *
 * @module
 */
import { blankEntry, type Entry } from "../entry/entry.ts";
import type { FreshnessStamp, Manifest } from "./format.ts";
import { IndexReader } from "./reader.ts";
import { analyzeEntry, IndexEditor } from "./editor.ts";

/** The stamp every in-memory commit records. */
export const STAMP: FreshnessStamp = { entriesMtime: 1, head: "abc", gitIndexMtime: 2 };

/** A stored file's value as a fresh copy, so no reader shares an editor's objects. */
function copied(value: unknown): unknown {
  if (value === undefined || typeof value === "string") return value;
  if (value instanceof Uint8Array) return value.slice();
  return JSON.parse(JSON.stringify(value));
}

/** An in-memory cache folder. */
export class MemoryStore {
  files = new Map<string, unknown>();
  /** Names the loader was asked for, in order. */
  loaded: string[] = [];

  /** The loader to hand to readers and editors. */
  load = (name: string): unknown => {
    this.loaded.push(name);
    return copied(this.files.get(name));
  };

  /** Store changed files as an index write would. */
  write(changed: Map<string, unknown>): void {
    for (const [name, value] of changed) this.files.set(name, copied(value));
  }

  /** The stored manifest. */
  manifest(): Manifest {
    return this.load("manifest.json") as Manifest;
  }

  /** A reader of what is stored. */
  reader(): IndexReader {
    return new IndexReader(this.manifest(), this.load);
  }

  /** An editor of what is stored. */
  editor(): IndexEditor {
    return new IndexEditor(this.manifest(), this.load);
  }

  /** Write what `editor` changed; returns those files. */
  commit(editor: IndexEditor): Map<string, unknown> {
    const changed = editor.changedFiles("2026-07-01T00:00:00Z", STAMP);
    this.write(changed);
    return changed;
  }
}

/** A plain active note dated 2026-01-01, updated 2026-01-02, with `overrides` applied. */
export function makeEntry(overrides: Partial<Entry> = {}): Entry {
  return { ...blankEntry("kb-00001", "2026-01-01"), updated: "2026-01-02", ...overrides };
}

/** Where an entry's file would be. */
export function pathOf(entry: Entry): string {
  return `entries/${entry.id}-x.md`;
}

/** How {@link buildIndex} hashes entries unless told otherwise. */
export function defaultHash(entry: Entry): string {
  return `hash-${entry.id}`;
}

/** Add an entry to an editor as a build would; kernel entries carry their body. */
export function addEntry(
  editor: IndexEditor,
  entry: Entry,
  kernelBody?: string,
  hash: string = defaultHash(entry),
): void {
  editor.add(analyzeEntry(entry, pathOf(entry), hash), 100, 1000, kernelBody);
}

/** Options for {@link buildIndex}. */
export interface BuildOptions {
  shardCount?: number;
  /** Give kernel entries their body (trimmed), as the I/O layer does. */
  kernelBodies?: boolean;
  hashOf?: (entry: Entry) => string;
}

/** A store holding a full build of `entries`. */
export function buildIndex(entries: Entry[], options: BuildOptions = {}): MemoryStore {
  const { shardCount = 4, kernelBodies = false, hashOf = defaultHash } = options;
  const store = new MemoryStore();
  const editor = IndexEditor.create("/kb", shardCount, store.load);
  for (const entry of entries) {
    const body = kernelBodies && entry.kernel ? entry.body.trim() : undefined;
    addEntry(editor, entry, body, hashOf(entry));
  }
  store.commit(editor);
  return store;
}
