/**
 * Table tests of the firing decision (core/prompt/decision.ts, core/prompt/keywords.ts) on a
 * personal knowledge base of 40 entries and on a generated one of 50,000: the same rule keeps a
 * prompt of common words quiet, however many it has, and fires on two rare words, in both.
 */
import { assert, assertEquals } from "@std/assert";
import type { Entry } from "../entry/entry.ts";
import { shardCountFor } from "../index/format.ts";
import type { IndexReader } from "../index/reader.ts";
import { addEntry, buildIndex, makeEntry, pathOf } from "../index/_memory_index.ts";
import { COMPACT_AFTER } from "../index/editor.ts";
import { generateEntries, VOCABULARY } from "../../bench/generate.ts";
import { MAX_SPLIT_WORDS } from "../text/tokenize.ts";
import { decide, DEFAULT_SURFACE_CONFIG } from "./decision.ts";
import {
  COMMON_SPECIFICITY,
  FIRING_RULE,
  type FiringRule,
  keywordMatches,
  promptTerms,
  specificity,
} from "./keywords.ts";

const FETCH = (ids: string[]) => `git-kb get ${ids.join(" ")}`;

function readerOf(entries: Entry[]): IndexReader {
  return buildIndex(entries, { shardCount: shardCountFor(entries.length) }).reader();
}

/**
 * The ids a prompt's pointers name, in order, by the firing rule with `changes` made to it; none
 * when it does not fire.
 */
function fired(reader: IndexReader, prompt: string, changes: Partial<FiringRule> = {}): string[] {
  const config = { ...DEFAULT_SURFACE_CONFIG, firing: { ...FIRING_RULE, ...changes } };
  return (decide(prompt, reader, {}, FETCH, config).assembly?.pointers ?? []).map((pointer) =>
    pointer.id
  );
}

/** An id from a number. */
function idOf(prefix: string, index: number): string {
  return `kb-${prefix}${index.toString(36).padStart(5 - prefix.length, "0")}`;
}

const MODULES = [
  "billing",
  "search",
  "login",
  "upload",
  "export",
  "profile",
  "invoice",
  "audit",
  "metrics",
  "sessions",
  "mailer",
  "reports",
  "payments",
  "settings",
];

const HOBBIES = ["sourdough", "bouldering", "espresso", "birding", "pottery", "chess"];

/**
 * A personal knowledge base of 40 entries: 28 about the chores of one code base, whose words
 * ("add", "test", "file", "format", "config") are in a third of it, two about Kubernetes, and ten
 * about other things.
 */
function personalKb(): Entry[] {
  const chores = MODULES.flatMap((module, index) => [
    makeEntry({
      id: idOf("ts", index),
      title: `Add a test file for the ${module} module`,
      tags: ["testing"],
      body: `Each test file of ${module} sits beside its code.\n`,
    }),
    makeEntry({
      id: idOf("fm", index),
      title: `Format the ${module} config file`,
      tags: ["format"],
      body: `Run the formatter on the ${module} config file before you add it.\n`,
    }),
  ]);
  const kubernetes = [
    makeEntry({
      id: "kb-k8s01",
      title: "Kubernetes pod stuck in CrashLoopBackOff",
      tags: ["kubernetes"],
      body: "Read the previous container's logs first: kubectl logs --previous.\n",
    }),
    makeEntry({
      id: "kb-k8s02",
      title: "Rotate Kubernetes secrets",
      tags: ["kubernetes", "secrets"],
      body: "Secrets are mounted read-only; restart the deployment after a rotation.\n",
    }),
  ];
  const others = Array.from({ length: 10 }, (_, index) =>
    makeEntry({
      id: idOf("ot", index),
      title: `Notes on ${HOBBIES[index % HOBBIES.length]}, part ${index}`,
      body: "Nothing that a prompt about code would ask for.\n",
    }));
  return [...chores, ...kubernetes, ...others];
}

Deno.test("firing on 40 entries: common words stay quiet, however many; two rare words fire", () => {
  const entries = personalKb();
  assertEquals(entries.length, 40);
  const reader = readerOf(entries);
  const table: [string, string[]][] = [
    ["format this file", []],
    ["add the test file", []],
    ["add a test file, format the config file, add the module test and format the file", []],
    ["format the config file and add a test", []],
    ["kubernetes crashloopbackoff", ["kb-k8s01"]],
    ["why does the kubernetes pod keep hitting crashloopbackoff", ["kb-k8s01"]],
    ["rotate the kubernetes secrets", ["kb-k8s02"]],
    // An instruction about what is in front of the model names no entry; a question about it
    // still counts its rare words.
    ["the same crashloopbackoff again on kubernetes here", []],
    ["is this the same kubernetes crashloopbackoff as before?", ["kb-k8s01"]],
    // A question between other sentences asks as well as one that ends the prompt.
    ["the same crashloopbackoff again on kubernetes here. why? it was fine.", ["kb-k8s01"]],
    // The `?` of quoted code, and SQL's WHERE on a line of its own, do not ask.
    ["the same crashloopbackoff again on kubernetes here: `wait = tries > 3 ? 60 : 5`", []],
    ["the same crashloopbackoff again on kubernetes here: `wait = retry ?? 5`", []],
    [
      "the same crashloopbackoff again on kubernetes here, from\nSELECT id FROM jobs\nWHERE ok = 0",
      [],
    ],
  ];
  for (const [prompt, expected] of table) {
    assertEquals(fired(reader, prompt).slice(0, expected.length || 1), expected, prompt);
  }
});

/** An entry that holds {@link RETRY_PROMPT}'s rare words in its body only. */
const MEETING = makeEntry({
  id: "kb-meet1",
  title: "Notes from the Tuesday meeting",
  tags: ["meetings"],
  body: "Retry with backoff and jitter, jitter.\n",
});

const RETRY_PROMPT = "retry the request with backoff and jitter";

/** A short note on one topic, and its near twin. */
const ESCAPE = makeEntry({
  id: "kb-esc01",
  title: "Escape delay in tmux",
  tags: ["tmux"],
  body: "Set escape-time to 10 in tmux.conf.\n",
});
const ESCAPE_TWIN = makeEntry({ ...ESCAPE, id: "kb-esc02", title: "Escape delay in tmux panes" });

/**
 * A long prompt about {@link ESCAPE} that also names every module and hobby of the personal
 * knowledge base: each is in two entries that hold no other word of the prompt, so they add to
 * what the prompt says, and no entry holds more than one of them.
 */
const LONG_ESCAPE_PROMPT =
  "inside tmux the escape key has a long delay before vim leaves insert mode, " +
  `and I hit it all day in the ${MODULES.join(", ")} code, and in my notes on ` +
  HOBBIES.join(", ");

Deno.test("an entry the prompt never names must be scored as strongly as one it names", () => {
  // The prompt's rare words are all in one entry, but only in its body: search scores it about
  // 3.4 ln N, enough to be about it, short of what a prompt that names no entry needs.
  assertEquals(fired(readerOf([...personalKb(), MEETING]), RETRY_PROMPT), []);
  // Named by its tags, the same entry is pointed at.
  const named = { ...MEETING, tags: ["retry", "backoff"] };
  assertEquals(fired(readerOf([...personalKb(), named]), RETRY_PROMPT), ["kb-meet1"]);
});

Deno.test("firing on 50,000 generated entries: the same rule, the same outcomes", () => {
  // The generator's words are all in hundreds of entries or more; the Kubernetes entries of the
  // personal knowledge base bring the rare ones.
  const kubernetes = personalKb().filter((entry) => entry.id.startsWith("kb-k8s"));
  const entries = [...generateEntries(50_000).map((generated) => generated.entry), ...kubernetes];
  const reader = readerOf(entries);
  const docCount = reader.manifest.docCount;
  const entriesOf = (word: string) => reader.postingCount(promptTerms(word)[0]?.term ?? "");
  const common = VOCABULARY.filter((word) => promptTerms(word).length === 1).slice(0, 12);
  for (const word of common) {
    assert(specificity(entriesOf(word), docCount) < COMMON_SPECIFICITY, `${word} is common`);
  }
  const table: [string, string[]][] = [
    [common.join(" "), []],
    [`${common[0]} this ${common[1]} here`, []],
    [`please ${common.slice(0, 6).join(", ")} and ${common.slice(6).join(" ")} again`, []],
    ["kubernetes crashloopbackoff", ["kb-k8s01"]],
    ["why does the kubernetes pod keep hitting crashloopbackoff", ["kb-k8s01"]],
    // "kubernetes" is one of the generator's words, in thousands of entries: pointing at what
    // is in front of the model, the prompt has one rare word left, and one is not enough.
    ["the same crashloopbackoff again on kubernetes here", []],
  ];
  assert(entriesOf("kubernetes") > 1_000);
  for (const [prompt, expected] of table) {
    assertEquals(fired(reader, prompt).slice(0, expected.length || 1), expected, prompt);
  }
});

Deno.test("an entry search ranks far ahead of every other fires, however much else a long prompt says", () => {
  assertEquals(fired(readerOf([...personalKb(), ESCAPE]), LONG_ESCAPE_PROMPT), ["kb-esc01"]);
  // Beside a near twin it no longer stands out, and the long prompt is about neither.
  const beside = readerOf([...personalKb(), ESCAPE, ESCAPE_TWIN]);
  assertEquals(fired(beside, LONG_ESCAPE_PROMPT), []);
});

/** A sentence naming every module and one naming every hobby of the personal knowledge base. */
const BACKGROUND = `I hit it all day in the ${MODULES.join(", ")} code. ` +
  `And in my notes on ${HOBBIES.join(", ")}.`;

Deno.test("a long prompt fires on a sentence that alone is about the entry the prompt ranks first", () => {
  const reader = readerOf([...personalKb(), ESCAPE, ESCAPE_TWIN]);
  // As one sentence the prompt says too much else to be about either twin (see above); its first
  // sentence, read alone, is about them.
  const question = "Inside tmux the escape key has a long delay before vim leaves insert mode.";
  assertEquals(fired(reader, `${question} ${BACKGROUND}`), ["kb-esc01", "kb-esc02"]);
  assertEquals(fired(reader, `${question}\n${BACKGROUND}`), ["kb-esc01", "kb-esc02"]);
  assertEquals(fired(reader, LONG_ESCAPE_PROMPT), []);
  // A line of a pasted log that starts with a path is a sentence like any other.
  const logged = `My editor lags.\n/home/me/.config/tmux/tmux.conf: ${question}\n${BACKGROUND}`;
  assertEquals(fired(reader, logged), ["kb-esc01", "kb-esc02"]);
  // A sentence must show one word more than a prompt: two rare words fire alone, not in a sentence.
  assertEquals(fired(reader, "Escape in tmux lags."), ["kb-esc01", "kb-esc02"]);
  assertEquals(fired(reader, `Escape in tmux lags. ${BACKGROUND}`), []);
  // A sentence about another entry than the one the whole prompt ranks first is not enough.
  const kubernetes = "Why does the kubernetes pod keep hitting crashloopbackoff?";
  assertEquals(fired(reader, kubernetes), ["kb-k8s01"]);
  assertEquals(fired(reader, `${kubernetes} ${LONG_ESCAPE_PROMPT}.`), []);
});

/** How many terms `reader` has looked up since this was called, as a function to ask it. */
function countingLookups(reader: IndexReader): () => number {
  const postingCount = reader.postingCount.bind(reader);
  let lookups = 0;
  reader.postingCount = (term) => {
    lookups++;
    return postingCount(term);
  };
  return () => lookups;
}

Deno.test("a long prompt's sentences cost what its words do, however many lines it has", () => {
  const reader = readerOf([...personalKb(), ESCAPE, ESCAPE_TWIN]);
  const lookups = countingLookups(reader);
  // 300,000 lines of one identifier each (3.7 MB): each line was read for what it refers to, and
  // each of its identifiers looked up, past the words the whole prompt is read by.
  const lines = Array.from({ length: 300_000 }, (_, index) => `walkTree${index}`).join("\n");
  assertEquals(fired(reader, `${LONG_ESCAPE_PROMPT}\n${lines}`), []);
  assert(lookups() < MAX_SPLIT_WORDS, `${lookups()} lookups`);
  // A line that ends with a carriage return alone, or a Unicode line separator, is a sentence.
  const question = "Inside tmux the escape key has a long delay before vim leaves insert mode";
  for (const end of ["\r", "\u2028", "\u2029"]) {
    assertEquals(fired(reader, `${question}${end}${LONG_ESCAPE_PROMPT}`), ["kb-esc01", "kb-esc02"]);
  }
});

Deno.test("a sentence without enough of the held-back entry's words is not looked up", () => {
  const reader = readerOf([...personalKb(), ESCAPE, ESCAPE_TWIN]);
  const lookups = countingLookups(reader);
  // Thirty lines of background, each with words enough to fire and none that either twin holds.
  const background = MODULES.map((module, index) =>
    `I hit it all day in the ${module} code and my ${HOBBIES[index % HOBBIES.length]} notes.`
  ).join("\n");
  const prompt = `${LONG_ESCAPE_PROMPT}\n${background}`;
  assertEquals(fired(reader, prompt), []);
  // The whole prompt's terms, then its first line's, which holds the twins' words: no other line.
  const read = promptTerms(prompt).length + promptTerms(LONG_ESCAPE_PROMPT).length;
  assert(lookups() <= read, `${lookups()} lookups, ${read} expected at most`);
});

Deno.test("a word a dotted word made common may still count in a body where it stands alone", () => {
  const reader = readerOf([...personalKb(), ESCAPE, ESCAPE_TWIN]);
  // "file" is in most of these entries, so "file.time" is read by its title, tag and alias
  // postings only; "time" alone, in a sentence past the prompt's words, would count in the twins'
  // body ("escape-time").
  const { heldBack } = keywordMatches(reader, promptTerms(`${LONG_ESCAPE_PROMPT} file.time`), 1.25);
  assertEquals(heldBack?.reason, "not_about");
  assert(heldBack?.holds.has(promptTerms("time")[0].term), JSON.stringify([...heldBack!.holds]));
});

Deno.test("a sentence past the words a long prompt is read by may still fire it", () => {
  const reader = readerOf([...personalKb(), ESCAPE, ESCAPE_TWIN]);
  // The prompt's first 1,000 terms name tmux and escape among much else; its last line, past
  // them, says the rest of what the twins hold.
  const filler = Array.from({ length: 1_000 }, (_, index) => `zq${index.toString(36)}`);
  const prompt = `Escape in tmux lags. ${BACKGROUND}\n${filler.join("\n")}\n` +
    "Inside tmux the escape key has a long delay before vim leaves insert mode.";
  assertEquals(fired(reader, prompt), ["kb-esc01", "kb-esc02"]);
});

Deno.test("a sentence may fire for an entry listed first beside a better-evidenced one", () => {
  // Two notes of two rare words each (the twins keep the whole prompt from being about either),
  // and one titled by three words that five other notes hold in their tags: search ranks the
  // first note above it, on fewer words.
  const frob = makeEntry({ id: "kb-frb01", title: "Zebrafrob quuxlet flimwax" });
  const twin = makeEntry({ id: "kb-frb02", title: "Zebrafrob quuxlet flimwax wrangling" });
  const gaskets = makeEntry({
    id: "kb-gsk01",
    title: "Gasket grommet sprocket tolerances for the pump housing seals",
  });
  const tagged = Array.from({ length: 5 }, (_, index) =>
    makeEntry({
      id: idOf("gt", index),
      title: `Parts list ${index}`,
      tags: ["gasket", "grommet", "sprocket"],
    }));
  const reader = readerOf([...personalKb(), frob, twin, gaskets, ...tagged]);
  // Alone, the question fires: the third note has the evidence it needs, the first two are
  // listed beside it with two words each, and search scores the first of them first, but lists
  // the third before them: it holds two of the prompt's pairs of words side by side, they one.
  const question = "zebrafrob quuxlet gasket grommet sprocket?";
  const listed = ["kb-gsk01", "kb-frb01", "kb-frb02"];
  assertEquals(fired(reader, question), listed);
  // Held back as not about the first note, the long prompt fires on that sentence: two words
  // of it are all the first note holds, fewer than the sentence needs, and enough.
  const prompt = `I hit flimwax all day. ${BACKGROUND}\n${question}`;
  assertEquals(fired(reader, prompt), listed);
});

Deno.test("a sentence may fire by the word of a kind of work its entry applies to", () => {
  const gatekeeping = makeEntry({
    id: "kb-rev01",
    title: "Gatekeeping checklist before merging",
    appliesTo: ["reviewing"],
  });
  const twin = makeEntry({
    ...gatekeeping,
    id: "kb-rev02",
    title: `${gatekeeping.title} branches`,
  });
  const reader = readerOf([...personalKb(), gatekeeping, twin]);
  // The prompt's first word of reviewing is "review"; the last sentence's is "audit", a tag of
  // the twins in that sentence alone.
  const question = "Can you audit the gatekeeping before merging?";
  assertEquals(fired(reader, question), ["kb-rev01", "kb-rev02"]);
  assertEquals(fired(reader, `I will review the release later. ${BACKGROUND}`), []);
  const prompt = `I will review the release later. ${BACKGROUND}\n${question}`;
  assertEquals(fired(reader, prompt), ["kb-rev01", "kb-rev02"]);
});

/** Thirty words of one kind, for a knowledge base where each is in five to seven entries of 40. */
const WIDGETS = [
  "dropdown",
  "spinner",
  "navbar",
  "tooltip",
  "carousel",
  "sidebar",
  "footer",
  "avatar",
  "breadcrumb",
  "pagination",
  "stepper",
  "accordion",
  "toast",
  "badge",
  "chip",
  "slider",
  "drawer",
  "popover",
  "tabs",
  "divider",
  "skeleton",
  "snackbar",
  "rating",
  "checkbox",
  "radio",
  "switch",
  "textarea",
  "datepicker",
  "colorpicker",
  "menubar",
];

Deno.test("an entry the prompt never names must hold more of it than its length would by chance", () => {
  // 39 short pages of four widgets each, and one page several times as long that holds every
  // other widget, twice over: each widget is in five to seven of the 40 entries.
  const pages = Array.from({ length: 39 }, (_, index) =>
    makeEntry({
      id: idOf("pg", index),
      title: `Page ${index}`,
      body: `${[0, 1, 2, 3].map((at) => WIDGETS[(index * 4 + at) % WIDGETS.length]).join(", ")}.\n`,
    }));
  const half = WIDGETS.filter((_, index) => index % 2 === 0);
  const guide = makeEntry({
    id: "kb-guide",
    title: "Styling guide",
    body: `${[...half, ...half].join(" ")}.\n`,
  });
  const reader = readerOf([...pages, guide]);
  // A prompt naming every widget: the guide holds half of them, as a page that long would by
  // chance. Counted without chance, search's lead makes the prompt about the guide.
  const everything = `the ${WIDGETS.join(", ")} all look wrong on mobile`;
  assertEquals(fired(reader, everything, { beyondChance: -Infinity }), ["kb-guide"]);
  assertEquals(fired(reader, everything), []);
  // A prompt of the guide's own widgets is about it, chance or not.
  const its = `the ${half.join(", ")} all look wrong on mobile`;
  assertEquals(fired(reader, its), ["kb-guide"]);
});

Deno.test("in a few dozen entries, a word one of them holds is likelier by chance than one in N", () => {
  // 39 short notes and a trip report whose long body holds five animals no other note holds.
  const notes = Array.from({ length: 39 }, (_, index) =>
    makeEntry({
      id: idOf("nt", index),
      title: `Filler note ${index}`,
      body: `Plain text about item${index} and nothing else.\n`,
    }));
  const animals = ["quokka", "marmot", "wombat", "dingo", "numbat"];
  const padding = Array.from({ length: 70 }, (_, index) => `pad${index}`).join(" ");
  const report = makeEntry({
    id: "kb-trip1",
    title: "Field trip report",
    body: `${Array(8).fill(animals.join(" ")).join(" ")} ${padding}\n`,
  });
  const reader = readerOf([...notes, report]);
  const prompt = `we saw a ${animals.join(", ")} on the way back`;
  // Search ranks the report far ahead, and scores it as strongly as naming it would.
  assertEquals(fired(reader, prompt, { beyondChance: -Infinity }), ["kb-trip1"]);
  // Each animal is in one of the 40 entries: by Laplace's rule of succession one in 21 of the
  // author's notes would hold it, not one in 40, and a body many times the average length holds
  // five such words by chance often enough that the report's are within 2.5 deviations of it.
  assertEquals(fired(reader, prompt), []);
  // A prompt that names the report is about it, chance or not.
  assertEquals(fired(reader, `field trip report: ${prompt}`), ["kb-trip1"]);
});

Deno.test("a prompt only of words that many entries hold points at nothing, though one entry holds it all", () => {
  // 400 entries: "rollback" and "migrations" are each in the titles of 30, as many as a word may
  // be in and still count almost in full (the square root of 400 is 20); "flaky" is in one.
  const rollbacks = Array.from(
    { length: 29 },
    (_, index) => makeEntry({ id: idOf("rb", index), title: `Rollback of service ${index}` }),
  );
  const migrations = Array.from(
    { length: 29 },
    (_, index) => makeEntry({ id: idOf("mg", index), title: `Migrations of table ${index}` }),
  );
  const fillers = Array.from(
    { length: 340 },
    (_, index) => makeEntry({ id: idOf("fl", index), title: `Filler note ${index}` }),
  );
  const both = makeEntry({ id: "kb-rbmig", title: "Rollback migrations" });
  const flaky = makeEntry({ id: "kb-flaky", title: "Rollback flaky migrations" });
  const reader = readerOf([...rollbacks, ...migrations, ...fillers, both, flaky]);
  const plain = "rollback the migrations";
  // Its two words give the entry that holds both enough evidence, and it holds all of the prompt.
  assertEquals(fired(reader, plain, { weakestMatch: 0 }), ["kb-rbmig", "kb-flaky"]);
  // Search scores it under two words that count in full, alone in a title: a prompt of words
  // that many entries hold says too little to point at one.
  assertEquals(fired(reader, plain), []);
  assertEquals(decide(plain, reader, {}, FETCH).heldBack?.reason, "weak_match");
  // One rare word is enough.
  assertEquals(fired(reader, "rollback the flaky migrations"), ["kb-flaky"]);
});

Deno.test("a word typed alone counts though a file name before it holds the same word", () => {
  const retry = makeEntry({
    id: "kb-retry",
    title: "Retry flaky uploads",
    body: "Back off and try again.\n",
  });
  const reader = readerOf([...personalKb(), retry]);
  // `uploads/retry.ts` is one word, which counts only where all its parts hit; the words the
  // prompt says again alone are words of their own.
  assertEquals(fired(reader, "uploads/retry.ts keeps failing, how should uploads retry?"), [
    "kb-retry",
  ]);
  assertEquals(fired(reader, "uploads/retry.ts keeps failing, what now?"), []);
});

Deno.test("a word typed alone ranks by its body hits though a common dotted word holds it", () => {
  // "console" is in most entries, so `console.log` counts in titles, tags and aliases only; the
  // "log" typed alone still ranks by the body that holds it, as search ranks it.
  const consoles = Array.from(
    { length: 30 },
    (_, index) => makeEntry({ id: idOf("cn", index), title: `Console note ${index}` }),
  );
  const fillers = Array.from(
    { length: 10 },
    (_, index) => makeEntry({ id: idOf("fl", index), title: `Filler note ${index}` }),
  );
  const logged = makeEntry({
    id: "kb-logd1",
    title: "Rotate deploy keys",
    body: "Write each rotation to the log.\n",
  });
  const short = makeEntry({ id: "kb-short", title: "Deploy keys", body: "Rotate them yearly.\n" });
  const reader = readerOf([...consoles, ...fillers, logged, short]);
  const alone = fired(reader, "rotate deploy keys log");
  assertEquals(alone, ["kb-logd1"]);
  assertEquals(fired(reader, "rotate deploy keys log, not console.log"), alone);
  assertEquals(fired(reader, "console.log, not rotate deploy keys log"), alone);
});

Deno.test("a prompt the rule holds back names the entry it came closest to, and why", () => {
  const heldBack = (entries: Entry[], prompt: string) =>
    decide(prompt, readerOf([...personalKb(), ...entries]), {}, FETCH).heldBack;
  // Its words only in the body, and too weakly for a prompt that names nothing.
  assertEquals(heldBack([MEETING], RETRY_PROMPT), { id: "kb-meet1", reason: "not_named" });
  // In a long body, search no longer ranks it far ahead: the prompt is not about it. Search
  // scores it weakly too, but its words are each in it alone, not in many entries.
  const minutes = `${"We went over the agenda and the open items one by one. ".repeat(12)}\n`;
  const longMeeting = { ...MEETING, body: `${minutes}${MEETING.body}` };
  assertEquals(heldBack([longMeeting], RETRY_PROMPT), { id: "kb-meet1", reason: "not_about" });
  // A long prompt that says far more than either of two near twins holds.
  assertEquals(heldBack([ESCAPE, ESCAPE_TWIN], LONG_ESCAPE_PROMPT)?.reason, "not_about");
  // A prompt that fires, or that no entry comes near, holds nothing back.
  assertEquals(heldBack([ESCAPE], "why is there an escape delay in tmux"), undefined);
  assertEquals(heldBack([], "sourdough starter feeding schedule"), undefined);
});

Deno.test("an entry the prompt never names beats chance as well after edits as after a build", () => {
  // Sixteen rare words, each in the bodies of eight of 399 notes and all in a guide's body, many
  // times over; the prompt names nothing else.
  const rare = Array.from({ length: 16 }, (_, index) => `zorb${String.fromCharCode(97 + index)}x`);
  const notes = Array.from({ length: 399 }, (_, index) =>
    makeEntry({
      id: idOf("nt", index),
      title: `Filler note q${index}`,
      body: `${
        rare.filter((_, at) => index < 64 && (index + at) % 8 === 0).join(" ")
      } common words here and there about filler${index} stuff.\n`,
    }));
  const padding = Array.from({ length: 24 }, (_, index) => `pad${index}`).join(" ");
  const guide = makeEntry({
    id: "kb-guide",
    title: "Styling guide",
    body: `${Array(8).fill(rare.join(" ")).join(" ")} ${padding}\n`,
  });
  const store = buildIndex([...notes, guide], { shardCount: shardCountFor(400) });
  const prompt = `please look into ${rare.join(" ")} for me`;
  assertEquals(fired(store.reader(), prompt), ["kb-guide"]);
  // The notes that hold the words saved again, unchanged: until the index is compacted their
  // earlier versions still count in how many entries hold each word, which is no more likely
  // to be in the guide by chance for that.
  const edited = notes.slice(0, COMPACT_AFTER);
  const editor = store.editor();
  for (const note of edited) editor.remove(pathOf(note));
  for (const note of edited) addEntry(editor, note, undefined, `saved-again-${note.id}`);
  store.commit(editor);
  assertEquals(store.manifest().dead.length, COMPACT_AFTER);
  assertEquals(fired(store.reader(), prompt), ["kb-guide"]);
});

/**
 * An entry named by everything: a title of 200 characters, 32 tags and 32 aliases of 64, packed
 * with `words` (each tag's words tied by `-`, each alias's by spaces).
 */
function stuffedEntry(id: string, words: readonly string[]): Entry {
  let at = 0;
  const item = (chars: number, glue: string) => {
    let text = words[at++ % words.length];
    while (`${text}${glue}${words[at % words.length]}`.length <= chars) {
      text += `${glue}${words[at++ % words.length]}`;
    }
    return text;
  };
  return makeEntry({
    id,
    title: item(200, " "),
    tags: Array.from({ length: 32 }, () => item(64, "-")),
    aliases: Array.from({ length: 32 }, () => item(64, " ")),
    body: "Read me first.\n",
  });
}

Deno.test("an entry named by hundreds of words is not pointed at for holding a prompt's, at 40 entries and at 50,000", () => {
  const kubernetes = personalKb().filter((entry) => entry.id.startsWith("kb-k8s"));
  // Hundreds of names, the Kubernetes entries' words and the widgets among them, as a teammate's
  // entry could hold them to be pointed at on every prompt.
  const names = [
    "kubernetes",
    "pod",
    "crashloopbackoff",
    ...WIDGETS,
    ...VOCABULARY.slice(0, 600),
  ];
  const stuffed = stuffedEntry("kb-stuff", names);
  const widgets = `the ${WIDGETS.slice(0, 8).join(", ")} all look wrong on mobile`;
  const crash = "why does the kubernetes pod keep hitting crashloopbackoff";
  const small = readerOf([...personalKb(), stuffed]);
  // Eight of its names, which no other entry holds, are eight of 700: each counts a share of
  // what it would for an entry of a few names.
  assertEquals(fired(small, widgets), []);
  assertEquals(fired(small, `deploy the ${VOCABULARY.slice(1, 9).join(" and the ")}`), []);
  assertEquals(fired(small, crash), ["kb-k8s01"]);
  const generated = generateEntries(50_000).map((generated) => generated.entry);
  const large = readerOf([...generated, ...kubernetes, stuffed]);
  assertEquals(fired(large, widgets), []);
  assertEquals(fired(large, crash), ["kb-k8s01"]);
});
