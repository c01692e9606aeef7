import { assert, assertEquals, assertNotStrictEquals } from "@std/assert";
import { MAX_STEM_LENGTH, stem } from "./stem.ts";

/** Outputs of M. F. Porter's reference implementation for the same words. */
const PORTER: ReadonlyArray<readonly [string, string]> = [
  // Step 1a: plurals.
  ["caresses", "caress"],
  ["ponies", "poni"],
  ["ties", "ti"],
  ["caress", "caress"],
  ["cats", "cat"],
  ["tokens", "token"],
  // Step 1b: -eed, -ed, -ing and their repairs.
  ["feed", "feed"],
  ["agreed", "agre"],
  ["plastered", "plaster"],
  ["bled", "bled"],
  ["motoring", "motor"],
  ["sing", "sing"],
  ["conflated", "conflat"],
  ["troubled", "troubl"],
  ["sized", "size"],
  ["hopping", "hop"],
  ["running", "run"],
  ["tanned", "tan"],
  ["falling", "fall"],
  ["hissing", "hiss"],
  ["fizzed", "fizz"],
  ["failing", "fail"],
  ["filing", "file"],
  ["hoping", "hope"],
  // Step 1c: y → i.
  ["happy", "happi"],
  // Step 2.
  ["relational", "relat"],
  ["conditional", "condit"],
  ["rational", "ration"],
  ["digitizer", "digit"],
  ["vietnamization", "vietnam"],
  ["predication", "predic"],
  ["operator", "oper"],
  ["feudalism", "feudal"],
  ["decisiveness", "decis"],
  ["hopefulness", "hope"],
  ["callousness", "callous"],
  ["valenci", "valenc"],
  ["hesitanci", "hesit"],
  ["conformabli", "conform"],
  ["radicalli", "radic"],
  ["differentli", "differ"],
  ["vileli", "vile"],
  ["analogousli", "analog"],
  ["formaliti", "formal"],
  ["sensitiviti", "sensit"],
  ["sensibiliti", "sensibl"],
  ["archaeologi", "archaeolog"],
  // Step 3.
  ["triplicate", "triplic"],
  ["formative", "form"],
  ["formalize", "formal"],
  ["electrical", "electr"],
  ["hopeful", "hope"],
  ["goodness", "good"],
  ["electriciti", "electr"],
  // Step 4.
  ["revival", "reviv"],
  ["allowance", "allow"],
  ["inference", "infer"],
  ["airliner", "airlin"],
  ["gyroscopic", "gyroscop"],
  ["adjustable", "adjust"],
  ["defensible", "defens"],
  ["irritant", "irrit"],
  ["replacement", "replac"],
  ["adjustment", "adjust"],
  ["dependent", "depend"],
  ["adoption", "adopt"],
  ["communism", "commun"],
  ["activate", "activ"],
  ["homologous", "homolog"],
  ["effective", "effect"],
  ["bowdlerize", "bowdler"],
  ["angulariti", "angular"],
  ["homologou", "homolog"],
  // Step 5.
  ["probate", "probat"],
  ["rate", "rate"],
  ["cease", "ceas"],
  ["controll", "control"],
  ["roll", "roll"],
  // Several steps in a row.
  ["generalizations", "gener"],
  ["oscillators", "oscil"],
];

Deno.test("stem matches Porter's algorithm on a table of words", () => {
  const wrong = PORTER.filter(([word, expected]) => stem(word) !== expected)
    .map(([word, expected]) => `${word}: expected ${expected}, got ${stem(word)}`);
  assertEquals(wrong, []);
});

Deno.test("inflections of one word share a stem", () => {
  const families = [
    ["rotating", "rotated", "rotation", "rotate", "rotates"],
    ["token", "tokens"],
    ["deploy", "deploys", "deployed", "deploying"],
    ["connect", "connected", "connecting", "connection", "connections"],
    ["migrate", "migrating", "migration", "migrations"],
  ];
  for (const family of families) {
    const stems = new Set(family.map(stem));
    assertEquals(stems.size, 1, `${family.join(", ")} → ${[...stems].join(", ")}`);
  }
  assertEquals(stem("rotating"), "rotat");
});

Deno.test("different words keep different stems", () => {
  assertNotStrictEquals(stem("token"), stem("take"));
  assertNotStrictEquals(stem("deploy"), stem("develop"));
  assertNotStrictEquals(stem("cache"), stem("catch"));
});

Deno.test("words of three letters or fewer are unchanged", () => {
  for (const word of ["", "a", "is", "was", "ies", "bus", "ing", "eed"]) {
    assertEquals(stem(word), word);
  }
});

Deno.test("words with anything but a-z are unchanged", () => {
  for (
    const word of ["Running", "tokens2", "café", "naïveties", "node_modules", "über", "running!"]
  ) {
    assertEquals(stem(word), word);
  }
});

Deno.test("stem keeps -ss and -us words whole", () => {
  assertEquals(stem("class"), "class");
  assertEquals(stem("status"), "status");
});

Deno.test("stem is idempotent on its own output for common words", () => {
  for (const word of ["rotat", "token", "run", "hop", "deploy"]) {
    assertEquals(stem(stem(word)), stem(word));
  }
});

Deno.test("runs of y alternate consonant and vowel as Porter's rule says", () => {
  // Stems of the recursive rule this stemmer had before it walked runs of y.
  const runs: [string, string][] = [
    ["yyyy", "yyyi"],
    ["yyyyy", "yyyyi"],
    ["byyyying", "byyi"],
    ["ayyyyed", "ayyyi"],
    ["toyyyyness", "toyyyy"],
    ["syzygy", "syzygi"],
    ["yyyyational", "yyyyat"],
    ["eyyyyly", "eyyyyli"],
  ];
  assertEquals(runs.map(([word]) => [word, stem(word)]), runs);
});

Deno.test("a word over MAX_STEM_LENGTH comes back whole, at once, however many y's it has", () => {
  const longest = "y".repeat(MAX_STEM_LENGTH);
  assertEquals(stem(longest), "y".repeat(MAX_STEM_LENGTH - 1) + "i");
  const started = performance.now();
  for (const length of [MAX_STEM_LENGTH + 1, 10_000, 20_000, 1_000_000]) {
    const word = "y".repeat(length);
    assertEquals(stem(word), word);
    assertEquals(stem(`${"y".repeat(length)}ing`), `${"y".repeat(length)}ing`);
  }
  assert(performance.now() - started < 1000, "long words are not stemmed");
});
