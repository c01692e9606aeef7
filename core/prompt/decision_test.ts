/**
 * Table tests of the prompt hook's decision (core/prompt/decision.ts) against in-memory indexes built
 * with the real IndexEditor, every file going through JSON as it would on disk.
 */
import { fenceFor } from "../text/display.ts";
import { assert, assertEquals, assertStrictEquals } from "@std/assert";
import type { Entry } from "../entry/entry.ts";
import { type KernelRule, shardCountFor } from "../index/format.ts";
import type { IndexReader } from "../index/reader.ts";
import { buildIndex, makeEntry } from "../index/_memory_index.ts";
import { LIMITS } from "../entry/schema.ts";
import {
  ACTIVITY_LEXICON,
  assemble,
  classifyActivities,
  decide,
  DEFAULT_SURFACE_CONFIG,
  isMechanical,
  type Ledger,
  type Pointer,
  SKIP_PATTERNS,
  skipReason,
  type SurfaceConfig,
} from "./decision.ts";
import { type FiringRule, keywordMatches, promptTerms } from "./keywords.ts";
import { distinctTerms } from "../text/tokenize.ts";
import { search } from "../search/rank.ts";
import { createRandom } from "../../bench/generate.ts";

// ---------------------------------------------------------------------------------------------
// Helpers

const KB = "/kb";
const FETCH = (ids: string[]) => `git-kb get ${ids.join(" ")} --kb ${KB}`;
const HEADER = "git-kb: knowledge from the user's knowledge base for this prompt.";
const POINTERS_HEADING = "Entries that may bear on this prompt";
const KERNEL_HEADING = "Rules that always apply:";

/** An entry spec: everything optional but id and title; `hash` overrides the content hash. */
type Spec = Partial<Entry> & { id: string; title: string; hash?: string };

function entryOf(spec: Spec): Entry {
  const { hash: _hash, ...fields } = spec;
  return makeEntry({ body: "Plain words that say nothing much.\n", ...fields });
}

function hashOf(spec: Spec): string {
  return spec.hash ?? `h-${spec.id}`;
}

/** Build an index of `specs` in memory and open a reader. */
function buildReader(specs: Spec[]): IndexReader {
  const hashes = new Map(specs.map((spec) => [spec.id, hashOf(spec)]));
  return buildIndex(specs.map(entryOf), {
    shardCount: shardCountFor(specs.length),
    kernelBodies: true,
    hashOf: (entry) => hashes.get(entry.id)!,
  }).reader();
}

function ids(pointers: Pointer[] | undefined): string[] {
  return (pointers ?? []).map((pointer) => pointer.id);
}

function lines(text: string): string[] {
  return text.split("\n");
}

/** The pointer line of `id` in `text`, or undefined. */
function pointerLine(text: string, id: string): string | undefined {
  return lines(text).find((line) => line.startsWith(`- ${id} `));
}

/** The `Fetch full text:` line, or undefined. */
function fetchLine(text: string): string | undefined {
  return lines(text).find((line) => line.startsWith("Fetch full text: "));
}

/** The near misses of a decision as ids and words, without their evidence. */
function missHits(decision: { nearMisses: { id: string; hits: string[] }[] }) {
  return decision.nearMisses.map(({ id, hits }) => ({ id, hits }));
}

function config(overrides: Partial<SurfaceConfig>): SurfaceConfig {
  return { ...DEFAULT_SURFACE_CONFIG, ...overrides };
}

/**
 * A firing rule that fires whenever the threshold is reached and lists down to a quarter of the
 * best entry's evidence, in any order of search scores: for the tests of what the rule does not
 * decide (ranking, the budget, dedup, common words).
 */
const WIDE: FiringRule = {
  weakestMatch: 0,
  soleShare: 0,
  strongMatch: 0,
  promptShare: 0,
  lead: 0,
  named: 0,
  unnamedMatch: 0,
  beyondChance: 0,
  bestShare: 0.25,
  rankFloor: 0,
};

/** A five-character id suffix from a number. */
function idOf(prefix: string, index: number): string {
  return `kb-${prefix}${index.toString(36).padStart(5 - prefix.length, "0")}`;
}

/** A title of exactly `length` characters starting with `start`. */
function longTitle(start: string, length: number, index: number): string {
  const filler = ` variant ${index} of the extremely detailed operational runbook section`;
  let title = start;
  while (title.length < length) title += filler;
  return title.slice(0, length).trimEnd().padEnd(length, "x");
}

// The base knowledge base: no kernel, a few active entries, superseded/archived look-alikes.
const BASE: Spec[] = [
  {
    id: "kb-tok01",
    title: "Rotate a leaked npm token",
    type: "howto",
    tags: ["security", "npm"],
  },
  {
    id: "kb-sup01",
    title: "Rotate leaked npm tokens the old manual way",
    type: "howto",
    tags: ["security", "npm", "token"],
    aliases: ["rotate leaked credentials"],
    appliesTo: ["reviewing", "coding"],
    status: "superseded",
  },
  {
    id: "kb-arc01",
    title: "Rotate leaked npm tokens on Travis",
    type: "howto",
    tags: ["security", "npm", "travis"],
    appliesTo: ["reviewing"],
    status: "archived",
  },
  {
    id: "kb-rev01",
    title: "Gatekeeping checklist before merging",
    type: "rule",
    tags: ["quality"],
    appliesTo: ["reviewing"],
  },
  {
    id: "kb-pln01",
    title: "Freeze the branch ahead of launch",
    type: "decision",
    tags: ["launch"],
    appliesTo: ["planning"],
  },
  {
    id: "kb-pg001",
    title: "Postgres connection pool sizing",
    type: "concept",
    tags: ["postgres", "database"],
  },
];

const KERNEL_A: Spec = {
  id: "kb-ker0a",
  title: "Answer in plain words",
  type: "rule",
  kernel: true,
  body:
    "\nSay what happened, then why.\n\n- no hype\n- `code` stays *as is*\n\n```text\nexample\n```\n",
};
const KERNEL_B: Spec = {
  id: "kb-ker0b",
  title: "Never rotate credentials without telling the team",
  type: "rule",
  kernel: true,
  tags: ["npm", "token"],
  body: "Post in #security before and after a rotation.\n",
};

const SOURDOUGH =
  "My sourdough bread bakes up dense and gummy although the starter rises nicely overnight.";

// ---------------------------------------------------------------------------------------------
// Skip

Deno.test("skipReason: empty, whitespace, short and slash commands", () => {
  const table: [string, string][] = [
    ["", "empty"],
    ["   ", "empty"],
    [" \n\t \r\n ", "empty"],
    ["ok", "short"],
    ["fix the bug", "short"],
    ["  hi there  ", "short"],
    ["/help", "slash_command"],
    ["/review please look at the whole pull request for the payment module", "slash_command"],
    ["   /compact   ", "slash_command"],
  ];
  for (const [prompt, reason] of table) {
    assertEquals(skipReason(prompt), reason, JSON.stringify(prompt));
  }
});

Deno.test("skipReason: each mechanical pattern family skips (default config)", () => {
  const table = [
    "yes",
    "thanks!",
    "thank you!!!",
    "continue",
    "lgtm",
    "commit and push",
    "git commit and push",
    "please commit the changes",
    "push it now",
    "run the tests again",
    "rerun the tests",
    "run all the tests",
    "re-run the build once more",
    "fix lint errors",
    "fix the lint warnings",
    "fix the formatting issues",
    "format the code!",
    "run deno fmt",
    "please keep going",
    "try again.",
    "revert that",
    "👍👍👍👍👍👍👍👍👍👍👍👍",
    "?????????????",
    "!!!!!!!!!!!!!!!!",
  ];
  for (const prompt of table) {
    const reason = skipReason(prompt);
    assert(reason === "mechanical" || reason === "short", `${JSON.stringify(prompt)} → ${reason}`);
  }
});

Deno.test("skipReason: mechanical prompts are skipped even when short ones are allowed", () => {
  const loose = config({ minChars: 0 });
  const prompts = [
    "yes",
    "thanks!",
    "Thank you.",
    "ok",
    "continue",
    "lgtm",
    "go ahead",
    "hmmm",
    "retry?",
    "commit",
    "push",
    "git push",
    "commit and push",
    "Please commit everything.",
    "run the tests again",
    "rerun tests",
    "run lint",
    "run the checks once more",
    "fix lint errors",
    "fix the types",
    "fix typos",
    "format code",
    "run fmt",
    "keep going",
    "carry on!",
    "try again",
    "undo that",
    "revert it",
    "re-run the build",
  ];
  for (const prompt of prompts) {
    assertEquals(skipReason(prompt, loose), "mechanical", JSON.stringify(prompt));
    assert(
      isMechanical(prompt) || SKIP_PATTERNS.some((pattern) => pattern.test(prompt)),
      JSON.stringify(prompt),
    );
  }
});

Deno.test("skipReason: substantive prompts that start like mechanical ones are not skipped", () => {
  const table = [
    "commit message conventions for our monorepo releases",
    "push notifications arrive late on the Android app",
    "run the tests for the payment module with coverage and tell me what fails",
    "fix lint errors in the generated protobuf code without touching the generator",
    "continue the migration from MySQL to Postgres where we stopped yesterday",
    "yes, but how do we rotate the leaked npm token?",
    "thanks! now write the changelog entry for the 0.4 release",
    "How do I rotate a leaked Cloudflare token used by our CI?",
    "format the dates in the invoice export as ISO 8601",
    "the nightly CI job fails since this morning, why?",
    "hello world example for the payments SDK",
  ];
  for (const prompt of table) assertEquals(skipReason(prompt), undefined, JSON.stringify(prompt));
});

Deno.test("skipReason: common mechanical phrasings are skipped", () => {
  // Everyday follow-ups in an agent session; none carries a topic to surface knowledge for.
  const table = [
    "yes, go ahead",
    "please continue",
    "continue please",
    "ok, continue",
    "please proceed",
    "great, thanks!",
    "commit these changes",
    "commit and push please",
    "lgtm, ship it",
    "looks good, ship it!",
    "sgtm, thanks",
    "great, thanks a lot! you're awesome",
    // Small talk.
    "thank you so much, that was really helpful!",
    "great job, thanks!",
    "perfect, thanks a lot",
    "hello there, how are you today?",
    "good morning!",
    "ok thanks, bye",
    "what do you think?",
    "hmm, let me think about it",
    "never mind that",
    "please continue where you left off",
  ];
  const missed = table.filter((prompt) => skipReason(prompt) === undefined);
  assertEquals(missed, [], `not skipped: ${JSON.stringify(missed)}`);
});

Deno.test("decide on a skipped prompt: outcome skipped, no kernel, no index reads needed", () => {
  const reader = buildReader([...BASE, KERNEL_A]);
  for (const [prompt, reason] of [["", "empty"], ["/help", "slash_command"], ["thanks", "short"]]) {
    const decision = decide(prompt, reader, {}, FETCH);
    assertEquals(decision.outcome, "skipped");
    assertEquals(decision.skipReason, reason);
    assertEquals(decision.assembly, undefined);
    assertEquals(decision.nearMisses, []);
  }
  const mechanical = decide("run the tests again", reader, {}, FETCH);
  assertEquals(mechanical.outcome, "skipped");
  assertEquals(mechanical.skipReason, "mechanical");
});

// ---------------------------------------------------------------------------------------------
// Tokenizing the prompt and classifying it

Deno.test("promptTerms: the same terms as the index tokenizer, with the first surface word", () => {
  const prompts = [
    "How do I rotate a leaked Cloudflare token used by our CI?",
    "Rotating the leaked tokens; rotated tokens, rotation!",
    "Please help me make sure the Postgres connection pool is sized right",
    "Größenänderung der Datenbank — naïve café résumé",
    "CI/CD pipeline: deno-lint & deno_fmt v2.1",
  ];
  for (const prompt of prompts) {
    // The index tokenizer's terms of the words as written; its compounds' other spellings
    // (`denolint` for deno-lint) come after them, and a prompt does not look them up.
    const terms = [...new Set(promptTerms(prompt).map((term) => term.term))];
    assertEquals(terms, distinctTerms(prompt).slice(0, terms.length), prompt);
  }
  const terms = promptTerms("Rotating the leaked tokens; rotated tokens");
  assertEquals(terms[0], { term: distinctTerms("rotating")[0], word: "rotating", token: 0 });
  assertEquals(
    promptTerms("remove the console.log call").map(({ word, token }) => [word, token]),
    [["remove", 0], ["console", 2], ["log", 2], ["call", 3]],
  );
  // A word typed alone is a word of its own, though a dotted word held its term first.
  assertEquals(
    promptTerms("console.log twice, and log it").map(({ word, token }) => [word, token]),
    [["console", 0], ["log", 0], ["twice", 1], ["log", 3]],
  );
  // …and a dotted word keeps all its parts, though one of them was typed alone before it.
  assertEquals(
    promptTerms("log it, then console.log").map(({ word, token }) => [word, token]),
    [["log", 0], ["console", 3], ["log", 3]],
  );
  assert(!terms.some((term) => ["the", "please", "help"].includes(term.word)), "stopwords dropped");
});

Deno.test("classifyActivities: by the lexicon, several at once, none for unrelated text", () => {
  const table: [string, string[]][] = [
    ["please review this pull request for the payment module", ["reviewing"]],
    ["draft the announcement for the next release", ["writing", "planning"]],
    ["implement the endpoint and add tests", ["coding"]],
    ["Plan the Q3 roadmap", ["planning"]],
    [SOURDOUGH, []],
    ["reviewer reviews", []],
  ];
  for (const [prompt, expected] of table) {
    assertEquals(classifyActivities(prompt), expected, prompt);
  }
  for (const [activity, words] of Object.entries(ACTIVITY_LEXICON)) {
    for (const word of words) {
      assert(classifyActivities(`something about ${word} here`).includes(activity as never), word);
    }
  }
});

// ---------------------------------------------------------------------------------------------
// Keyword path: threshold, ranking, max entries

Deno.test("threshold: one distinct hit is a near miss only; two hits match", () => {
  const reader = buildReader(BASE);
  const one = decide("how should we rotate the signing keys every quarter", reader, {}, FETCH);
  assertEquals(one.outcome, "no_signal");
  assertEquals(one.assembly, undefined);
  assertEquals(missHits(one), [{ id: "kb-tok01", hits: ["rotate"] }]);
  assertEquals(one.nearMisses[0].evidence, [{ word: "rotate", weight: 1, where: "title" }]);

  const two = decide("we must rotate the leaked signing keys today", reader, {}, FETCH);
  assertEquals(two.outcome, "surfaced");
  assertEquals(ids(two.assembly?.pointers), ["kb-tok01"]);
  const pointer = two.assembly!.pointers[0];
  assertEquals(pointer.signal, "keyword");
  assertEquals(pointer.why, ["rotate", "leaked"]);
  assertEquals(two.nearMisses, []);
});

Deno.test("threshold: the same word twice is one hit", () => {
  const reader = buildReader(BASE);
  const decision = decide("rotate, rotate, rotating and rotated", reader, {}, FETCH);
  assertEquals(decision.outcome, "no_signal");
  assertEquals(missHits(decision), [{ id: "kb-tok01", hits: ["rotate"] }]);
});

Deno.test("threshold 3 in the config: two hits are a near miss, three match", () => {
  const reader = buildReader(BASE);
  const three = config({ threshold: 3 });
  const two = decide("we must rotate the leaked signing keys today", reader, {}, FETCH, three);
  assertEquals(two.outcome, "no_signal");
  assertEquals(missHits(two), [{ id: "kb-tok01", hits: ["rotate", "leaked"] }]);
  const hit = decide("rotate the leaked npm credentials", reader, {}, FETCH, three);
  assertEquals(hit.outcome, "surfaced");
  assertEquals(ids(hit.assembly?.pointers), ["kb-tok01"]);
  assertEquals(hit.assembly!.pointers[0].why, ["rotate", "leaked", "npm"]);
});

Deno.test("keywordMatches: tags and aliases count, termHits per word, near misses capped", () => {
  const specs: Spec[] = [
    { id: "kb-tag01", title: "Broker notes", tags: ["kafka", "consumer-lag"] },
    { id: "kb-als01", title: "Queue notes", aliases: ["kafka offsets"] },
    ...Array.from({ length: 15 }, (_, index) => ({
      id: idOf("nm", index),
      title: `Offsets chapter ${index}`,
    })),
  ];
  const reader = buildReader(specs);
  const result = keywordMatches(reader, promptTerms("kafka consumer lag and offsets"), 2, {
    rule: WIDE,
  });
  assertEquals(result.ranked.map((hit) => reader.doc(hit.ord)?.id), ["kb-tag01", "kb-als01"]);
  assertEquals(result.ranked[0].words, ["kafka", "consumer", "lag"]);
  assertEquals(result.termHits, { kafka: 2, consumer: 1, lag: 1, offsets: 16 });
  assertEquals(result.nearMisses.length, 10);
  assert(result.nearMisses.every((miss) => miss.words.length === 1));
});

Deno.test("a pointer line names its first eight matched words and counts the rest", () => {
  const words = ["alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel", "india"];
  const reader = buildReader([{ id: "kb-nato1", title: words.join(" ") }, ...unrelated(10)]);
  const decision = decide(words.join(" "), reader, {}, FETCH);
  assertEquals(
    pointerLine(decision.assembly!.text, "kb-nato1"),
    `- kb-nato1 ${words.join(" ")} [note] (matched: ${words.slice(0, 8).join(", ")} and 1 more)`,
  );
  assertEquals(decision.assembly!.pointers[0].why, words, "the pointer keeps every word");
});

Deno.test("ranking: more distinct hits first, then title hits before tag hits", () => {
  const specs: Spec[] = [
    { id: "kb-rk001", title: "Broker notes", tags: ["kafka", "consumer"] },
    { id: "kb-rk002", title: "Kafka consumer basics" },
    { id: "kb-rk003", title: "Kafka consumer lag alerts" },
  ];
  const reader = buildReader(specs);
  const prompt = "kafka consumer lag keeps growing in production";
  const decision = decide(prompt, reader, {}, FETCH, config({ firing: WIDE }));
  assertEquals(ids(decision.assembly?.pointers), ["kb-rk003", "kb-rk002", "kb-rk001"]);
});

Deno.test("max entries: 7 matching entries give 3 pointers; the config can lower it", () => {
  const specs: Spec[] = Array.from({ length: 7 }, (_, index) => ({
    id: idOf("mx", index),
    title: `Kafka consumer runbook ${
      ["alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf"][index]
    }`,
  }));
  specs.push({ id: "kb-mxtop", title: "Kafka consumer lag dashboards" }, ...unrelated(50));
  const reader = buildReader(specs);
  const prompt = "kafka consumer lag keeps growing in production";
  const decision = decide(prompt, reader, {}, FETCH, config({ firing: WIDE }));
  assertEquals(decision.outcome, "surfaced");
  assertEquals(decision.assembly!.pointers.length, DEFAULT_SURFACE_CONFIG.maxEntries);
  assertEquals(DEFAULT_SURFACE_CONFIG.maxEntries, 3);
  assertEquals(decision.assembly!.pointers[0].id, "kb-mxtop", "the 3-hit entry ranks first");
  const listed = lines(decision.assembly!.text).filter((line) => line.startsWith("- kb-"));
  assertEquals(listed.length, 3);
  const two = decide(prompt, reader, {}, FETCH, config({ maxEntries: 2, firing: WIDE }));
  assertEquals(two.assembly!.pointers.length, 2);
});

// ---------------------------------------------------------------------------------------------
// Kinds of work (applies_to)

Deno.test("applies_to: a prompt about that work names the entry, by one word counted once", () => {
  const specs: Spec[] = [
    { id: "kb-rev01", title: "Gatekeeping checklist before merging", appliesTo: ["reviewing"] },
    ...unrelated(10),
  ];
  const prompt = "review the branch before merging";
  const decision = decide(prompt, buildReader(specs), {}, FETCH);
  assertEquals(decision.activities, ["reviewing"]);
  assertEquals(ids(decision.assembly?.pointers), ["kb-rev01"]);
  assertEquals(
    pointerLine(decision.assembly!.text, "kb-rev01"),
    "- kb-rev01 Gatekeeping checklist before merging [note] (matched: review, merging)",
  );
  // Without applies_to, "merging" alone is one word: under the threshold.
  const plain = buildReader([{ ...specs[0], appliesTo: [] }, ...unrelated(10)]);
  assertEquals(decide(prompt, plain, {}, FETCH).outcome, "no_signal");
  // An entry that holds the word itself counts it once, not once more for its applies_to.
  const both = buildReader([
    { id: "kb-rev02", title: "Review checklist", appliesTo: ["reviewing"] },
    ...unrelated(10),
  ]);
  const once = decide("please review", both, {}, FETCH);
  const evidence = once.nearMisses.find((miss) => miss.id === "kb-rev02")?.evidence ?? [];
  assertEquals(evidence.map((item) => item.word), ["review"], JSON.stringify(once));
  assert(evidence[0].weight <= 1, JSON.stringify(evidence));
});

Deno.test("applies_to: the word is a tag of the entries that apply, a body word or a common one alike", () => {
  const inBody: Spec = {
    id: "kb-rev03",
    title: "Gatekeeping checklist",
    body: "Run it before every review.\n",
    appliesTo: ["reviewing"],
  };
  const near = (reader: IndexReader, id: string) =>
    decide("please review", reader, {}, FETCH).nearMisses.find((miss) => miss.id === id)
      ?.evidence ?? [];
  const held = near(buildReader([inBody, ...unrelated(10)]), "kb-rev03");
  assertEquals(held.map(({ word, where }) => [word, where]), [["review", "tags"]]);
  // A word most entries hold counts in titles, tags and aliases only: the entry that applies
  // gets it as a tag, the bodies that hold it get nothing.
  const bodies: Spec[] = Array.from({ length: 12 }, (_, index) => ({
    id: idOf("rb", index),
    title: `Sourdough note ${index}`,
    body: "A review of the crumb.\n",
  }));
  const common = buildReader([
    { ...inBody, id: "kb-rev04", body: "x\n" },
    ...bodies,
    ...unrelated(10),
  ]);
  const tagged = near(common, "kb-rev04");
  assertEquals(tagged.map(({ word, where }) => [word, where]), [["review", "tags"]]);
  assert(tagged[0].weight < 1, "a common word counts less");
  const decision = decide("please review", common, {}, FETCH);
  assert(
    decision.nearMisses.every((miss) => miss.id === "kb-rev04"),
    JSON.stringify(decision.nearMisses),
  );
});

Deno.test("applies_to: the work alone points at nothing, and only one of its words counts", () => {
  const checklists: Spec[] = Array.from({ length: 200 }, (_, index) => ({
    id: idOf("am", index),
    title: `Checklist number ${index}`,
    appliesTo: ["reviewing"],
  }));
  const reader = buildReader([...BASE, ...checklists]);
  const read = new Set<number>();
  const doc = reader.doc.bind(reader);
  reader.doc = (ord) => {
    read.add(ord);
    return doc(ord);
  };
  for (
    const prompt of [
      "please review this pull request for the payment module",
      "please review this before lunch",
      "review the diff, audit it and approve the pr",
    ]
  ) {
    const decision = decide(prompt, reader, {}, FETCH, config({ explain: false }));
    assertEquals(decision.activities, ["reviewing"], prompt);
    assertEquals(decision.assembly?.pointers ?? [], [], prompt);
  }
  assertEquals(read.size, 0, "no entry record is read for a prompt that points at nothing");
  // Five words of the work on an entry that also holds one of them: still the one word.
  const one = buildReader([
    { id: "kb-rev01", title: "Gatekeeping checklist before merging", appliesTo: ["reviewing"] },
    ...unrelated(10),
  ]);
  assertEquals(
    decide("review the diff, audit it and approve", one, {}, FETCH).outcome,
    "no_signal",
  );
});

// ---------------------------------------------------------------------------------------------
// Kernel

Deno.test("kernel: block before pointers, bodies verbatim, ids sorted, never a pointer", () => {
  const reader = buildReader([...BASE, KERNEL_B, KERNEL_A]);
  const decision = decide("we must rotate the leaked npm token today", reader, {}, FETCH);
  assertEquals(decision.outcome, "surfaced");
  const assembly = decision.assembly!;
  assertEquals(assembly.kernel, ["kb-ker0a", "kb-ker0b"]);
  assertEquals(assembly.kernelDegraded, []);
  assertEquals(
    ids(assembly.pointers),
    ["kb-tok01"],
    "kernel B matches keywords but is no pointer",
  );
  const text = assembly.text;
  assert(text.startsWith(HEADER), text);
  const bodyA = KERNEL_A.body!.trim();
  const bodyB = KERNEL_B.body!.trim();
  for (const [rule, body] of [[KERNEL_A, bodyA], [KERNEL_B, bodyB]] as const) {
    const fence = fenceFor(body);
    assert(fence.length >= 3 && !body.includes(fence), "no line of the body closes its fence");
    assert(
      text.includes(`### ${rule.id} ${rule.title}\n${fence}markdown\n${body}\n${fence}\n`),
      text,
    );
  }
  const kernelAt = text.indexOf(KERNEL_HEADING);
  assert(kernelAt > 0);
  assert(text.indexOf("kb-ker0a") < text.indexOf("kb-ker0b"));
  assert(text.indexOf(bodyB) < text.indexOf(POINTERS_HEADING), "kernel block before the pointers");
  assert(text.indexOf(POINTERS_HEADING) < text.indexOf("- kb-tok01"));
  assertEquals(pointerLine(text, "kb-ker0a"), undefined);
  assertEquals(fetchLine(text), `Fetch full text: ${FETCH(["kb-tok01"])}`);
});

Deno.test("kernel: a rule not in force is not inlined, but a prompt about it may point at it", () => {
  const full = buildReader([...BASE, KERNEL_A, ...unrelated(30)]);
  const prompt = "how do I answer in plain words without hype?";
  // In force: inlined, never a pointer.
  const inForce = decide(prompt, full, {}, FETCH);
  assertEquals(inForce.assembly!.kernel, ["kb-ker0a"]);
  assertEquals(ids(inForce.assembly!.pointers), []);
  // Waiting for acceptance: an entry like any other.
  const waiting = decide(prompt, full.withKernel([]), {}, FETCH);
  assertEquals(waiting.assembly!.kernel, []);
  assertEquals(ids(waiting.assembly!.pointers), ["kb-ker0a"]);
});

Deno.test("kernel: a rule in force is never a near miss; one waiting for acceptance may be", () => {
  const reader = buildReader([...BASE, KERNEL_A, ...unrelated(30)]);
  // One word of the rule's title: under the threshold for any entry.
  const prompt = "is a haiku about autumn leaves the right answer?";
  const inForce = decide(prompt, reader, {}, FETCH);
  assertEquals(inForce.assembly!.kernel, ["kb-ker0a"]);
  assertEquals(missHits(inForce), []);
  const waiting = decide(prompt, reader.withKernel([]), {}, FETCH);
  assertEquals(missHits(waiting), [{ id: "kb-ker0a", hits: ["answer"] }]);
});

Deno.test("kernel: a mechanical or conversational prompt gets nothing at all", () => {
  const reader = buildReader([...BASE, KERNEL_A]);
  for (const prompt of ["thanks, that worked!", "please run the whole test suite again"]) {
    const decision = decide(prompt, reader, {}, FETCH);
    assertEquals(decision.outcome, "skipped", prompt);
    assertEquals(decision.skipReason, "mechanical", prompt);
    assertEquals(decision.assembly, undefined, prompt);
  }
});

Deno.test("kernel: on every non-skipped prompt, even with no other signal; never deduped", () => {
  const reader = buildReader([...BASE, KERNEL_A]);
  const alone = decide(SOURDOUGH, reader, {}, FETCH);
  assertEquals(alone.outcome, "surfaced");
  assertEquals(alone.assembly!.kernel, ["kb-ker0a"]);
  assertEquals(alone.assembly!.pointers, []);
  assert(!alone.assembly!.text.includes(POINTERS_HEADING));
  assertEquals(fetchLine(alone.assembly!.text), undefined, "no fetch line without pointers");

  const ledger: Ledger = { "kb-ker0a": hashOf(KERNEL_A), "kb-tok01": "h-kb-tok01" };
  const again = decide("we must rotate the leaked npm token today", reader, ledger, FETCH);
  assertEquals(again.outcome, "surfaced");
  assertEquals(again.assembly!.kernel, ["kb-ker0a"]);
  assert(again.assembly!.text.includes(KERNEL_A.body!.trim()));
  assertEquals(again.assembly!.pointers, []);
  assertEquals(again.deduped, ["kb-tok01"]);
});

Deno.test("kernel: superseded or archived kernel entries are not inlined", () => {
  const reader = buildReader([
    ...BASE,
    { ...KERNEL_A, status: "superseded" },
    { ...KERNEL_B, status: "archived" },
  ]);
  assertEquals(reader.manifest.kernel, []);
  assertEquals(decide(SOURDOUGH, reader, {}, FETCH).outcome, "no_signal");
});

Deno.test("kernel: a body alone over kernelBudgetChars degrades to a pointer", () => {
  const big: Spec = {
    id: "kb-kbig1",
    title: "The whole style guide",
    type: "rule",
    kernel: true,
    body: "Write short sentences. ".repeat(400), // ~9,200 characters
  };
  assert(big.body!.length > LIMITS.kernelBudgetChars);
  const reader = buildReader([...BASE, KERNEL_A, big]);
  const decision = decide("we must rotate the leaked npm token today", reader, {}, FETCH);
  const assembly = decision.assembly!;
  assertEquals(assembly.kernel, ["kb-ker0a"], "the small kernel stays inline");
  assertEquals(assembly.kernelDegraded, ["kb-kbig1"]);
  assertEquals(ids(assembly.pointers), ["kb-tok01"]);
  const text = assembly.text;
  assert(text.length <= LIMITS.hookBudgetChars, `${text.length}`);
  assert(!text.includes("Write short sentences. Write"), "the big body is not inlined");
  assert(text.includes(KERNEL_A.body!.trim()));
  const line = pointerLine(text, "kb-kbig1");
  assert(line?.includes("The whole style guide"), text);
  assert(line?.includes("kernel"), line);
  assertEquals(fetchLine(text), `Fetch full text: ${FETCH(["kb-kbig1", "kb-tok01"])}`);
});

Deno.test("kernel: several kernels together over the kernel budget: the overflow degrades", () => {
  const body = "Keep it simple. ".repeat(150); // 2,400 characters each
  const specs: Spec[] = [0, 1, 2, 3].map((index) => ({
    id: idOf("kn", index),
    title: `Kernel rule ${index}`,
    type: "rule",
    kernel: true,
    body,
  }));
  const reader = buildReader(specs);
  const decision = decide(SOURDOUGH, reader, {}, FETCH);
  const assembly = decision.assembly!;
  assertEquals(assembly.kernel, ["kb-kn000", "kb-kn001"]);
  assertEquals(assembly.kernelDegraded, ["kb-kn002", "kb-kn003"]);
  assert(assembly.text.length <= LIMITS.hookBudgetChars);
  assert(pointerLine(assembly.text, "kb-kn002"));
  assert(pointerLine(assembly.text, "kb-kn003"));
});

Deno.test("kernel: a degraded kernel pointer shows the entry's own type", () => {
  const big: Spec = {
    id: "kb-kbig2",
    title: "How we decide on dependencies",
    type: "decision",
    kernel: true,
    body: "We vendor nothing. ".repeat(400),
  };
  const reader = buildReader([big]);
  const text = decide(SOURDOUGH, reader, {}, FETCH).assembly!.text;
  const line = pointerLine(text, "kb-kbig2");
  assert(line?.includes("[decision]"), `pointer line should say [decision]: ${line}`);
});

// ---------------------------------------------------------------------------------------------
// Budget

function manyLongEntries(count: number, titleChars: number): Spec[] {
  return Array.from({ length: count }, (_, index) => ({
    id: idOf("lg", index),
    title: longTitle("Kafka consumer lag", titleChars, index),
    type: "howto",
    tags: ["kafka", "consumer"],
  }));
}

Deno.test("budget: 200 matching entries with 180-character titles stay under 9,000", () => {
  const specs = manyLongEntries(200, 180);
  assert(specs.every((spec) => spec.title.length === 180));
  // Among 3,300 other entries, a word of 200 of them still says something (0.7 each).
  const reader = buildReader([...specs, ...unrelated(3_300)]);
  const prompt = "kafka consumer lag keeps growing in production";
  const normal = decide(prompt, reader, {}, FETCH, config({ firing: WIDE }));
  assertEquals(normal.assembly!.pointers.length, 3);
  assert(normal.assembly!.text.length <= 9000);

  const unlimited = decide(prompt, reader, {}, FETCH, config({ maxEntries: 200, firing: WIDE }));
  const assembly = unlimited.assembly!;
  const text = assembly.text;
  assert(text.length <= DEFAULT_SURFACE_CONFIG.budgetChars, `${text.length}`);
  assert(text.length <= LIMITS.hookCapChars);
  assert(
    assembly.pointers.length > 1 && assembly.pointers.length < 200,
    `${assembly.pointers.length}`,
  );
  // Fewer first: the ones that remain keep their whole titles.
  for (const pointer of assembly.pointers) {
    assert(pointerLine(text, pointer.id)?.includes(pointer.title), pointer.id);
  }
  // Dropped from the end: the listed ones are the first of the candidates.
  const listed = lines(text).filter((line) => line.startsWith("- kb-"));
  assertEquals(listed.length, assembly.pointers.length);
  assertEquals(fetchLine(text), `Fetch full text: ${FETCH(ids(assembly.pointers))}`);
  assert(text.endsWith(fetchLine(text)!), "nothing is cut after the fetch line");
});

Deno.test("budget: with a large kernel and 200 matches, kernel stays whole and total fits", () => {
  const kernel: Spec = {
    id: "kb-kmax1",
    title: "House rules",
    type: "rule",
    kernel: true,
    body: "Be brief and exact. ".repeat(290), // 5,800 characters
  };
  const reader = buildReader([kernel, ...manyLongEntries(200, 180), ...unrelated(3_300)]);
  const decision = decide(
    "kafka consumer lag keeps growing in production",
    reader,
    {},
    FETCH,
    config({ maxEntries: 200 }),
  );
  const assembly = decision.assembly!;
  assertEquals(assembly.kernel, ["kb-kmax1"]);
  assert(assembly.text.includes(kernel.body!.trim()), "kernel body verbatim");
  assert(assembly.text.length <= 9000, `${assembly.text.length}`);
  assert(assembly.pointers.length >= 1);
  assertEquals(fetchLine(assembly.text), `Fetch full text: ${FETCH(ids(assembly.pointers))}`);
});

function pointerOf(index: number, titleChars: number): Pointer {
  return {
    id: idOf("pt", index),
    title: longTitle("Kafka consumer lag", titleChars, index),
    type: "howto",
    hash: `h${index}`,
    signal: "keyword",
    why: ["kafka", "consumer"],
  };
}

Deno.test("assemble: when one pointer still does not fit, titles get shorter, ids stay", () => {
  const pointers = Array.from({ length: 200 }, (_, index) => pointerOf(index, 180));
  const budget = { budgetChars: 380, kernelBudgetChars: 100 };
  const assembly = assemble([], pointers, FETCH, budget);
  assert(assembly.text.length <= 380, `${assembly.text.length}`);
  assertEquals(ids(assembly.pointers), ["kb-pt000"]);
  const line = pointerLine(assembly.text, "kb-pt000")!;
  assert(line, assembly.text);
  assert(line.includes("…"), line);
  assert(!line.includes(pointers[0].title), "title shortened");
  assert(line.includes(pointers[0].title.slice(0, 40)), "a prefix of the title is kept");
  assert(line.includes("[howto]") && line.includes("matched: kafka, consumer"), line);
  assertEquals(fetchLine(assembly.text), `Fetch full text: ${FETCH(["kb-pt000"])}`);
});

Deno.test("assemble: fewer before shorter (a budget for about three whole lines)", () => {
  const pointers = Array.from({ length: 10 }, (_, index) => pointerOf(index, 150));
  const one = assemble([], pointers.slice(0, 1), FETCH).text.length;
  const three = assemble([], pointers.slice(0, 3), FETCH).text.length;
  const assembly = assemble([], pointers, FETCH, { budgetChars: three, kernelBudgetChars: 100 });
  assert(one < three);
  assertEquals(ids(assembly.pointers), ids(pointers.slice(0, 3)));
  for (const pointer of assembly.pointers) {
    assert(pointerLine(assembly.text, pointer.id)?.includes(pointer.title), "titles whole");
  }
});

Deno.test("assemble: never over budgetChars, whatever the mix (randomized)", () => {
  const next = createRandom(42).next;
  for (let round = 0; round < 400; round++) {
    const kernelCount = Math.floor(next() * 4);
    const kernel: KernelRule[] = Array.from({ length: kernelCount }, (_, index) => ({
      id: idOf("rk", index),
      type: "rule",
      title: "Rule ".repeat(1 + Math.floor(next() * 30)).trim(),
      path: `entries/${idOf("rk", index)}-rule.md`,
      hash: `k${index}`,
      body: "Body text with ünïcode 🙂 ".repeat(Math.floor(next() * 400)),
    }));
    const pointers = Array.from(
      { length: Math.floor(next() * 60) },
      (_, index) => pointerOf(index, 1 + Math.floor(next() * 200)),
    );
    const budgetChars = 20 + Math.floor(next() * 12000);
    const kernelBudgetChars = Math.floor(next() * budgetChars);
    const assembly = assemble(kernel, pointers, FETCH, { budgetChars, kernelBudgetChars });
    assert(
      assembly.text.length <= budgetChars,
      `round ${round}: ${assembly.text.length} > ${budgetChars}`,
    );
    for (const id of assembly.kernel) assert(kernel.some((rule) => rule.id === id));
    for (const pointer of assembly.pointers) {
      assert(assembly.text.includes(`- ${pointer.id} `), `round ${round}: ${pointer.id} listed`);
    }
  }
});

// ---------------------------------------------------------------------------------------------
// Dedup and resurfacing

Deno.test("dedup: a ledger with the same hash drops the pointer; outcome all_deduped", () => {
  const reader = buildReader(BASE);
  const prompt = "we must rotate the leaked npm token today";
  const ledger: Ledger = { "kb-tok01": "h-kb-tok01" };
  const decision = decide(prompt, reader, ledger, FETCH);
  assertEquals(decision.outcome, "all_deduped");
  assertEquals(decision.assembly, undefined);
  assertEquals(decision.deduped, ["kb-tok01"]);
});

Deno.test("dedup: the listed ones drop and nothing further down takes their slots", () => {
  const specs: Spec[] = Array.from({ length: 7 }, (_, index) => ({
    id: idOf("dd", index),
    title: `Kafka consumer note ${index}`,
  }));
  const reader = buildReader([...specs, ...unrelated(50)]);
  const prompt = "kafka consumer lag keeps growing in production";
  const wide = config({ firing: WIDE });
  const first = decide(prompt, reader, {}, FETCH, wide);
  const shown = ids(first.assembly!.pointers);
  assertEquals(shown.length, 3);
  const ledger: Ledger = Object.fromEntries(shown.map((id) => [id, `h-${id}`]));
  // Seven runs of the same prompt show the same three once, never the four below them.
  for (let run = 0; run < 7; run++) {
    const again = decide(prompt, reader, ledger, FETCH, wide);
    assertEquals(again.outcome, "all_deduped");
    assertEquals(again.deduped.sort(), [...shown].sort());
  }
  // One of them edited since: it alone comes back.
  const edited = decide(prompt, reader, { ...ledger, [shown[1]]: "h-old" }, FETCH, wide);
  assertEquals(ids(edited.assembly?.pointers), [shown[1]]);
});

Deno.test("resurfacing: an entry whose hash changed since the ledger surfaces again", () => {
  const changed = buildReader(
    BASE.map((spec) => spec.id === "kb-tok01" ? { ...spec, hash: "h-new" } : spec),
  );
  const prompt = "we must rotate the leaked npm token today";
  const ledger: Ledger = { "kb-tok01": "h-kb-tok01", "kb-gone1": "h-gone" };
  const decision = decide(prompt, changed, ledger, FETCH);
  assertEquals(decision.outcome, "surfaced");
  assertEquals(ids(decision.assembly?.pointers), ["kb-tok01"]);
  assertEquals(decision.assembly!.pointers[0].hash, "h-new");
  assertEquals(decision.deduped, []);
});

// ---------------------------------------------------------------------------------------------
// Superseded and archived entries

Deno.test("superseded and archived entries never surface, even with many hits", () => {
  const reader = buildReader(BASE);
  const prompts = [
    "rotate leaked npm tokens the old manual way on travis security credentials",
    "please review: rotate leaked npm tokens on travis",
    "implement code to rotate leaked credentials",
  ];
  for (const prompt of prompts) {
    const decision = decide(prompt, reader, {}, FETCH, config({ maxEntries: 50 }));
    const surfaced = ids(decision.assembly?.pointers);
    assert(!surfaced.includes("kb-sup01"), `${prompt}: ${surfaced}`);
    assert(!surfaced.includes("kb-arc01"), `${prompt}: ${surfaced}`);
    assert(!decision.nearMisses.some((miss) => ["kb-sup01", "kb-arc01"].includes(miss.id)));
    const text = decision.assembly?.text ?? "";
    assert(!text.includes("kb-sup01") && !text.includes("kb-arc01"), text);
  }
  const only = buildReader(BASE.filter((spec) => spec.status && spec.status !== "active"));
  const decision = decide(prompts[0], only, {}, FETCH);
  assertEquals(decision.outcome, "no_signal");
  assertEquals(decision.nearMisses, []);
});

// ---------------------------------------------------------------------------------------------
// Outcomes and the text

Deno.test("outcomes: skipped, no_signal, all_deduped, surfaced", () => {
  const reader = buildReader(BASE);
  const table: [string, Ledger, string][] = [
    ["thanks!", {}, "skipped"],
    ["/compact", {}, "skipped"],
    [SOURDOUGH, {}, "no_signal"],
    ["we must rotate the leaked npm token today", { "kb-tok01": "h-kb-tok01" }, "all_deduped"],
    ["we must rotate the leaked npm token today", {}, "surfaced"],
    ["we must rotate the leaked npm token today", { "kb-tok01": "stale" }, "surfaced"],
  ];
  for (const [prompt, ledger, outcome] of table) {
    const decision = decide(prompt, reader, ledger, FETCH);
    assertEquals(decision.outcome, outcome, prompt);
    assertEquals(decision.assembly !== undefined, outcome === "surfaced", prompt);
  }
});

Deno.test("pointer line: id, title, type and the matched prompt words; fetch line with all ids", () => {
  const specs: Spec[] = [
    ...BASE,
    {
      id: "kb-tok02",
      title: "Audit who can publish npm packages",
      type: "rule",
      tags: ["npm", "token"],
    },
  ];
  const reader = buildReader(specs);
  const decision = decide(
    "rotate the leaked npm token and check publish rights",
    reader,
    {},
    FETCH,
  );
  const text = decision.assembly!.text;
  assertEquals(ids(decision.assembly!.pointers), ["kb-tok01", "kb-tok02"]);
  assertEquals(
    pointerLine(text, "kb-tok01"),
    "- kb-tok01 Rotate a leaked npm token [howto] (matched: rotate, leaked, npm, token)",
  );
  assertEquals(
    pointerLine(text, "kb-tok02"),
    "- kb-tok02 Audit who can publish npm packages [rule] (matched: npm, token, publish)",
  );
  const fetch = fetchLine(text)!;
  assertEquals(fetch, "Fetch full text: git-kb get kb-tok01 kb-tok02 --kb /kb");
  assert(text.startsWith(HEADER));
  assert(text.indexOf(POINTERS_HEADING) < text.indexOf("- kb-tok01"));
  assert(text.indexOf("- kb-tok02") < text.indexOf(fetch));
});

Deno.test("prompt words that are Object.prototype names neither crash nor match", () => {
  const reader = buildReader(BASE);
  const prompt = "constructor toString hasOwnProperty valueOf __proto__ prototype isPrototypeOf";
  const decision = decide(prompt, reader, {}, FETCH);
  assertEquals(decision.outcome, "no_signal");
  assertEquals(decision.nearMisses, []);
});

Deno.test("parts of one dotted or slashed prompt word count once towards the threshold", () => {
  const reader = buildReader([
    { id: "kb-log01", title: "Console log levels" },
    { id: "kb-log02", title: "Console output and log files" },
  ]);
  // A question: an instruction naming `console.log` is about the code in front of the model.
  const joined = decide("should the handler keep its console.log?", reader, {}, FETCH);
  assertEquals(ids(joined.assembly?.pointers), []);
  assertEquals(joined.outcome, "no_signal");
  assert(joined.nearMisses.some((miss) => miss.id === "kb-log01"), "still a near miss");
  const apart = decide("route the console output to a log file", reader, {}, FETCH);
  assertEquals(ids(apart.assembly?.pointers), ["kb-log02"]);
});

/** Entries that share no word with the prompts here. */
function unrelated(count: number): Spec[] {
  return Array.from({ length: count }, (_, index) => ({
    id: idOf("un", index),
    title: `Sourdough starter feeding schedule ${index}`,
  }));
}

Deno.test("a long prompt whose words scatter over many entries does not fire", () => {
  const topics = ["kafka", "sourdough", "pottery", "tennis", "kayak", "violin", "orchid"];
  const reader = buildReader([
    { id: "kb-lag01", title: "Kafka consumer lag alerts" },
    ...topics.map((topic, index) => ({
      id: idOf("sc", index),
      title: `${topic} ${["rack", "hook", "wheel", "court", "paddle", "string", "pot"][index]}`,
      body: "Notes on gear.\n",
    })),
    ...unrelated(40),
  ]);
  // Its topic alone fires.
  const focused = decide("kafka consumer lag alerts keep firing", reader, {}, FETCH);
  assertEquals(ids(focused.assembly?.pointers), ["kb-lag01"]);
  // The same two words in a rambling prompt whose other words belong to other entries: the
  // best entry holds too small a share of what the prompt says.
  const rambling =
    "kafka lag aside, the pottery wheel, tennis court, kayak paddle, violin string " +
    "and orchid pot all arrived, and the sourdough rack too";
  const scattered = decide(rambling, reader, {}, FETCH);
  assertEquals(scattered.outcome, "no_signal");
});

Deno.test("a prompt about what is in front of the model needs one more word of evidence", () => {
  const reader = buildReader([...BASE, ...unrelated(30)]);
  // Two of kb-tok01's title words: enough for a topic, not for a prompt that points at the code.
  const plain = decide("rotate every leaked credential", reader, {}, FETCH);
  assertEquals(ids(plain.assembly?.pointers), ["kb-tok01"]);
  const pointing = decide("rotate every leaked credential in this file", reader, {}, FETCH);
  assertStrictEquals(pointing.reference?.kind, "deixis");
  assertEquals(ids(pointing.assembly?.pointers), []);
  // Words specific to the knowledge base still reach it, whatever the wording: no veto.
  const specific = decide(
    "rotate the leaked npm token in deploy.yml, then tell me",
    reader,
    {},
    FETCH,
  );
  assertStrictEquals(specific.reference?.kind, "file");
  assertEquals(ids(specific.assembly?.pointers), ["kb-tok01"]);
  // A question that points still asks the knowledge base.
  const asked = decide("how do we rotate every leaked credential in this repo?", reader, {}, FETCH);
  assertEquals(ids(asked.assembly?.pointers), ["kb-tok01"]);
});

Deno.test("'this morning' does not silence a prompt whose words the knowledge base knows", () => {
  const reader = buildReader([
    {
      id: "kb-crsh1",
      title: "Debug a pod stuck in CrashLoopBackOff",
      tags: ["k8s", "kubernetes"],
    },
    ...unrelated(40),
  ]);
  const prompt = "The payments pod keeps restarting in CrashLoopBackOff on k8s since this morning";
  const decision = decide(prompt, reader, {}, FETCH);
  assertStrictEquals(decision.reference?.kind, "deixis");
  assertEquals(ids(decision.assembly?.pointers), ["kb-crsh1"]);
});

Deno.test("a context that starts empty (a subagent's) needs no more evidence for its files", () => {
  const reader = buildReader([...BASE, ...unrelated(30)]);
  const prompt = "rotate every leaked credential listed in deploy.yml";
  assertEquals(ids(decide(prompt, reader, {}, FETCH).assembly?.pointers), []);
  const fresh = decide(prompt, reader, {}, FETCH, config({ inConversation: false }));
  assertEquals(fresh.reference, undefined);
  assertEquals(ids(fresh.assembly?.pointers), ["kb-tok01"]);
});

Deno.test("an entry with under ¾ of the best one's evidence is not listed beside it", () => {
  const reader = buildReader([
    { id: "kb-bst01", title: "Vacuum analytics warehouse partitions nightly" },
    { id: "kb-bst02", title: "Office plants", body: "The vacuum and the analytics screens.\n" },
    {
      id: "kb-bst03",
      title: "Warehouse rota",
      body: "Vacuum the analytics warehouse partitions.\n",
    },
    ...unrelated(20),
  ]);
  const decision = decide("vacuum analytics warehouse partitions nightly", reader, {}, FETCH);
  // 5 title words for the best; 2 body words (1 of 5) and 4 body words (2 of 5) for the others.
  assertEquals(ids(decision.assembly?.pointers), ["kb-bst01"]);
  assert(decision.nearMisses.some((miss) => miss.id === "kb-bst02"), "a near miss, named");
});

Deno.test("once a prompt fires, a common word helps a rarer one list an entry", () => {
  const reader = buildReader([
    { id: "kb-glb01", title: "Global version pins" },
    { id: "kb-jdk01", title: "Version managers", body: "One of them switches the JDK.\n" },
    // "version" is in 13 of 30 entries, over 30^(2/3): a common word.
    ...Array.from({ length: 11 }, (_, index) => ({
      id: idOf("vr", index),
      title: `Release version ${index}`,
    })),
    ...unrelated(17),
  ]);
  const decision = decide(
    "set the global jdk version",
    reader,
    {},
    FETCH,
    config({ firing: WIDE }),
  );
  // kb-jdk01: "jdk" in its body (½) and the common "version" in its title (½) make the listing
  // level; "jdk" alone would not.
  assertEquals(ids(decision.assembly?.pointers).sort(), ["kb-glb01", "kb-jdk01"]);
});

Deno.test("a word only in the body counts half: one title word and two body words match", () => {
  const reader = buildReader([
    {
      id: "kb-bdy01",
      title: "Vacuum the analytics database",
      body: "Run it after a bulk delete to reclaim disk space.\n",
    },
    ...unrelated(3),
  ]);
  const two = decide("reclaim disk after the analytics import", reader, {}, FETCH);
  assertEquals(ids(two.assembly?.pointers), ["kb-bdy01"]);
  assertEquals(two.assembly!.pointers[0].why, ["reclaim", "disk", "analytics"]);
  const short = decide("reclaim the analytics box", reader, {}, FETCH);
  assertEquals(ids(short.assembly?.pointers), ["kb-bdy01"], "1 + 1/2 is over 1.25");
  const strict = config({ threshold: 2 });
  const under = decide("reclaim the analytics box", reader, {}, FETCH, strict);
  assertEquals(under.outcome, "no_signal", "1 + 1/2 is under 2");
  assertEquals(missHits(under), [{ id: "kb-bdy01", hits: ["reclaim", "analytics"] }]);
  assertEquals(under.nearMisses[0].evidence, [
    { word: "reclaim", weight: 0.5, where: "body" },
    { word: "analytics", weight: 1, where: "title" },
  ]);
});

Deno.test("a word found in more than half of the entries counts only as a title word", () => {
  const specs: Spec[] = Array.from({ length: 12 }, (_, index) => ({
    id: idOf("cm", index),
    title: `Service note ${index}`,
    body: "We deploy this service on Fridays.\n",
  }));
  specs.push({
    id: "kb-cmrel",
    title: "Rollback a failed release",
    body: "Check the deploy log and the canary dashboards first.\n",
  }, ...unrelated(5));
  const reader = buildReader(specs);
  const strict = config({ threshold: 2 });
  const common = decide(
    "rollback after the deploy raised canary alarms",
    reader,
    {},
    FETCH,
    strict,
  );
  assertEquals(common.outcome, "no_signal", "deploy is in 13 of 18 bodies: 1 + 0 + 1/2");
  assertEquals(missHits(common)[0], { id: "kb-cmrel", hits: ["rollback", "canary"] });
  const rare = decide("rollback while the canary dashboards are red", reader, {}, FETCH, strict);
  assertEquals(ids(rare.assembly?.pointers), ["kb-cmrel"]);
  assertEquals(rare.assembly!.pointers[0].why, ["rollback", "canary", "dashboards"]);
});

Deno.test("a common word's title hits still count, and its body postings are never parsed", () => {
  const specs: Spec[] = Array.from({ length: 12 }, (_, index) => ({
    id: idOf("dp", index),
    title: `Service note ${index}`,
    body: "We deploy this service on Fridays.\n",
  }));
  specs.push({ id: "kb-dptit", title: "Deploy freeze calendar", body: "Ask first.\n" });
  const reader = buildReader([...specs, ...unrelated(3)]);
  const parsed: string[] = [];
  const postings = reader.postings.bind(reader);
  reader.postings = (term) => {
    parsed.push(term);
    return postings(term);
  };
  // "deploy", in 13 of 16 entries, counts ln(16/13) / ln(16/5) = 0.18 beside "freeze"'s 1.
  const alone = decide("freeze", reader, {}, FETCH, config({ threshold: 1.1, minChars: 1 }));
  assertEquals(alone.outcome, "no_signal");
  const decision = decide(
    "deploy during the freeze",
    reader,
    {},
    FETCH,
    config({ threshold: 1.1 }),
  );
  assertEquals(ids(decision.assembly?.pointers), ["kb-dptit"]);
  assertEquals(decision.assembly!.pointers[0].why, ["deploy", "freeze"]);
  assertEquals(decision.termHits, { deploy: 13, freeze: 1 });
  assertEquals(parsed.includes("deploi"), false, `parsed: ${parsed}`);
});

Deno.test("a common word's title hit counts in the ranking, not only towards the threshold", () => {
  const specs: Spec[] = Array.from({ length: 12 }, (_, index) => ({
    id: idOf("rk", index),
    title: `Service note ${index}`,
    body: "We deploy this service on Fridays.\n",
  }));
  // Both hit all three words, so only the ranking tells them apart: a title outweighs a tag.
  specs.push(
    { id: "kb-rktag", title: "Freeze calendar notes", tags: ["deploy"], body: "Ask.\n" },
    { id: "kb-rktit", title: "Deploy freeze calendar", body: "Ask.\n" },
  );
  const reader = buildReader([...specs, ...unrelated(3)]);
  const decision = decide("deploy freeze calendar", reader, {}, FETCH);
  assertEquals(ids(decision.assembly?.pointers), ["kb-rktit", "kb-rktag"]);
  assertEquals(decision.assembly!.pointers[0].why, ["deploy", "freeze", "calendar"]);
  assertEquals(decision.assembly!.pointers[0].why, ["deploy", "freeze", "calendar"]);
});

Deno.test("a common word's title hits rank every entry that has them, wherever it sits", () => {
  // "deploy" is in every body (common), in the title of every third entry and a tag of the others:
  // it counts the same for all of them, and only the ranking puts a title before a tag.
  const specs: Spec[] = Array.from(
    { length: 30 },
    (_, index) =>
      index % 3 === 2
        ? { id: idOf("cw", index), title: "Deploy freeze calendar", body: "We deploy.\n" }
        : {
          id: idOf("cw", index),
          title: `Freeze calendar v${index}`,
          tags: ["deploy"],
          body: "We deploy.\n",
        },
  );
  // Beside 170 other entries, 100 of which say "We deploy." too, "deploy" is in most of them
  // (130 of 200) and counts little, while "freeze" and "calendar" (30 of 200) count
  // ln(200 / 30) / ln(200 / √200) = 0.72 each: only the ranking can tell a title from a tag.
  const others = Array.from({ length: 170 }, (_, index) => ({
    id: idOf("cx", index),
    title: `Sourdough note ${index}`,
    body: index < 100 ? "We deploy.\n" : "We bake.\n",
  }));
  const reader = buildReader([...specs, ...others]);
  const wide = config({ firing: WIDE, maxEntries: 5 });
  const decision = decide("deploy freeze calendar", reader, {}, FETCH, wide);
  assertEquals(ids(decision.assembly?.pointers), [2, 5, 8, 11, 14].map((n) => idOf("cw", n)));
});

Deno.test("a dotted prompt word hitting only some of its parts does not count", () => {
  const reader = buildReader([
    { id: "kb-rmlog", title: "Remove old log files" },
    { id: "kb-cnsl1", title: "Console log levels" },
    ...unrelated(2),
  ]);
  const decision = decide("should we remove the console.log?", reader, {}, FETCH);
  assertEquals(
    decision.outcome,
    "no_signal",
    "remove counts, console.log does not: log alone is not it",
  );
  assertEquals(decision.nearMisses.map((miss) => miss.id).sort(), ["kb-cnsl1", "kb-rmlog"]);
  const rmlog = decision.nearMisses.find((miss) => miss.id === "kb-rmlog")!;
  assertEquals(rmlog.hits, ["remove"]);
});

Deno.test("the pointers come in search's order: an entry that holds the prompt's words side by side first", () => {
  const scattered = {
    id: "kb-scatr",
    title: "Json output formatting",
    tags: ["json"],
    body: "Print the report, print it twice. Pretty colours, pretty fonts. The json goes to the " +
      "log, json for the api.\n",
  };
  const together = {
    id: "kb-tgthr",
    title: "Json output formatting",
    tags: ["json"],
    body: "Pretty print the json of the report with jq, then read it slowly, line by line, " +
      "before you send it along to anyone who asked for it.\n",
  };
  const filler = Array.from({ length: 30 }, (_, index) => ({
    id: `kb-f${String(index).padStart(4, "0")}`,
    title: `Filler topic ${index}`,
    body: `Unrelated paragraph number ${index} about gardens and weather.\n`,
  }));
  const reader = buildReader([scattered, together, ...filler]);
  const prompt = "how do I pretty print json output from the report";
  const pointers = ids(decide(prompt, reader, {}, FETCH).assembly?.pointers);
  assertEquals(pointers, [together.id, scattered.id]);
  assertEquals(search(reader, [prompt], { limit: 2 }).map((hit) => hit.doc.id), pointers);
});
