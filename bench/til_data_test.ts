import { assertEquals } from "@std/assert";
import { halfOf } from "./retrieval.ts";
import { type CorpusNote, parseNote } from "./til_corpus.ts";

const QUERY_KINDS = ["question", "task", "instruction"] as const;
const NEGATIVE_KINDS = ["own-code", "design", "conversation", "mechanical"] as const;
const LONG_QUERY_KINDS = [
  "pasted-error",
  "task-with-context",
  "question-with-context",
  "follow-up",
] as const;
const LONG_NEGATIVE_KINDS = [
  "own-code",
  "design",
  "conversation",
  "spec",
  "pasted-output",
] as const;
/** The fewest and the most words of a prompt of `long.jsonl`, split at whitespace. */
const LONG_WORDS = [60, 400] as const;

interface LabelledQuery {
  query: string;
  target: string;
  kind: string;
}

interface Negative {
  query: string;
  kind: string;
}

/** A prompt of `long.jsonl`: a target when one note answers it. */
interface LongPrompt extends Negative {
  target?: string;
}

async function readJsonl<T>(path: string): Promise<T[]> {
  const text = await Deno.readTextFile(new URL(path, import.meta.url));
  return text.split("\n").filter((line) => line !== "").map((line) => JSON.parse(line) as T);
}

/** The same prompt typed with other capitals or spacing is still the same prompt. */
function normalized(query: string): string {
  return query.toLowerCase().replace(/\s+/g, " ").trim();
}

function countBy<T>(items: T[], key: (item: T) => string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const item of items) counts.set(key(item), (counts.get(key(item)) ?? 0) + 1);
  return counts;
}

function duplicates(queries: string[]): string[] {
  return [...countBy(queries, normalized)].filter(([, n]) => n > 1).map(([query]) => query);
}

/** A labelled set of `bench/`: its folder, and the least it must hold. */
interface LabelledSet {
  folder: string;
  notes: number;
  leastQueries: number;
  leastNegatives: number;
  leastPerNegativeKind: number;
  /** The fewest folders (categories) the queries' notes come from. */
  leastFolders: number;
  /** The prompts of `long.jsonl` that one note answers, and as many that no note helps with. */
  longEach: number;
}

/** simonw/til (`til/`), jbranchaud/til (`til2/`) and 30-seconds-of-code (`til3/`). */
const SETS: LabelledSet[] = [
  {
    folder: "til",
    notes: 577,
    leastQueries: 240,
    leastNegatives: 200,
    leastPerNegativeKind: 30,
    leastFolders: 40,
    longEach: 80,
  },
  {
    folder: "til2",
    notes: 1871,
    leastQueries: 250,
    leastNegatives: 150,
    leastPerNegativeKind: 25,
    leastFolders: 40,
    longEach: 80,
  },
  {
    folder: "til3",
    notes: 536,
    leastQueries: 120,
    leastNegatives: 100,
    leastPerNegativeKind: 20,
    leastFolders: 10,
    longEach: 30,
  },
];

for (const set of SETS) {
  const { folder } = set;
  const corpus = await readJsonl<CorpusNote>(`${folder}/corpus.jsonl`);
  const queries = await readJsonl<LabelledQuery>(`${folder}/queries.jsonl`);
  const negatives = await readJsonl<Negative>(`${folder}/negatives.jsonl`);
  checkSet(set, corpus, queries, negatives);
  const long = await readJsonl<LongPrompt>(`${folder}/long.jsonl`);
  checkLong(set, corpus, [...queries, ...negatives], long);
}

/** `long.jsonl`: `longEach` long prompts that one note answers, as many that none does. */
function checkLong(
  { folder, longEach }: LabelledSet,
  corpus: CorpusNote[],
  short: Negative[],
  long: LongPrompt[],
): void {
  Deno.test(`${folder} long prompts: as many answered as not, aimed at notes that exist, all long`, () => {
    const keys = new Set(corpus.map((note) => note.key));
    const answered = long.filter(({ target }) => target !== undefined);
    const unanswered = long.filter(({ target }) => target === undefined);
    assertEquals([answered.length, unanswered.length], [longEach, longEach]);
    for (const { target, kind } of answered) {
      assertEquals(keys.has(target!), true, `unknown target ${target}`);
      assertEquals((LONG_QUERY_KINDS as readonly string[]).includes(kind), true, `kind ${kind}`);
    }
    for (const { kind } of unanswered) {
      assertEquals((LONG_NEGATIVE_KINDS as readonly string[]).includes(kind), true, `kind ${kind}`);
    }
    assertEquals(countBy(answered, ({ target }) => target!).size, longEach);
    for (const { query } of long) {
      const words = query.split(/\s+/).filter((word) => word !== "").length;
      assertEquals(words >= LONG_WORDS[0] && words <= LONG_WORDS[1], true, `${words} words`);
    }
    assertEquals(duplicates(long.map(({ query }) => query)), []);
    const asked = new Set(short.map(({ query }) => normalized(query)));
    assertEquals(long.filter(({ query }) => asked.has(normalized(query))), []);
  });
}

function checkSet(
  set: LabelledSet,
  corpus: CorpusNote[],
  queries: LabelledQuery[],
  negatives: Negative[],
): void {
  const { folder } = set;
  Deno.test(`${folder} corpus: every note of the fetched commit, once, in the tldr corpus's shape`, () => {
    assertEquals(corpus.length, set.notes);
    assertEquals(duplicates(corpus.map((note) => note.key)), []);
    for (const note of corpus) {
      assertEquals(Object.keys(note), ["key", "title", "tags", "body"], note.key);
      const [folder, stem, ...rest] = note.key.split("/");
      assertEquals(rest.length, 0, note.key);
      assertEquals(stem !== "" && !stem.endsWith(".md"), true, note.key);
      assertEquals(note.tags, [folder], note.key);
      assertEquals(note.title.trim() !== "" && !note.title.startsWith("#"), true, note.key);
      assertEquals(typeof note.body === "string" && note.body.length > 0, true, note.key);
    }
  });

  Deno.test(`${folder} queries: enough of each kind, each aimed at one note that exists`, () => {
    const keys = new Set(corpus.map((note) => note.key));
    assertEquals(queries.length >= set.leastQueries, true, `${queries.length} queries`);
    for (const { query, target, kind } of queries) {
      assertEquals(query.trim() !== "", true);
      assertEquals(keys.has(target), true, `unknown target ${target}`);
      assertEquals((QUERY_KINDS as readonly string[]).includes(kind), true, `kind ${kind}`);
    }
    assertEquals(duplicates(queries.map(({ query }) => query)), []);
    const kinds = countBy(queries, ({ kind }) => kind);
    for (const kind of QUERY_KINDS) {
      const share = (kinds.get(kind) ?? 0) / queries.length;
      assertEquals(
        share > 0.25 && share < 0.42,
        true,
        `${kind}: ${kinds.get(kind)} of ${queries.length}`,
      );
    }
    const perNote = countBy(queries, ({ target }) => target);
    assertEquals([...perNote].filter(([, n]) => n > 2), []);
    const folders = new Set(queries.map(({ target }) => target.split("/")[0]));
    assertEquals(folders.size >= set.leastFolders, true, `${folders.size} folders`);
  });

  Deno.test(`${folder} negatives: enough of them, of the four kinds, none also a query`, () => {
    assertEquals(negatives.length >= set.leastNegatives, true, `${negatives.length} negatives`);
    for (const { query, kind } of negatives) {
      assertEquals(query.trim() !== "", true);
      assertEquals((NEGATIVE_KINDS as readonly string[]).includes(kind), true, `kind ${kind}`);
    }
    assertEquals(duplicates(negatives.map(({ query }) => query)), []);
    const asked = new Set(queries.map(({ query }) => normalized(query)));
    assertEquals(negatives.filter(({ query }) => asked.has(normalized(query))), []);
    const kinds = countBy(negatives, ({ kind }) => kind);
    for (const kind of NEGATIVE_KINDS) {
      assertEquals((kinds.get(kind) ?? 0) >= set.leastPerNegativeKind, true, kind);
    }
  });

  Deno.test(`${folder} halves: the prompt hash puts a fair share of every kind in both halves`, () => {
    const prompts = [...queries, ...negatives];
    for (const [kind, count] of countBy(prompts, ({ kind }) => kind)) {
      const tuning = prompts.filter((p) => p.kind === kind && halfOf(p.query) === "tuning").length;
      assertEquals(
        tuning >= count * 0.3 && tuning <= count * 0.7,
        true,
        `${kind}: ${tuning} of ${count}`,
      );
    }
  });
}

Deno.test("parseNote: the heading becomes the title, the folder the tag, the rest the body", () => {
  assertEquals(parseNote("sqlite/wal.md", "\uFEFF# Enabling WAL\r\n\r\nRun this:\r\n\n"), {
    key: "sqlite/wal",
    title: "Enabling WAL",
    tags: ["sqlite"],
    body: "Run this:",
  });
  assertEquals(parseNote("misc/empty.md", "# Only a title"), {
    key: "misc/empty",
    title: "Only a title",
    tags: ["misc"],
    body: "",
  });
  assertEquals(parseNote("misc/no-heading.md", "Text without a heading\n"), undefined);
  assertEquals(parseNote("README.md", "# Today I Learned\n"), undefined);
  assertEquals(parseNote("a/b/c.md", "# Too deep\n"), undefined);
  assertEquals(parseNote("misc/notes.txt", "# Not markdown\n"), undefined);
});
