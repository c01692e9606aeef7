import { kernelRuleHash } from "../kernel/acceptance.ts";
import { assert, assertEquals, assertStrictEquals } from "@std/assert";
import type { Entry } from "../entry/entry.ts";
import {
  CHUNK_SIZE,
  FIELD_KEYWORD,
  FIELD_TITLE,
  formatDocChunk,
  INDEX_VERSION,
  type Manifest,
  META_MAX_LENGTH,
  META_STRIDE,
  parseDocChunk,
  shardCountFor,
  shardOf,
} from "./format.ts";
import { analyzeEntry, COMPACT_AFTER, IndexEditor } from "./editor.ts";
import { addEntry, buildIndex, makeEntry, MemoryStore, pathOf, STAMP } from "./_memory_index.ts";
import { findList, type Postings, spillNumber } from "./postings_file.ts";
import { parsePostingsFile } from "./postings_layout.ts";
import { tokenize } from "../text/tokenize.ts";

/** Ordinals in flat postings of the given stride. */
function ords(flat: Postings, stride: number): number[] {
  return Array.from(flat).filter((_, index) => index % stride === 0);
}

/** A store holding a full build of `entries`. */
function build(entries: Entry[], shardCount = 4, kernel = false): MemoryStore {
  return buildIndex(entries, { shardCount, kernelBodies: kernel });
}

const ROTATE = makeEntry({
  id: "kb-7q2mx",
  title: "Rotate leaked tokens",
  tags: ["security", "ci/cd"],
  aliases: ["token leak"],
  body: "Rotate the token. Rotating tokens often.",
  links: [{ rel: "related", to: "kb-9z8y7" }],
});

// --- analyzeEntry -----------------------------------------------------------------------------

Deno.test("analyzeEntry counts terms per field: title, keywords, body", () => {
  const { info, terms } = analyzeEntry(ROTATE, "entries/kb-7q2mx-rotate.md", "h1");
  // title: rotat leak token; keywords: secur | ci cd | token leak; body: rotat token rotat token often
  assertEquals(terms.get("rotat"), [1, 0, 2]);
  assertEquals(terms.get("token"), [1, 1, 2]);
  assertEquals(terms.get("leak"), [1, 1, 0]);
  assertEquals(terms.get("secur"), [0, 1, 0]);
  assertEquals(terms.get("ci"), [0, 1, 0]);
  assertEquals(terms.get("cd"), [0, 1, 0]);
  assertEquals(terms.get("often"), [0, 0, 1]);
  assertEquals([...terms.keys()].sort(), [
    "cd",
    "ci",
    "leak",
    "often",
    "rotat",
    "secur",
    "token",
  ]);
  assertEquals(info.lengths, [3, 5, 5]);
  assertEquals(info.id, "kb-7q2mx");
  assertEquals(info.path, "entries/kb-7q2mx-rotate.md");
  assertEquals(info.hash, "h1");
  assertEquals(info.title, "Rotate leaked tokens");
  assertEquals(info.tags, ["security", "ci/cd"]);
  assertEquals(info.links, [{ rel: "related", to: "kb-9z8y7" }]);
  // The stored terms survive a JSON round trip unchanged.
  assertEquals(JSON.parse(JSON.stringify(terms)), { ...terms });
});

Deno.test("analyzeEntry keeps stopwords and unknown fields out of the index", () => {
  const entry = makeEntry({ title: "The and of", body: "", extra: { secret: "zebra" } });
  const { info, terms } = analyzeEntry(entry, "p", "h");
  assertEquals(Object.keys(terms), []);
  assertEquals(info.lengths, [0, 0, 0]);
});

// --- add and read -----------------------------------------------------------------------------

Deno.test("IndexEditor.add, written and reopened, is found by IndexReader", () => {
  const store = build([ROTATE]);
  const reader = store.reader();
  assertEquals(reader.manifest.version, INDEX_VERSION);
  assertEquals(reader.manifest.kbDir, "/kb");
  assertEquals(reader.manifest.docCount, 1);
  assertEquals(reader.manifest.nextOrd, 1);
  assertEquals(reader.manifest.totals, [3, 5, 5]);
  assertEquals(reader.manifest.stamp, STAMP);
  assertEquals(reader.manifest.builtAt, "2026-07-01T00:00:00Z");

  assertEquals(reader.postings("rotat"), [0, 1, 0, 2]);
  assertEquals(reader.postings("token"), [0, 1, 1, 2]);
  assertEquals(reader.postings("absent"), []);
  assertEquals(reader.keywordPostings("token"), [0, FIELD_TITLE | FIELD_KEYWORD]);
  assertEquals(reader.keywordPostings("rotat"), [0, FIELD_TITLE]);
  assertEquals(reader.keywordPostings("secur"), [0, FIELD_KEYWORD]);
  assertEquals(reader.keywordPostings("often"), [], "body-only terms have no keyword postings");

  assertEquals(reader.ordOf("kb-7q2mx"), 0);
  assertEquals(reader.ordOf("kb-zzzzz"), undefined);
  assertStrictEquals(reader.doc(0)?.id, "kb-7q2mx");
  assertStrictEquals(reader.docById("kb-7q2mx")?.title, "Rotate leaked tokens");
  assertEquals(reader.docById("kb-zzzzz"), undefined);
  assertEquals(reader.doc(5), undefined);
  assertEquals(reader.links(), [[
    "kb-7q2mx",
    "related",
    "kb-9z8y7",
    "Rotate leaked tokens",
    null,
  ]]);
  assertEquals(Object.fromEntries(reader.files()), { [pathOf(ROTATE)]: [0, 100, 1000] });
  assertEquals(reader.meta(0)?.type, ROTATE.type);
});

Deno.test("IndexReader loads each file at most once, and no delta file while none is due", () => {
  const store = build([ROTATE], 1);
  const reader = store.reader();
  store.loaded = [];
  reader.postings("rotat");
  reader.postings("token");
  reader.doc(0);
  reader.doc(0);
  reader.ordOf("kb-7q2mx");
  reader.ordOf("kb-7q2mx");
  assertEquals(store.loaded.sort(), [
    "docs/0.txt",
    "ids.json",
    "shard/0.txt",
  ]);
});

Deno.test("postings of several entries list each ordinal once", () => {
  const a = makeEntry({ id: "kb-aaaaa", title: "Cache invalidation", body: "cache cache" });
  const b = makeEntry({ id: "kb-bbbbb", title: "Token cache", body: "nothing" });
  const reader = build([a, b]).reader();
  assertEquals(reader.postings("cach"), [0, 1, 0, 2, 1, 1, 0, 0]);
  assertEquals(reader.postingCount("cach"), 2);
  assertEquals(reader.postings("token"), [1, 1, 0, 0]);
  assertEquals(reader.manifest.docCount, 2);
});

Deno.test("docs beyond the first chunk are stored and found", () => {
  const entries = Array.from(
    { length: CHUNK_SIZE + 3 },
    (_, index) =>
      makeEntry({ id: `kb-${String(index).padStart(5, "0")}`, title: `entry number${index}` }),
  );
  const reader = build(entries, 2).reader();
  const last = CHUNK_SIZE + 2;
  assertStrictEquals(reader.doc(last)?.id, entries[last].id);
  assertEquals(reader.ordOf(entries[last].id), last);
  assertStrictEquals(reader.doc(CHUNK_SIZE - 1)?.id, entries[CHUNK_SIZE - 1].id);
  assertEquals(ords(reader.postings("entri"), 4).length, CHUNK_SIZE + 3);
});

// --- remove -----------------------------------------------------------------------------------

Deno.test("remove clears postings, ids, links, kernel and activity of that path only", () => {
  const a = makeEntry({
    id: "kb-aaaaa",
    title: "Deploy checklist alpha",
    tags: ["release"],
    appliesTo: ["coding"],
    kernel: true,
    body: "Run the deploy checklist.",
    links: [{ rel: "related", to: "kb-bbbbb" }],
  });
  const b = makeEntry({
    id: "kb-bbbbb",
    title: "Deploy rollback",
    appliesTo: ["reviewing"],
    kernel: true,
    body: "Roll back the deploy.",
    links: [{ rel: "refines", to: "kb-aaaaa" }],
  });
  const store = build([a, b], 4, true);
  const before = store.reader();
  assertEquals(before.manifest.kernel.length, 2);
  assertEquals(before.activityOrds("coding"), [0]);
  assertEquals(before.activityOrds("reviewing"), [1]);
  const totalsBefore = before.manifest.totals;
  const lengthsA = before.doc(0)!.lengths;

  const editor = store.editor();
  editor.remove(pathOf(a));
  store.commit(editor);

  const reader = store.reader();
  assertEquals(reader.manifest.docCount, 1);
  assertEquals(
    reader.manifest.totals,
    totalsBefore.map((total, field) => total - lengthsA[field]),
  );
  assertEquals(ords(reader.postings("deploi"), 4), [1]);
  assertEquals(reader.postings("alpha"), [], "a term only the removed entry had is gone");
  assertEquals(reader.postings("checklist"), []);
  assertEquals(reader.keywordPostings("releas"), []);
  assertEquals(ords(reader.keywordPostings("deploi"), 2), [1]);
  assertEquals(reader.ordOf("kb-aaaaa"), undefined);
  assertEquals(reader.ordOf("kb-bbbbb"), 1);
  assertEquals(reader.doc(0), undefined);
  assertEquals(reader.meta(0), undefined);
  assertStrictEquals(reader.doc(1)?.id, "kb-bbbbb");
  assertEquals(
    reader.links(),
    [["kb-bbbbb", "refines", "kb-aaaaa", "Deploy rollback", null]],
    "a link to the removed entry keeps its row, without a title",
  );
  assertEquals(reader.manifest.kernel.map((rule) => rule.id), ["kb-bbbbb"]);
  assertEquals(reader.activityOrds("coding"), []);
  assertEquals(reader.activityOrds("reviewing"), [1]);
  assertEquals([...reader.files().keys()], [pathOf(b)]);
  // No shard keeps an empty list behind.
  for (const [name, value] of store.files) {
    if (!name.startsWith("shard/")) continue;
    for (const [term, list] of parsePostingsFile(value as string)) {
      assert(list.length > 0, `${name} keeps an empty list for ${term}`);
    }
  }
});

Deno.test("remove of a path the index does not have changes nothing", () => {
  const store = build([ROTATE]);
  const editor = store.editor();
  editor.remove("entries/kb-nope0-x.md");
  const changed = editor.changedFiles("t", STAMP);
  assertEquals([...changed.keys()], ["manifest.json"]);
  assertEquals(editor.manifest.docCount, 1);
});

Deno.test("removing every entry leaves an empty index", () => {
  const a = makeEntry({ id: "kb-aaaaa", title: "alpha", body: "shared words" });
  const b = makeEntry({ id: "kb-bbbbb", title: "beta", body: "shared words" });
  const store = build([a, b]);
  const editor = store.editor();
  editor.remove(pathOf(a));
  editor.remove(pathOf(b));
  store.commit(editor);
  const reader = store.reader();
  assertEquals(reader.manifest.docCount, 0);
  assertEquals(reader.manifest.totals, [0, 0, 0]);
  assertEquals(reader.postings("share"), []);
  assertEquals(reader.links(), []);
  assertEquals(reader.files().size, 0);
});

Deno.test("remove then add of the same path replaces the entry", () => {
  const first = makeEntry({ id: "kb-aaaaa", title: "Old title zebra", body: "old body" });
  const other = makeEntry({ id: "kb-bbbbb", title: "Other", body: "other body" });
  const store = build([first, other]);

  const editor = store.editor();
  const second = makeEntry({ id: "kb-aaaaa", title: "New title giraffe", body: "new body" });
  editor.remove(pathOf(first));
  editor.add(analyzeEntry(second, pathOf(first), "h2"), 222, 2000);
  store.commit(editor);

  const reader = store.reader();
  assertEquals(reader.manifest.docCount, 2);
  assertEquals(reader.manifest.nextOrd, 3);
  assertEquals(reader.ordOf("kb-aaaaa"), 2);
  assertEquals(reader.doc(0), undefined);
  assertStrictEquals(reader.docById("kb-aaaaa")?.title, "New title giraffe");
  assertStrictEquals(reader.docById("kb-aaaaa")?.hash, "h2");
  assertEquals(reader.postings("zebra"), []);
  assertEquals(ords(reader.postings("giraff"), 4), [2]);
  assertEquals(ords(reader.postings("bodi"), 4).sort(), [1, 2]);
  assertEquals(reader.files().get(pathOf(first)), [2, 222, 2000]);
  assertEquals(reader.files().size, 2);
});

// --- skip -------------------------------------------------------------------------------------

Deno.test("skip records an invalid file; its later removal forgets it", () => {
  const store = build([ROTATE]);
  let editor = store.editor();
  editor.skip("entries/kb-bad00-x.md", 10, 500, "type: not a type");
  store.commit(editor);

  let reader = store.reader();
  assertEquals(reader.files().get("entries/kb-bad00-x.md"), [-1, 10, 500]);
  assertEquals(reader.manifest.invalid, [{
    path: "entries/kb-bad00-x.md",
    message: "type: not a type",
  }]);
  assertEquals(reader.manifest.docCount, 1, "an invalid file is not a document");
  assertEquals(reader.manifest.nextOrd, 1, "an invalid file takes no ordinal");

  editor = store.editor();
  editor.remove("entries/kb-bad00-x.md");
  store.commit(editor);
  reader = store.reader();
  assertEquals(reader.files().get("entries/kb-bad00-x.md"), undefined);
  assertEquals(reader.manifest.invalid, []);
  assertEquals(reader.manifest.docCount, 1);
  assertStrictEquals(
    reader.docById("kb-7q2mx")?.title,
    ROTATE.title,
    "the valid entry is untouched",
  );
});

Deno.test("a skipped file fixed later is removed and added as a document", () => {
  const store = new MemoryStore();
  let editor = IndexEditor.create("/kb", 2, store.load);
  editor.skip(pathOf(ROTATE), 10, 500, "broken");
  store.commit(editor);

  editor = store.editor();
  editor.remove(pathOf(ROTATE));
  addEntry(editor, ROTATE);
  store.commit(editor);
  const reader = store.reader();
  assertEquals(reader.manifest.invalid, []);
  assertEquals(reader.files().get(pathOf(ROTATE)), [0, 100, 1000]);
  assertEquals(reader.ordOf("kb-7q2mx"), 0);
});

// --- kernel and activity ----------------------------------------------------------------------

Deno.test("kernel rules list only active kernel entries given a body, sorted by id", () => {
  const store = new MemoryStore();
  const editor = IndexEditor.create("/kb", 1, store.load);
  const kernelZ = makeEntry({ id: "kb-zzzzz", title: "Zed rule", kernel: true, type: "rule" });
  const kernelA = makeEntry({ id: "kb-aaaaa", title: "Aye rule", kernel: true, type: "rule" });
  const noBody = makeEntry({ id: "kb-nobod", kernel: true });
  const superseded = makeEntry({ id: "kb-super", kernel: true, status: "superseded" });
  const archived = makeEntry({ id: "kb-archi", kernel: true, status: "archived" });
  const plain = makeEntry({ id: "kb-plain", kernel: false });
  addEntry(editor, kernelZ, "Always Z.");
  addEntry(editor, kernelA, "Always A.");
  addEntry(editor, noBody);
  addEntry(editor, superseded, "Old rule.");
  addEntry(editor, archived, "Older rule.");
  addEntry(editor, plain, "Not a kernel.");
  store.commit(editor);
  const { kernel } = store.manifest();
  assertEquals(kernel, [
    {
      id: "kb-aaaaa",
      title: "Aye rule",
      type: "rule",
      path: pathOf(kernelA),
      hash: "hash-kb-aaaaa",
      body: "Always A.",
      ruleHash: kernelRuleHash({ id: "kb-aaaaa", title: "Aye rule", body: "Always A." }),
    },
    {
      id: "kb-zzzzz",
      title: "Zed rule",
      type: "rule",
      path: pathOf(kernelZ),
      hash: "hash-kb-zzzzz",
      body: "Always Z.",
      ruleHash: kernelRuleHash({ id: "kb-zzzzz", title: "Zed rule", body: "Always Z." }),
    },
  ]);
});

Deno.test("activity entries list only active entries that apply to some activity", () => {
  const active = makeEntry({ id: "kb-act01", appliesTo: ["coding", "reviewing"] });
  const none = makeEntry({ id: "kb-act02" });
  const archived = makeEntry({ id: "kb-act03", appliesTo: ["coding"], status: "archived" });
  const reader = build([active, none, archived]).reader();
  assertEquals(reader.activityOrds("coding"), [0]);
  assertEquals(reader.activityOrds("reviewing"), [0]);
  assertEquals(reader.activityOrds("planning"), []);
});

// --- shards and changed files -----------------------------------------------------------------

// About 32 entries a shard: a reader parses only its terms' lines, so a shard's size costs little.
Deno.test("shardCountFor gives about 32 entries a shard, a power of two from 1 to 1,024", () => {
  assertEquals(shardCountFor(0), 1);
  assertEquals(shardCountFor(1), 1);
  assertEquals(shardCountFor(32), 1);
  assertEquals(shardCountFor(33), 2);
  assertEquals(shardCountFor(64), 2);
  assertEquals(shardCountFor(65), 4);
  assertEquals(shardCountFor(32 * 1024), 1024);
  assertEquals(shardCountFor(32 * 1024 + 1), 1024);
  assertEquals(shardCountFor(10_000_000), 1024);
  for (let count = 0; count < 20_000; count += 997) {
    const shards = shardCountFor(count);
    assertEquals(shards & (shards - 1), 0, `${shards} is a power of two`);
    assert(shards >= 1 && shards <= 1024);
    assert(shards === 1024 || shards * 32 >= count, `${count} entries fit in ${shards} shards`);
  }
});

Deno.test("shardOf is stable and within range", () => {
  for (const shardCount of [1, 2, 8, 256]) {
    for (const term of ["token", "rotat", "", "é", "a-long-term-indeed"]) {
      const shard = shardOf(term, shardCount);
      assert(Number.isInteger(shard) && shard >= 0 && shard < shardCount);
      assertEquals(shardOf(term, shardCount), shard);
    }
  }
  assertEquals(shardOf("anything", 1), 0);
  const used = new Set(Array.from({ length: 200 }, (_, index) => shardOf(`term${index}`, 8)));
  assertEquals(used.size, 8, "terms spread over every shard");
});

Deno.test("changedFiles holds the touched files and the manifest, last", () => {
  const store = new MemoryStore();
  const editor = IndexEditor.create("/kb", 8, store.load);
  addEntry(editor, ROTATE);
  const changed = editor.changedFiles("2026-07-01T00:00:00Z", STAMP);
  const names = [...changed.keys()];
  assertEquals(names.at(-1), "manifest.json");
  for (const name of ["files.json", "ids.json", "links.json", "docs/0.txt", "meta.bin"]) {
    assert(names.includes(name), `${name} in ${names}`);
  }
  const terms = [...analyzeEntry(ROTATE, "p", "h").terms.keys()];
  const shards = new Set(terms.map((term) => `shard/${shardOf(term, 8)}.txt`));
  assertEquals(names.filter((name) => name.startsWith("shard/")).sort(), [...shards].sort());
  const manifest = changed.get("manifest.json") as Manifest;
  assertEquals(manifest.builtAt, "2026-07-01T00:00:00Z");
  assertEquals(manifest.stamp, STAMP);
});

Deno.test("an incremental add writes the delta file, not the shards", () => {
  const a = makeEntry({ id: "kb-aaaaa", title: "alpha", body: "" });
  const store = build([a], 8);
  const editor = store.editor();
  const b = makeEntry({ id: "kb-bbbbb", title: "omega", body: "" });
  addEntry(editor, b);
  const changed = store.commit(editor);
  const names = [...changed.keys()];
  assertEquals(names.filter((name) => name.startsWith("shard/")), []);
  assert(names.includes("delta.txt"));
  const reader = store.reader();
  assertEquals(reader.postings("alpha"), [0, 1, 0, 0], "earlier postings survive");
  assertEquals(reader.postings("omega"), [1, 1, 0, 0]);
  assertEquals(reader.keywordPostings("omega"), [1, FIELD_TITLE]);
  assertEquals(reader.postingCount("omega"), 1, "counted from the delta, unparsed");
  assertEquals(reader.postingCount("alpha"), 1);
  assertEquals(reader.postingCount("nowhere"), 0);
});

Deno.test("a removed entry is filtered from the shards until compaction folds it away", () => {
  const a = makeEntry({ id: "kb-aaaaa", title: "alpha shared", body: "" });
  const b = makeEntry({ id: "kb-bbbbb", title: "beta shared", body: "" });
  const store = build([a, b], 4);
  let editor = store.editor();
  editor.remove(pathOf(a));
  store.commit(editor);
  assertEquals(store.reader().postings("share"), [1, 1, 0, 0]);
  assertEquals(store.reader().manifest.dead, [0]);
  editor = store.editor();
  const c = makeEntry({ id: "kb-ccccc", title: "gamma shared", body: "" });
  addEntry(editor, c);
  editor.compact();
  const changed = store.commit(editor);
  assertEquals(changed.has(`shard/${shardOf("share", 4)}.txt`), true, "compaction rewrites shards");
  const reader = store.reader();
  assertEquals(reader.manifest.dead, []);
  assertEquals(reader.manifest.deltaOrds, []);
  assertEquals(reader.postings("share"), [1, 1, 0, 0, 2, 1, 0, 0]);
  assertEquals(reader.postings("alpha"), []);
  assertEquals(reader.keywordPostings("gamma"), [2, FIELD_TITLE]);
});

Deno.test("removing an entry that lives in the delta takes its postings out of the delta", () => {
  const store = build([makeEntry({ id: "kb-aaaaa", title: "alpha", body: "" })], 2);
  let editor = store.editor();
  const b = makeEntry({ id: "kb-bbbbb", title: "omega", body: "" });
  addEntry(editor, b);
  store.commit(editor);
  editor = store.editor();
  editor.remove(pathOf(b));
  store.commit(editor);
  const reader = store.reader();
  assertEquals(reader.postings("omega"), []);
  assertEquals(reader.manifest.dead, [], "delta entries need no dead mark");
  assertEquals(reader.docById("kb-bbbbb"), undefined);
});

Deno.test("postings stay in ordinal order through edits, removals and compaction", () => {
  const words = ["alpha", "beta", "gamma", "delta", "omega"];
  const entry = (index: number, round: number) =>
    makeEntry({
      id: `kb-${String(index).padStart(5, "0")}`,
      title: `${words[index % 5]} ${words[(index + round) % 5]}`,
      body: words.slice(0, 1 + (index + round) % 5).join(" "),
    });
  const store = build(Array.from({ length: 30 }, (_, index) => entry(index, 0)), 4);
  for (let round = 1; round <= 6; round++) {
    const editor = store.editor();
    for (let index = round; index < 30; index += 3) {
      editor.remove(pathOf(entry(index, 0)));
      addEntry(editor, entry(index, round));
    }
    if (round % 3 === 0) editor.compact();
    store.commit(editor);
    const reader = store.reader();
    for (const term of words.map((word) => tokenize(word)[0])) {
      const lists: [Postings, number][] = [
        [reader.postings(term), 4],
        [reader.keywordPostings(term), 2],
      ];
      for (const [list, stride] of lists) {
        const ords = Array.from(list).filter((_, at) => at % stride === 0);
        assertEquals(ords, [...ords].sort((a, b) => a - b), `${term} in round ${round}`);
        assertEquals(new Set(ords).size, ords.length, `${term} lists each entry once`);
      }
    }
  }
});

Deno.test("a long list is spilled to a file of its own, read back whole, and kept through compaction", () => {
  const entry = (index: number) =>
    makeEntry({
      id: `kb-${String(index).padStart(5, "0")}`,
      title: `Deploy note ${index}`,
      body: `Deploy then check step ${index}.`,
    });
  const count = 1200;
  const store = build(Array.from({ length: count }, (_, index) => entry(index)), 2);
  const spills = [...store.files.keys()].filter((name) => /^shard\/\d+-\d+\.bin$/.test(name));
  assert(spills.length > 0, "the list of deploi (every entry) spills");
  const term = tokenize("deploy")[0];
  const shard = store.files.get(`shard/${shardOf(term, 2)}.txt`) as string;
  assert(spillNumber(findList(shard, term)!) >= 0, "the shard holds a mark, not the numbers");
  assertEquals(
    ords(store.reader().postings(term), 4),
    Array.from({ length: count }, (_, n) => n),
  );
  assertEquals(store.reader().postingCount(term), count);
  const editor = store.editor();
  editor.remove(pathOf(entry(5)));
  addEntry(editor, entry(count));
  editor.compact();
  store.commit(editor);
  const expected = Array.from({ length: count }, (_, n) => n >= 5 ? n + 1 : n);
  assertEquals(ords(store.reader().postings(term), 4), expected);
  assertEquals(ords(store.reader().keywordPostings(term), 2), expected);
});

Deno.test("needsCompaction once the delta and dead list pass COMPACT_AFTER", () => {
  const store = build([], 2);
  const editor = store.editor();
  for (let index = 0; index <= COMPACT_AFTER; index++) {
    assertEquals(editor.needsCompaction(), false);
    addEntry(editor, makeEntry({ id: `kb-${String(index).padStart(5, "0")}`, title: `t${index}` }));
  }
  assertEquals(editor.needsCompaction(), true);
});

// --- a term that is a name on Object.prototype ------------------------------------------------

Deno.test({
  name: "terms named like Object.prototype members (constructor) are indexed like any other",
  // BUG in core/index/reader.ts: postings and keyword maps are plain objects ({} fallbacks and
  // JSON.parse results), so `postings["constructor"]` is Object.prototype.constructor:
  // `(postings[term] ??= []).push(...)` in IndexEditor.add throws "push is not a function", and
  // IndexReader.postings("constructor") returns a function instead of [].

  fn() {
    const store = new MemoryStore();
    const reader0 = IndexEditor.create("/kb", 1, store.load);
    assertEquals(reader0.postings("constructor"), []);
    assertEquals(reader0.keywordPostings("constructor"), []);
    const editor = IndexEditor.create("/kb", 1, store.load);
    const entry = makeEntry({ title: "Class constructor", body: "Call the constructor once." });
    addEntry(editor, entry);
    store.commit(editor);
    const reader = store.reader();
    assertEquals(reader.postings("constructor"), [0, 1, 0, 1]);
    assertEquals(reader.keywordPostings("constructor"), [0, FIELD_TITLE]);
    const remover = store.editor();
    remover.remove(pathOf(entry));
    store.commit(remover);
    assertEquals(store.reader().postings("constructor"), []);
  },
});

Deno.test("link rows carry both titles, whichever end is added first, and follow renames", () => {
  const a = makeEntry({
    id: "kb-aaaaa",
    title: "Alpha",
    links: [{ rel: "related", to: "kb-bbbbb" }],
  });
  const b = makeEntry({ id: "kb-bbbbb", title: "Beta" });
  const store = build([a, b]);
  assertEquals(store.reader().links(), [["kb-aaaaa", "related", "kb-bbbbb", "Alpha", "Beta"]]);
  const editor = store.editor();
  editor.remove(pathOf(b));
  addEntry(editor, { ...b, title: "Beta renamed" });
  store.commit(editor);
  assertEquals(store.reader().links(), [[
    "kb-aaaaa",
    "related",
    "kb-bbbbb",
    "Alpha",
    "Beta renamed",
  ]]);
});

Deno.test("a docs chunk holds one record per line, null for a removed or missing one", () => {
  const store = build([ROTATE, makeEntry({ id: "kb-bbbbb", title: "Second" })], 1);
  const editor = store.editor();
  editor.remove(pathOf(ROTATE));
  store.commit(editor);
  const text = store.files.get("docs/0.txt") as string;
  const lines = text.split("\n");
  assertEquals(lines.length, 2);
  assertEquals(lines[0], "null");
  assertEquals(JSON.parse(lines[1]).id, "kb-bbbbb");
  assertEquals(parseDocChunk(formatDocChunk([null, undefined, JSON.parse(lines[1])])), [
    null,
    null,
    JSON.parse(lines[1]),
  ]);
  const reader = store.reader();
  assertEquals(reader.doc(0), undefined);
  assertStrictEquals(reader.doc(1)?.title, "Second");
  assertEquals(reader.doc(2), undefined, "past the last line");
});

Deno.test("isPointable: active entries only, never a kernel rule or a removed entry", () => {
  const store = build([
    makeEntry({ id: "kb-aaaaa", title: "Active" }),
    makeEntry({ id: "kb-bbbbb", title: "Old", status: "superseded" }),
    makeEntry({ id: "kb-ccccc", title: "Rule", kernel: true }),
    makeEntry({ id: "kb-ddddd", title: "Gone" }),
  ]);
  const editor = store.editor();
  editor.remove(pathOf(makeEntry({ id: "kb-ddddd" })));
  store.commit(editor);
  const reader = store.reader();
  assertEquals([0, 1, 2, 3, 4].map((ord) => reader.isPointable(ord)), [
    true,
    false,
    false,
    false,
    false,
  ]);
});

Deno.test("meta.bin keeps type, status, kernel flag and field lengths, and forgets removed entries", () => {
  const entries = [
    makeEntry({ id: "kb-meta1", title: "Alpha rule", type: "rule", status: "superseded" }),
    makeEntry({ id: "kb-meta2", title: "Beta bookmark", type: "bookmark", kernel: true }),
    makeEntry({ id: "kb-meta3", title: "Gamma", type: "howto", body: "long ".repeat(70_000) }),
  ];
  const store = build(entries, 2, true);
  assertEquals(
    (store.files.get("meta.bin") as Uint8Array).byteLength,
    entries.length * META_STRIDE * 2,
  );
  const reader = store.reader();
  assertEquals(
    [0, 1, 2].map((ord) => {
      const meta = reader.meta(ord)!;
      return [meta.type, meta.status, meta.kernel, reader.isPointable(ord)];
    }),
    [["rule", "superseded", false, false], ["bookmark", "active", true, false], [
      "howto",
      "active",
      false,
      true,
    ]],
  );
  assertEquals(reader.meta(0)?.lengths, [2, 0, 0]);
  assertEquals(
    reader.fieldLength(2, 2),
    META_MAX_LENGTH,
    "a longer body counts as the longest there is",
  );
  assertEquals(reader.meta(3), undefined, "no entry past the last");
  const editor = store.editor();
  editor.remove(pathOf(entries[2]));
  store.commit(editor);
  const after = store.reader();
  assertEquals(after.meta(2), undefined);
  assertEquals(after.fieldLength(2, 0), -1);
  assertEquals(after.isPointable(2), false);
  assertStrictEquals(after.meta(1)?.type, "bookmark", "the others are untouched");
});
