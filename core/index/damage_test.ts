/**
 * Two files with one id, and index files that do not read as what they should: both are errors
 * the index names, never an entry silently replaced or a TypeError.
 */
import { assert, assertEquals, assertStrictEquals, assertThrows } from "@std/assert";
import type { Entry } from "../entry/entry.ts";
import { isEntryPath } from "./format.ts";
import { checkFile, DamagedIndexError, IndexReader } from "./reader.ts";
import { sealFiles } from "./writer.ts";
import { analyzeEntry, type EntryAnalysis, IndexEditor } from "./editor.ts";
import { buildIndex, makeEntry, MemoryStore } from "./_memory_index.ts";

const REAL = makeEntry({ id: "kb-7q2mx", title: "Rotate leaked tokens" });
const SHADOW = makeEntry({ id: "kb-7q2mx", title: "A shadow" });
const REAL_PATH = "entries/kb-7q2mx-rotate.md";
const SHADOW_PATH = "entries/kb-7q2mx-a-shadow.md";

/** What reading each file gives, as the I/O layer's analyzer would. */
function readerOf(files: Record<string, Entry>): (path: string) => EntryAnalysis {
  return (path) => ({ ok: true, analyzed: analyzeEntry(files[path], path, `h-${path}`) });
}

Deno.test("two files with one id: neither is served, both are listed naming both", () => {
  const store = new MemoryStore();
  const editor = IndexEditor.create("/kb", 1, store.load);
  const read = readerOf({ [REAL_PATH]: REAL, [SHADOW_PATH]: SHADOW });
  editor.takeIn([
    { path: REAL_PATH, size: 1, mtime: 1 },
    { path: SHADOW_PATH, size: 1, mtime: 1 },
  ], read);
  store.commit(editor);
  const reader = store.reader();
  assertEquals(reader.docById("kb-7q2mx"), undefined);
  const invalid = reader.manifest.invalid;
  assertEquals(invalid.map((item) => item.path).sort(), [SHADOW_PATH, REAL_PATH]);
  for (const item of invalid) {
    assertEquals(item.duplicateOf, "kb-7q2mx");
    assert(item.message.includes(REAL_PATH) && item.message.includes(SHADOW_PATH));
  }
});

Deno.test("a duplicate added later takes the served entry out; removing it brings it back", () => {
  const store = new MemoryStore();
  const read = readerOf({ [REAL_PATH]: REAL, [SHADOW_PATH]: SHADOW });
  const first = IndexEditor.create("/kb", 1, store.load);
  first.takeIn([{ path: REAL_PATH, size: 1, mtime: 1 }], read);
  store.commit(first);
  assertStrictEquals(store.reader().docById("kb-7q2mx")?.path, REAL_PATH);

  const adding = store.editor();
  adding.takeIn([{ path: SHADOW_PATH, size: 1, mtime: 1 }], read);
  store.commit(adding);
  assertEquals(store.reader().docById("kb-7q2mx"), undefined, "the shadow is not served");
  assertEquals(store.reader().manifest.invalid.length, 2);
  assertEquals(store.reader().manifest.docCount, 0);

  const removing = store.editor();
  removing.remove(SHADOW_PATH);
  removing.takeIn([], read);
  store.commit(removing);
  const reader = store.reader();
  assertStrictEquals(reader.docById("kb-7q2mx")?.title, "Rotate leaked tokens");
  assertEquals(reader.manifest.invalid, []);
});

Deno.test("a third file with a listed duplicate's id joins the listed ones, none served", () => {
  const third = "entries/kb-7q2mx-third.md";
  const store = new MemoryStore();
  const read = readerOf({ [REAL_PATH]: REAL, [SHADOW_PATH]: SHADOW, [third]: REAL });
  const first = IndexEditor.create("/kb", 1, store.load);
  first.takeIn([
    { path: REAL_PATH, size: 1, mtime: 1 },
    { path: SHADOW_PATH, size: 1, mtime: 1 },
  ], read);
  store.commit(first);
  const adding = store.editor();
  adding.takeIn([{ path: third, size: 1, mtime: 1 }], read);
  store.commit(adding);
  const reader = store.reader();
  assertEquals(reader.docById("kb-7q2mx"), undefined);
  assertEquals(reader.manifest.invalid.length, 3);
  assert(reader.manifest.invalid.every((item) => item.message.includes(third)));
});

Deno.test("a docs record that does not parse, or names a path outside entries/, is damage", () => {
  const store = buildIndex([makeEntry({ id: "kb-aaaaa", title: "Alpha" })]);
  const damaged: DamagedIndexError[] = [];
  const onDamage = (error: DamagedIndexError) => damaged.push(error);
  const record = { ...store.reader().doc(0), path: "../../../../tmp/victim-secret.txt" };
  store.files.set("docs/0.txt", '{"id":"kb-aaaaa"');
  const cut = new IndexReader(store.manifest(), store.load, onDamage);
  assertThrows(() => cut.docById("kb-aaaaa"), DamagedIndexError);
  store.files.set("docs/0.txt", JSON.stringify(record));
  const forged = new IndexReader(store.manifest(), store.load, onDamage);
  assertThrows(() => forged.docById("kb-aaaaa"), Error, "a bad record");
  assertEquals(damaged.length, 2, "each damage is reported to the owner");
});

Deno.test("a meta.bin of the wrong length is damage, not entries read as removed", () => {
  const store = buildIndex([makeEntry({ id: "kb-aaaaa" }), makeEntry({ id: "kb-bbbbb" })]);
  store.files.set("meta.bin", new Uint8Array(8));
  assertThrows(() => store.reader().meta(1), DamagedIndexError);
});

Deno.test("a shard that is not text is damage", () => {
  const store = buildIndex([makeEntry({ id: "kb-aaaaa", title: "Alpha" })], { shardCount: 1 });
  store.files.set("shard/0.txt", 42);
  assertThrows(() => store.reader().postings("alpha"), DamagedIndexError);
});

Deno.test("sealed files are checked by size, and by checksum when asked", () => {
  const store = buildIndex([makeEntry({ id: "kb-aaaaa", title: "Alpha" })]);
  const changed = store.editor().changedFiles("2026-07-01T00:00:00Z", store.manifest().stamp);
  changed.set("ids.json", ["kb-aaaaa", 0]);
  const sealed = sealFiles(changed);
  const manifest = JSON.parse(new TextDecoder().decode(sealed.get("manifest.json")));
  const ids = sealed.get("ids.json")!;
  checkFile(manifest, "ids.json", ids, true);
  assertThrows(() => checkFile(manifest, "ids.json", new Uint8Array(0), false), Error, "0 bytes");
  const flipped = ids.slice();
  flipped[2] ^= 1;
  checkFile(manifest, "ids.json", flipped, false);
  assertThrows(() => checkFile(manifest, "ids.json", flipped, true), Error, "checksum");
});

Deno.test("entry paths from the index stay inside entries/ (sub-folders too), never leading out", () => {
  for (const path of ["entries/kb-7q2mx-rotate.md", "entries/ops/misnamed.md"]) {
    assert(isEntryPath(path), path);
  }
  for (
    const path of [
      "../../../../tmp/victim-secret.txt",
      "entries/../../secret.md",
      "entries/kb-7q2mx-a/../../x.md",
      "entries/./x.md",
      "entries//x.md",
      "entries\\..\\x.md",
      "/etc/passwd",
      "entries/notes.txt",
      42,
    ]
  ) {
    assertEquals(isEntryPath(path), false, String(path));
  }
});
