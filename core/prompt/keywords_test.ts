/**
 * The bounds of a prompt's terms (core/prompt/keywords.ts): how many are looked up, from how many
 * words, and how a huge word is named. Matching itself is tested with the decision, in
 * core/prompt/decision_test.ts.
 */
import { assert, assertEquals } from "@std/assert";
import {
  MAX_PROMPT_TERMS,
  NAMING_FLOOR,
  NAMING_SPREAD,
  namingShare,
  promptTerms,
} from "./keywords.ts";
import { MAX_SPLIT_CHARS, MAX_SPLIT_WORDS, MAX_TERM_LENGTH } from "../text/tokenize.ts";

/** `count` distinct words that are neither stopwords nor stemmed together. */
function uniqueWords(count: number, prefix = "q"): string[] {
  return Array.from({ length: count }, (_, index) => `${prefix}${index.toString(36)}z`);
}

Deno.test("promptTerms looks up at most MAX_PROMPT_TERMS terms, the first ones", () => {
  const words = uniqueWords(MAX_PROMPT_TERMS * 3);
  const terms = promptTerms(words.join(" "));
  assertEquals(terms.length, MAX_PROMPT_TERMS);
  assertEquals(terms.map((term) => term.word), words.slice(0, MAX_PROMPT_TERMS));
  const repeated = promptTerms(`${"token ".repeat(MAX_SPLIT_WORDS)} rotate`);
  assertEquals(repeated.map((term) => term.word), ["token"], "past the words looked at");
});

Deno.test("promptTerms looks up MAX_PROMPT_TERMS terms at most, however often words share them", () => {
  // 100 terms make 4,950 dotted words of two: each is a word of its own, and each of its terms is
  // looked up for it.
  const parts = uniqueWords(100);
  const pairs = parts.flatMap((first, at) =>
    parts.slice(at + 1).map((second) => `${first}.${second}`)
  );
  const terms = promptTerms(pairs.join(" "));
  assertEquals(terms.length, MAX_PROMPT_TERMS);
  assertEquals(new Set(terms.map((term) => term.token)).size, MAX_PROMPT_TERMS / 2);
});

Deno.test("promptTerms keeps a dotted word whole or leaves it out", () => {
  // `console.log` does not fit beside 999 terms: cut to `console`, it would match entries about
  // consoles. A word that fits after it still counts.
  const words = uniqueWords(MAX_PROMPT_TERMS - 1);
  const terms = promptTerms(`${words.join(" ")} console.log rotate`);
  assertEquals(terms.map((term) => term.word), [...words, "rotate"]);
});

Deno.test("promptTerms counts a dotted word once, whatever order its parts come in", () => {
  const terms = promptTerms("deploy.keys then keys.deploy");
  assertEquals(terms.map(({ word, token }) => [word, token]), [["deploy", 0], ["keys", 0]]);
});

Deno.test("promptTerms names a word over MAX_TERM_LENGTH by its term, in either script", () => {
  for (const letter of ["k", "ж"]) {
    // As long as a word can be within the characters read (MAX_SPLIT_CHARS), and more.
    const huge = letter.repeat(MAX_SPLIT_CHARS - 100);
    const [term, next] = promptTerms(`${huge} rotate`);
    assertEquals(term.term, letter.repeat(MAX_TERM_LENGTH));
    assertEquals(term.word, term.term);
    assertEquals(next.word, "rotate");
  }
});

Deno.test("promptTerms of any prompt takes well under a second", () => {
  const prompts = [
    uniqueWords(150_000).join(" "),
    uniqueWords(100_000, "é").join(" "),
    Array.from({ length: 40 }, () => "y".repeat(10_000)).join(" "),
    "\u0000\ud800".repeat(500_000),
    "a.".repeat(500_000),
    Array.from({ length: 100_000 }, (_, index) => `q${index % 150}z.q${index % 149}z`).join(" "),
  ];
  for (const prompt of prompts) {
    const started = performance.now();
    const terms = promptTerms(prompt);
    const ms = performance.now() - started;
    assert(terms.length <= MAX_PROMPT_TERMS);
    assert(ms < 1000, `${JSON.stringify(prompt.slice(0, 12))}…: ${ms.toFixed(0)} ms`);
  }
});

Deno.test("namingShare: in full up to NAMING_SPREAD times the typical names, in proportion past it", () => {
  for (const typical of [25, 40]) {
    assertEquals(namingShare(typical, typical), 1);
    assertEquals(namingShare(NAMING_SPREAD * typical, typical), 1);
    assertEquals(namingShare(2 * NAMING_SPREAD * typical, typical), 0.5);
    assertEquals(namingShare(100 * NAMING_SPREAD * typical, typical), 0.01);
  }
});

Deno.test("namingShare: NAMING_FLOOR names count in full, whatever few the other entries hold", () => {
  // A knowledge base's first entry has no others; a second may have a title of three words.
  for (const typical of [0, 3]) {
    assertEquals(namingShare(12, typical), 1);
    assertEquals(namingShare(NAMING_FLOOR, typical), 1);
    assertEquals(namingShare(2 * NAMING_FLOOR, typical), 0.5);
  }
});
