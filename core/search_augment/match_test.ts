/**
 * The search augment's decision (core/search_augment/match.ts) on in-memory indexes built with the
 * real IndexEditor: every word of a phrase in a title, tag or alias; naming an entry; generic
 * phrases; inactive and kernel entries; the session ledger; ranking; the budget.
 */
import { assert, assertEquals } from "@std/assert";
import type { Entry } from "../entry/entry.ts";
import { shardCountFor } from "../index/format.ts";
import type { IndexReader } from "../index/reader.ts";
import { buildIndex, makeEntry } from "../index/_memory_index.ts";
import { termOf } from "../text/tokenize.ts";
import {
  decideSearch,
  DEFAULT_SEARCH_CONFIG,
  namesEntry,
  phraseMatches,
  SEARCH_WORDING,
} from "./match.ts";

const FETCH = (ids: string[]) => `git-kb get ${ids.join(" ")} --kb /kb`;

type Spec = Partial<Entry> & { id: string; title: string };

function reader(specs: Spec[]): IndexReader {
  return buildIndex(
    specs.map((spec) => makeEntry({ body: "Words of the body: zeppelin.\n", ...spec })),
    {
      shardCount: shardCountFor(specs.length),
      kernelBodies: true,
    },
  ).reader();
}

const SPECS: Spec[] = [
  { id: "kb-rot01", title: "Rotate a leaked Cloudflare token", tags: ["security"] },
  { id: "kb-tok01", title: "Token formats", tags: ["auth"] },
  { id: "kb-tag01", title: "Secrets handbook", tags: ["token-rotation"], aliases: ["rotate keys"] },
  { id: "kb-old01", title: "Rotate tokens by hand", status: "superseded" },
  { id: "kb-arc01", title: "Rotate tokens weekly", status: "archived" },
  { id: "kb-ker01", title: "Never paste a token", kernel: true, body: "Never paste a token.\n" },
  { id: "kb-reb01", title: "Rebase onto main", tags: ["git", "rebase"] },
];

function ids(store: IndexReader, ords: number[]): string[] {
  return ords.map((ord) => store.doc(ord)!.id);
}

Deno.test("phraseMatches: every word in a title, tag or alias; best first", () => {
  const index = reader(SPECS);
  assertEquals(ids(index, phraseMatches(index, "rotate token")), ["kb-rot01", "kb-tag01"]);
  // Title hits first (kb-tag01 has "token" in a tag only), then index order.
  assertEquals(ids(index, phraseMatches(index, "token")), ["kb-rot01", "kb-tok01", "kb-tag01"]);
  assertEquals(ids(index, phraseMatches(index, "cloudflare rebase")), []);
  assertEquals(ids(index, phraseMatches(index, "zeppelin")), [], "body words never match");
  assertEquals(ids(index, phraseMatches(index, "rebase")), ["kb-reb01"]);
  assertEquals(ids(index, phraseMatches(index, "")), []);
});

Deno.test("phraseMatches: superseded, archived and kernel entries never match", () => {
  const index = reader(SPECS);
  const found = ids(index, phraseMatches(index, "token"));
  for (const id of ["kb-old01", "kb-arc01", "kb-ker01"]) assert(!found.includes(id), id);
});

Deno.test("decideSearch: pointers for the matches, with the search's wording", () => {
  const index = reader(SPECS);
  const decision = decideSearch(["rotate token"], index, {}, FETCH);
  assertEquals(decision.outcome, "surfaced");
  assertEquals(decision.matches, { "rotate token": 2 });
  assertEquals(decision.assembly!.pointers.map((pointer) => pointer.id), [
    "kb-rot01",
    "kb-tag01",
  ]);
  const text = decision.assembly!.text;
  assert(text.startsWith(SEARCH_WORDING.header), text);
  assert(text.includes(SEARCH_WORDING.pointers), text);
  assert(
    text.includes("- kb-rot01 Rotate a leaked Cloudflare token [note] (matched: rotate, token)"),
  );
  assert(text.endsWith("Fetch full text: git-kb get kb-rot01 kb-tag01 --kb /kb"), text);
  assert(!text.includes("Rules that always apply"), "kernel rules are the prompt hook's job");
});

Deno.test("decideSearch: outcomes without pointers", () => {
  const index = reader(SPECS);
  assertEquals(decideSearch([], index, {}, FETCH).outcome, "no_terms");
  assertEquals(decideSearch(["zeppelin"], index, {}, FETCH).outcome, "no_match");
  const all = { "kb-rot01": "hash-kb-rot01", "kb-tag01": "hash-kb-tag01" };
  const deduped = decideSearch(["rotate token"], index, all, FETCH);
  assertEquals(deduped.outcome, "all_deduped");
  assertEquals(deduped.deduped, ["kb-rot01", "kb-tag01"]);
  assertEquals(deduped.assembly, undefined);
});

Deno.test("decideSearch: an entry changed since the session saw it surfaces again", () => {
  const index = reader(SPECS);
  const decision = decideSearch(["rotate token"], index, {
    "kb-rot01": "hash-kb-rot01",
    "kb-tag01": "an older hash",
  }, FETCH);
  assertEquals(decision.deduped, ["kb-rot01"]);
  assertEquals(decision.assembly!.pointers.map((pointer) => pointer.id), ["kb-tag01"]);
});

Deno.test("decideSearch: a phrase matching more than genericLimit entries surfaces nothing", () => {
  const many = (count: number) =>
    Array.from({ length: count }, (_, index) => ({
      id: `kb-pg${String(index).padStart(3, "0")}`,
      title: `Postgres ${index}`,
    }));
  const limit = DEFAULT_SEARCH_CONFIG.genericLimit;
  const generic = decideSearch(["postgres"], reader(many(limit + 1)), {}, FETCH);
  assertEquals(generic.outcome, "too_generic");
  assertEquals(generic.matches, { postgres: limit + 1 });
  const mixed = decideSearch(
    ["postgres", "rebase"],
    reader([...many(limit + 1), ...SPECS]),
    {},
    FETCH,
  );
  assertEquals(mixed.assembly!.pointers.map((pointer) => pointer.id), ["kb-reb01"]);
  const specific = decideSearch(["postgres"], reader(many(limit)), {}, FETCH);
  assertEquals(specific.outcome, "surfaced");
  assertEquals(specific.assembly!.pointers.length, DEFAULT_SEARCH_CONFIG.maxPointers);
});

Deno.test("decideSearch: phrases in order, each entry once, at most maxPointers", () => {
  const index = reader(SPECS);
  // `token formats` names "Token formats" but not "Rotate a leaked Cloudflare token";
  // `rotate token` names that one, and the entry tagged `token-rotation` after it.
  const decision = decideSearch(["rebase", "token formats", "rotate token"], index, {}, FETCH);
  assertEquals(decision.assembly!.pointers.map((pointer) => [pointer.id, pointer.why]), [
    ["kb-reb01", ["rebase"]],
    ["kb-tok01", ["token", "formats"]],
    ["kb-rot01", ["rotate", "token"]],
  ]);
  const one = decideSearch(["rotate token"], index, {}, FETCH, {
    ...DEFAULT_SEARCH_CONFIG,
    maxPointers: 1,
  });
  assertEquals(one.assembly!.pointers.map((pointer) => pointer.id), ["kb-rot01"]);
});

Deno.test("namesEntry: a whole tag or alias, or half the title's words and two at least", () => {
  const terms = (...words: string[]) => new Set(words.map(termOf));
  const doc = {
    title: "Freeze the release branch a week before launch",
    tags: ["api-design", "code freeze"],
    aliases: ["rollout"],
  };
  const share = DEFAULT_SEARCH_CONFIG.titleShare;
  assert(!namesEntry(terms("release"), doc, share), "one word of six in the title");
  assert(!namesEntry(terms("design"), doc, share), "one word of the tag api-design");
  assert(namesEntry(terms("api", "design"), doc, share), "the whole tag");
  assert(namesEntry(terms("freezing", "code"), doc, share), "a tag's words, stemmed, any order");
  assert(namesEntry(terms("rollout"), doc, share), "an alias");
  assert(namesEntry(terms("freeze", "release", "branch"), doc, share), "half the title");
  // Words a search phrase never holds do not count in the title: numbers, code noise such as
  // `main`, words under three letters.
  const short = { title: "Rebase onto main in 2 steps", tags: [], aliases: [] };
  assert(namesEntry(terms("rebase", "steps"), short, share));
  assert(!namesEntry(terms("rebase"), short, share), "one of rebase, onto, steps");
  // camelCase titles are split as search phrases are.
  const camel = { title: "countWeekDaysBetween", tags: [], aliases: [] };
  assert(!namesEntry(terms("week"), camel, share));
  assert(namesEntry(terms("week", "days"), camel, share));
  // One word never names a title of two or more, though it is half of it: a search for `clear`
  // or `scroll` meets many titles by one word.
  const two = { title: "Clear the screen", tags: [], aliases: [] };
  assert(!namesEntry(terms("clear"), two, share), "one of clear, screen");
  assert(namesEntry(terms("clear", "screen"), two, share));
  assert(namesEntry(terms("clear"), { title: "Clear", tags: [], aliases: [] }, share));
});

Deno.test("decideSearch: an entry whose names merely hold the phrase is not pointed at", () => {
  const index = reader([
    { id: "kb-frz01", title: "Freeze the release branch a week before launch", tags: ["git"] },
    { id: "kb-des01", title: "Idempotency keys", tags: ["api-design"] },
  ]);
  for (const phrase of ["release", "week", "design"]) {
    const decision = decideSearch([phrase], index, {}, FETCH);
    assertEquals(decision.outcome, "unnamed", phrase);
    assertEquals(decision.matches, { [phrase]: 1 });
    assertEquals(decision.assembly, undefined);
  }
  const named = decideSearch(["release branch freeze"], index, {}, FETCH);
  assertEquals(named.assembly!.pointers.map((pointer) => pointer.id), ["kb-frz01"]);
});

Deno.test("decideSearch: the text stays under the budget", () => {
  const long = Array.from({ length: 3 }, (_, index) => ({
    id: `kb-lng0${index}`,
    title: `Rotate ${"very ".repeat(60)}long ${index}`,
  }));
  const budget = 400;
  const decision = decideSearch(["rotate long"], reader(long), {}, FETCH, {
    ...DEFAULT_SEARCH_CONFIG,
    budgetChars: budget,
  });
  assert(decision.assembly!.text.length <= budget, String(decision.assembly!.text.length));
  assert(decision.assembly!.pointers.length >= 1);
});
