import { assert, assertEquals } from "@std/assert";
import {
  countTerms,
  distinctTerms,
  foldAccents,
  MAX_SPLIT_CHARS,
  MAX_SPLIT_WORDS,
  MAX_TERM_LENGTH,
  splitWords,
  STOPWORDS,
  termOf,
  tokenize,
} from "./tokenize.ts";
import { stem } from "./stem.ts";

Deno.test("tokenize lowercases and stems", () => {
  assertEquals(tokenize("Rotating TOKENS"), [stem("rotating"), stem("tokens")]);
  assertEquals(tokenize("Rotating TOKENS"), ["rotat", "token"]);
  const deploy = stem("deploy"); // Porter: "deploi"
  assertEquals(tokenize("DEPLOY Deploy deploy"), [deploy, deploy, deploy]);
});

Deno.test("tokenize drops stopwords, checked before stemming", () => {
  assertEquals(tokenize("the token is in the cache"), ["token", "cach"]);
  assertEquals(tokenize("Please help me, I want to make sure it works"), ["work"]);
  assertEquals(tokenize("The THE the"), []);
  for (const word of ["the", "and", "please", "help", "want"]) assert(STOPWORDS.has(word), word);
  // A stopword only matters as a whole word: "there" is one, "thereby" is not.
  assertEquals(tokenize("there thereby"), ["therebi"]);
});

Deno.test("tokenize drops one-character tokens", () => {
  assertEquals(tokenize("a b c x y z 1 2 go"), ["go"]);
  assertEquals(tokenize("v8 s3"), ["v8", "s3"]);
});

Deno.test("tokenize splits on punctuation: node.js, ci/cd, snake_case, kebab-case", () => {
  assertEquals(tokenize("node.js"), ["node", "js"]);
  assertEquals(tokenize("ci/cd"), ["ci", "cd"]);
  assertEquals(tokenize("snake_case"), ["snake", "case", "snakecas"], "and the joined form");
  assertEquals(tokenize("docker-compose"), ["docker", "compos", "dockercompos"]);
  assertEquals(tokenize("foo@bar.com:8080"), ["foo", "bar", "com", "8080"]);
  assertEquals(tokenize("  \n\t "), []);
  assertEquals(tokenize(""), []);
});

Deno.test("tokenize keeps letters of other scripts, lowercased, accents folded", () => {
  assertEquals(tokenize("Über café"), ["uber", "cafe"]);
  assertEquals(tokenize("Données déployées"), ["donne", "deploye"]);
  assertEquals(tokenize("Привет мир"), ["привет", "мир"]);
  assertEquals(tokenize("東京 タワー"), ["東京", "タワ", "ワー"]);
});

Deno.test("tokenize keeps order and repeats", () => {
  assertEquals(tokenize("cache token cache"), ["cach", "token", "cach"]);
});

Deno.test("distinctTerms drops repeats and keeps first-seen order", () => {
  assertEquals(distinctTerms("cache token cache tokens rotate"), ["cach", "token", "rotat"]);
  assertEquals(distinctTerms("zeta alpha zeta alpha"), ["zeta", "alpha"]);
  assertEquals(distinctTerms("the a an").length, 0);
});

Deno.test("countTerms counts what tokenize finds, per field, in ASCII and other scripts", () => {
  const texts = [
    "Rotate the leaked tokens; rotating TOKENS again, then rotate-tokens.sh",
    "Überprüfe den Cache: cache cache Café ☕ 東京 東京",
    "",
    "the a an of",
  ];
  for (const text of texts) {
    const counts = new Map<string, [number, number, number]>();
    const found = countTerms(text, 2, counts);
    const terms = tokenize(text);
    assertEquals(found, terms.length, text);
    const expected = new Map<string, [number, number, number]>();
    for (const term of terms) {
      const known = expected.get(term) ?? [0, 0, 0];
      known[2]++;
      expected.set(term, known);
    }
    assertEquals(counts, expected, text);
  }
  const both = new Map<string, [number, number, number]>();
  countTerms("Rotate tokens", 0, both);
  countTerms("token rotation token", 2, both);
  assertEquals(both.get("token"), [1, 0, 2]);
  assertEquals(both.get("rotat"), [1, 0, 1]);
});

Deno.test("splitWords gives words and their tokens, the same when asked again or in turn", () => {
  const prompt = "Fix console.log in  ci/cd now";
  const expected = ["fix", "console", "log", "in", "ci", "cd", "now"];
  for (const text of [prompt, prompt, "naïve Café", prompt]) {
    const tokens: number[] = [];
    const words = splitWords(text, tokens);
    if (text !== prompt) {
      assertEquals([...words], ["naive", "cafe"]);
      assertEquals(tokens, [0, 1]);
      continue;
    }
    assertEquals([...words], expected);
    assertEquals(tokens, [0, 1, 1, 2, 3, 3, 4], "parts of one token share its number");
  }
  assertEquals([...splitWords("a\u00a0b\tc")], ["a", "b", "c"], "any whitespace separates");
});

Deno.test("a word over MAX_TERM_LENGTH makes a term of its first characters, unstemmed", () => {
  const long = "rotating".repeat(20);
  assertEquals(termOf(long), long.slice(0, MAX_TERM_LENGTH));
  assertEquals(tokenize(`the ${long} tokens`), [long.slice(0, MAX_TERM_LENGTH), "token"]);
  const script = "Ελληνικά".repeat(20);
  assertEquals(tokenize(`${script} café`), [
    foldAccents(script).toLowerCase().slice(0, MAX_TERM_LENGTH),
    "cafe",
  ]);
  assertEquals(termOf("rotating".repeat(8)), stem("rotating".repeat(8)), "64 characters: stemmed");
});

Deno.test("tokenizing a huge body stays linear: runs of y, a 1 MB word, many unique words", () => {
  const bodies = [
    Array.from({ length: 8 }, () => "y".repeat(20_000)).join(" "),
    "x".repeat(1_000_000),
    Array.from({ length: 50_000 }, (_, index) => `w${index.toString(36)}ing`).join(" "),
    Array.from({ length: 30_000 }, (_, index) => `é${index.toString(36)}y`).join(" "),
  ];
  for (const body of bodies) {
    const started = performance.now();
    const terms = tokenize(body);
    const ms = performance.now() - started;
    assert(terms.length > 0 && terms.every((term) => term.length <= MAX_TERM_LENGTH));
    assert(ms < 2000, `${body.slice(0, 20)}…: ${ms.toFixed(0)} ms`);
  }
});

Deno.test("splitWords gives at most MAX_SPLIT_WORDS words, tokens in step, in either script", () => {
  for (const word of ["token", "café"]) {
    const tokens: number[] = [];
    const words = splitWords(`${word} `.repeat(MAX_SPLIT_WORDS * 3), tokens);
    assertEquals(words.length, MAX_SPLIT_WORDS);
    assertEquals(tokens.length, MAX_SPLIT_WORDS);
    assertEquals(tokens.at(-1), MAX_SPLIT_WORDS - 1);
  }
});

Deno.test("splitWords reads the first MAX_SPLIT_CHARS characters, in either script", () => {
  for (const letter of ["k", "\u0130"]) {
    const words = splitWords(`${letter.repeat(MAX_SPLIT_CHARS)} tail`);
    assertEquals(words.length, 1);
    assert(!words.includes("tail"), letter);
  }
  assertEquals(splitWords(`${"k".repeat(MAX_SPLIT_CHARS - 5)} tail`).at(-1), "tail");
});

/** [text, its terms]: accents folded, CJK bigrams, compounds both ways. */
const TERMS_TABLE: [string, string[]][] = [
  ["Über die Größe", ["uber", "die", "gross"]],
  ["uber grosse", ["uber", "gross"]],
  ["Straße STRAẞE Strasse", ["strass", "strass", "strass"]],
  ["Ærøskøbing łódź", ["aeroskob", "lodz"]],
  ["ﬁle Ａｂｃ", ["file", "abc"]],
  ["İstanbul", ["istanbul"]],
  ["デプロイ", ["デプ", "プロ", "ロイ"]],
  ["本番へのデプロイ", ["本番", "番へ", "への", "のデ", "デプ", "プロ", "ロイ"]],
  ["k8sのデプロイ", ["k8s", "のデ", "デプ", "プロ", "ロイ"]],
  ["ｶﾀｶﾅ", ["カタ", "タカ", "カナ"]],
  ["서버 배포", ["서버", "배포"]],
  ["猫 犬", []],
  ["CrashLoopBackOff", ["crashloopbackoff", "crash", "loop", "back"]],
  ["parseHTMLString", ["parsehtmlstr", "pars", "html", "string"]],
  ["force-push", ["forc", "push", "forcepush"]],
  ["crash_loop back-off", ["crash", "loop", "back", "crashloop", "backoff"]],
  ["--no-prompt _private_name trailing-", [
    "prompt",
    "privat",
    "name",
    "trail",
    "noprompt",
    "privatenam",
  ]],
  ["2026-01-15 550e8400-e29b", ["2026", "01", "15", "550e8400", "e29b"]],
];

Deno.test("tokenize: accents, scripts and compounds, table", () => {
  for (const [text, terms] of TERMS_TABLE) assertEquals(tokenize(text), terms, text);
});

Deno.test("splitWords folds and cuts into bigrams too, but keeps a compound one word", () => {
  const tokens: number[] = [];
  assertEquals(splitWords("Größe デプロイ CrashLoopBackOff", tokens), [
    "grosse",
    "デプ",
    "プロ",
    "ロイ",
    "crashloopbackoff",
  ]);
  assertEquals(tokens, [0, 1, 1, 1, 2], "a run's bigrams share its token");
  const many: number[] = [];
  assertEquals(splitWords("デ".repeat(MAX_SPLIT_WORDS * 2), many).length, MAX_SPLIT_WORDS);
  assertEquals(many.length, MAX_SPLIT_WORDS);
});

Deno.test("foldAccents leaves ASCII alone and Hangul and kana whole", () => {
  assertEquals(foldAccents("plain text"), "plain text");
  assertEquals(foldAccents("Crème brûlée"), "Creme brulee");
  assertEquals(foldAccents("배포 デプロイ"), "배포 デプロイ");
});
