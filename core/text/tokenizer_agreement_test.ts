/**
 * One tokenizer everywhere: the same text, fed to each path's entry function, gives terms the
 * index holds for that text. The index (`analyzeEntry`) takes an entry's title; search
 * (`queryTerms`) reads it as a query; the prompt hook (`promptTerms`) as a prompt; the search
 * augment (`searchPhrases`, then `phraseMatches`) as the pattern of a Grep. The judge reads no
 * terms: it hands the model text, not index lookups.
 */
import { assert, assertEquals, assertStrictEquals } from "@std/assert";
import { analyzeEntry } from "../index/editor.ts";
import { buildIndex, makeEntry } from "../index/_memory_index.ts";
import { queryTerms, search } from "../search/rank.ts";
import { promptTerms } from "../prompt/keywords.ts";
import { searchPhrases } from "../search_augment/terms.ts";
import { phraseMatches } from "../search_augment/match.ts";
import { termOf } from "./tokenize.ts";

/** Titles of every kind the tokenizer treats apart: compounds, accents, scripts, stems. */
const TITLES = [
  "Pod stuck in CrashLoopBackOff",
  "Never force-push to main",
  "Über die Größe der Dateien",
  "Straße und Hausnummer",
  "本番へのデプロイ手順",
  "k8sのデプロイ",
  "서버 배포 방법",
  "parseHTMLString returns garbage",
  "rotate_token script fails",
  "Rotating the leaked Cloudflare tokens",
  "naïve café ordering",
  "ﬁle names in ｶﾀｶﾅ",
  "Привет мир deployment",
];

const entries = TITLES.map((title, at) =>
  makeEntry({ id: `kb-${String(at).padStart(5, "0")}`, title, body: "Notes." })
);
const reader = buildIndex([
  ...entries,
  ...Array.from(
    { length: 20 },
    (_, at) =>
      makeEntry({
        id: `kb-f${String(at).padStart(4, "0")}`,
        title: `Filler ${at}`,
        body: "Other.",
      }),
  ),
]).reader();

/** The terms the index holds for an entry's title. */
function indexTitleTerms(title: string): Set<string> {
  const { terms } = analyzeEntry(makeEntry({ title, body: "" }), "entries/x.md", "h");
  return new Set([...terms].filter(([, counts]) => counts[0] > 0).map(([term]) => term));
}

/** Whether every one of `terms` is in `held`, naming the first that is not. */
function allHeld(terms: Iterable<string>, held: Set<string>, label: string): void {
  for (const term of terms) assert(held.has(term), `${label}: "${term}" not in [${[...held]}]`);
}

for (const [at, title] of TITLES.entries()) {
  Deno.test(`one tokenizer: ${title}`, () => {
    const held = indexTitleTerms(title);
    assert(held.size > 0, "the index holds terms for it");

    const typed = [...queryTerms(reader, title)].filter(([, weight]) => weight === 1);
    assertEquals(new Set(typed.map(([term]) => term)), held, "search looks up the index's terms");
    assertStrictEquals(search(reader, [title])[0]?.doc.id, entries[at].id, "search finds it first");

    const prompt = promptTerms(title).map(({ term }) => term);
    assert(prompt.length > 0, "the prompt hook reads terms");
    allHeld(prompt, held, "prompt hook");

    const phrases = searchPhrases("Grep", { pattern: title });
    assert(phrases.length > 0, "the search augment reads a phrase");
    for (const phrase of phrases) {
      allHeld(phrase.split(" ").map(termOf).filter(Boolean), held, "search augment");
      assert(phraseMatches(reader, phrase).includes(at), `the augment's "${phrase}" finds it`);
    }
  });
}

Deno.test("one tokenizer: a Grep for a title's camelCase word finds the entry", () => {
  for (const [pattern, at] of [["CrashLoopBackOff", 0], ["parseHTMLString", 7]] as const) {
    const [phrase] = searchPhrases("Grep", { pattern });
    assert(phraseMatches(reader, phrase).includes(at), `${pattern} → "${phrase}"`);
    assertStrictEquals(search(reader, [pattern])[0]?.doc.id, entries[at].id, pattern);
  }
  const [snake] = searchPhrases("Bash", { command: "rg -n 'rotate_token'" });
  assert(phraseMatches(reader, snake).includes(8), `rotate_token → "${snake}"`);
});
