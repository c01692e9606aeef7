import { assert, assertEquals, assertStrictEquals } from "@std/assert";
import type { Entry } from "../entry/entry.ts";
import type { IndexReader } from "../index/reader.ts";
import { buildIndex, makeEntry as plainEntry } from "../index/_memory_index.ts";
import { compoundSplits, type Hit, MAX_TYPO_LENGTH, search, typoCorrections } from "./rank.ts";

/** Build an index of `entries` in memory, through JSON as on disk, and open a reader on it. */
function indexOf(entries: Entry[], shardCount = 4): IndexReader {
  return buildIndex(entries, { shardCount }).reader();
}

let counter = 0;
function makeEntry(overrides: Partial<Entry>): Entry {
  counter++;
  return plainEntry({
    id: `kb-${String(counter).padStart(5, "0")}`,
    title: "Untitled note",
    updated: "2026-01-01",
    body: "Some general words about the project and its people.",
    ...overrides,
  });
}

function ids(hits: Hit[]): string[] {
  return hits.map((hit) => hit.doc.id);
}

/** Filler entries so that document frequencies look like a real knowledge base. */
function filler(count: number): Entry[] {
  return Array.from(
    { length: count },
    (_, index) =>
      makeEntry({ title: `Filler topic ${index}`, body: `Unrelated paragraph number ${index}.` }),
  );
}

Deno.test("a title match ranks above a body-only match", () => {
  const titled = makeEntry({ title: "Docker networking", body: "Bridges and overlays explained." });
  const bodied = makeEntry({ title: "Container notes", body: "We use docker on every host here." });
  // Body-only entry added first, so insertion order alone would put it first.
  const reader = indexOf([bodied, titled, ...filler(5)]);
  const hits = search(reader, ["docker"]);
  assertEquals(ids(hits), [titled.id, bodied.id]);
  assert(hits[0].score > hits[1].score);
  assertEquals(hits[0].terms, ["docker"]);
});

Deno.test("a tag or an alias match ranks above a body-only match", () => {
  const tagged = makeEntry({
    title: "Cluster setup",
    tags: ["kubernetes"],
    body: "Nodes and pods.",
  });
  const aliased = makeEntry({
    title: "Edge platform",
    aliases: ["cf"],
    body: "Workers and pages.",
  });
  const bodied = makeEntry({ title: "Ops diary", body: "Spent the day on kubernetes and cf dns." });
  const reader = indexOf([bodied, tagged, aliased, ...filler(5)]);
  assertEquals(ids(search(reader, ["kubernetes"])), [tagged.id, bodied.id]);
  assertEquals(ids(search(reader, ["cf"])), [aliased.id, bodied.id]);
});

Deno.test("more matched query terms rank higher; unmatched entries are left out", () => {
  const both = makeEntry({ title: "Rotate leaked tokens", body: "Steps." });
  const one = makeEntry({ title: "Rotate log files", body: "Steps." });
  const reader = indexOf([one, both, ...filler(4)]);
  const hits = search(reader, ["rotating leaked tokens"]);
  assertEquals(ids(hits), [both.id, one.id]);
  assertEquals(hits[0].terms.sort(), ["leak", "rotat", "token"]);
  assertEquals(hits[1].terms, ["rotat"]);
});

Deno.test("a query of stopwords or unknown words finds nothing", () => {
  const reader = indexOf([makeEntry({ title: "The token" }), ...filler(2)]);
  assertEquals(search(reader, ["the and of"]), []);
  assertEquals(search(reader, ["zyxwvut"]), []);
  assertEquals(search(reader, []), []);
});

Deno.test("the type filter keeps only entries of that type", () => {
  const howto = makeEntry({ title: "Backup database", type: "howto" });
  const decision = makeEntry({ title: "Database choice", type: "decision" });
  const note = makeEntry({ title: "Database notes", type: "note" });
  const reader = indexOf([howto, decision, note, ...filler(3)]);
  assertEquals(search(reader, ["database"]).length, 3);
  assertEquals(ids(search(reader, ["database"], { type: "decision" })), [decision.id]);
  assertEquals(ids(search(reader, ["database"], { type: "howto" })), [howto.id]);
  assertEquals(search(reader, ["database"], { type: "rule" }), []);
});

Deno.test("the tag filter keeps the tag and tags under it, case-insensitively", () => {
  const ci = makeEntry({ title: "Pipeline cache", tags: ["ci"] });
  const cicd = makeEntry({ title: "Pipeline secrets", tags: ["security", "CI/CD"] });
  const glued = makeEntry({ title: "Pipeline glue", tags: ["cicd"] });
  const untagged = makeEntry({ title: "Pipeline notes" });
  const reader = indexOf([ci, cicd, glued, untagged, ...filler(3)]);
  assertEquals(ids(search(reader, ["pipeline"], { tag: "ci" })).sort(), [ci.id, cicd.id].sort());
  assertEquals(ids(search(reader, ["pipeline"], { tag: "CI" })).sort(), [ci.id, cicd.id].sort());
  assertEquals(ids(search(reader, ["pipeline"], { tag: "ci/cd" })), [cicd.id]);
  assertEquals(ids(search(reader, ["pipeline"], { tag: "cd" })), []);
  assertEquals(ids(search(reader, ["pipeline"], { tag: "cicd" })), [glued.id]);
});

Deno.test("superseded and archived entries rank below active ones even with a higher score", () => {
  const superseded = makeEntry({
    title: "Terraform state locking",
    tags: ["terraform"],
    status: "superseded",
    body: "Terraform terraform terraform.",
  });
  const archived = makeEntry({
    title: "Terraform modules",
    tags: ["terraform"],
    status: "archived",
  });
  const active = makeEntry({ title: "Infra notes", body: "We once tried terraform." });
  const reader = indexOf([superseded, archived, active, ...filler(5)]);
  const hits = search(reader, ["terraform"]);
  assertEquals(hits[0].doc.id, active.id);
  assertEquals(ids(hits).slice(1).sort(), [superseded.id, archived.id].sort());
  assert(hits[1].score > hits[0].score, "the inactive entries did score higher");
  assert(hits[2].score > hits[0].score);
  // Among inactive entries, score decides.
  assert(hits[1].score >= hits[2].score);
});

Deno.test("a superseded entry's exact title finds it near the top, marked superseded", () => {
  const old = makeEntry({
    title: "Rotate Cloudflare API tokens",
    status: "superseded",
    body: "Old steps.",
  });
  const current = makeEntry({
    title: "Cloudflare token rotation with the new dashboard",
    body: "Rotate the API tokens of Cloudflare from the dashboard.",
  });
  const others = Array.from({ length: 12 }, (_, index) =>
    makeEntry({
      title: `Cloudflare note ${index}`,
      body: `Cloudflare API tokens and rotating them, case ${index}.`,
    }));
  const reader = indexOf([...others, old, current, ...filler(20)]);
  const hits = search(reader, ["Rotate Cloudflare API tokens"], { limit: 5 });
  const at = ids(hits).indexOf(old.id);
  assert(at >= 0 && at < 2, `the superseded entry is at ${at} of ${ids(hits)}`);
  assertEquals(hits[at].doc.status, "superseded");
});

Deno.test("fusion: an entry found by two of three queries ranks above one found by one", () => {
  const twice = makeEntry({ title: "Publishing packages", body: "Use the registry token." });
  // Beats `twice` on the first query (title and body), so fusion must overcome that.
  const strongOnce = makeEntry({
    title: "Publishing checklist",
    body: "Publishing publishing steps.",
  });
  const onlyThird = makeEntry({
    title: "Semver versioning",
    tags: ["semver"],
    body: "Semver rules.",
  });
  const reader = indexOf([strongOnce, onlyThird, twice, ...filler(6)]);

  const first = search(reader, ["publishing"]);
  assertEquals(first[0].doc.id, strongOnce.id, "strongOnce wins the first query alone");

  const hits = search(reader, ["publishing", "registry token", "semver"]);
  assertEquals(hits[0].doc.id, twice.id);
  assertEquals(ids(hits).slice(1).sort(), [strongOnce.id, onlyThird.id].sort());
  assertEquals(hits[0].terms.sort(), ["publish", "registri", "token"]);
  // Fused scores are reciprocal ranks, well under one.
  for (const hit of hits) assert(hit.score > 0 && hit.score < 1);
});

Deno.test("fusion with one query gives the same order as the single query", () => {
  const entries = [
    makeEntry({ title: "Redis cache sizing", body: "Redis." }),
    makeEntry({ title: "Cache headers", body: "HTTP cache." }),
    makeEntry({ title: "Notes", body: "A cache here." }),
    ...filler(4),
  ];
  const reader = indexOf(entries);
  const single = search(reader, ["redis cache"]);
  const twice = search(reader, ["redis cache", "redis cache"]);
  assertEquals(ids(twice), ids(single));
});

Deno.test("limit cuts the ranking, default 10", () => {
  const matching = Array.from(
    { length: 12 },
    (_, index) => makeEntry({ title: `Kafka topic ${index}`, body: "kafka ".repeat(index + 1) }),
  );
  const reader = indexOf([...matching, ...filler(3)]);
  const all = search(reader, ["kafka"], { limit: 100 });
  assertEquals(all.length, 12);
  assertEquals(search(reader, ["kafka"]).length, 10);
  const top3 = search(reader, ["kafka"], { limit: 3 });
  assertEquals(ids(top3), ids(all).slice(0, 3));
  for (let index = 1; index < all.length; index++) assert(all[index - 1].score >= all[index].score);
});

Deno.test("ties keep index order", () => {
  const a = makeEntry({ title: "Alpha gamma", body: "same" });
  const b = makeEntry({ title: "Alpha gamma", body: "same" });
  const reader = indexOf([a, b, ...filler(2)]);
  assertEquals(ids(search(reader, ["gamma"])), [a.id, b.id]);
});

/**
 * [query, title of an entry it must find among the first two]: what search forgives of what
 * people type. (`Strasse` and `Straße` find both of their entries.)
 */
const FORGIVEN: [string, string][] = [
  ["kuberentes", "Kubernetes pod restarts"],
  ["postgress", "Postgres vacuum settings"],
  ["sentinal", "Redis sentinel failover"],
  ["uber grosse", "Über die Größe der Dateien"],
  ["Strasse", "Straße und Hausnummer"],
  ["Straße", "Strasse im Adressfeld"],
  ["café", "Cafe opening hours"],
  ["デプロイ", "本番へのデプロイ手順"],
  ["배포", "서버 배포 방법"],
  ["crash loop", "Pod stuck in CrashLoopBackOff"],
  ["crashloopbackoff", "Pod stuck in CrashLoopBackOff"],
  ["forcepush", "Never force-push to main"],
  ["force push", "Never force-push to main"],
  ["key chain", "Keychain access on macOS"],
  ["snakecase", "Naming in snake_case"],
  ["rebasemerge", "Rebase or merge a branch"],
];

Deno.test("search forgives typos, accents, scripts and compounds: table", () => {
  const entries = FORGIVEN.map(([, title]) => title).filter((title, at, all) =>
    all.indexOf(title) === at
  ).map((title) => makeEntry({ title, body: "Notes." }));
  const reader = indexOf([...entries, ...filler(30)]);
  for (const [query, title] of FORGIVEN) {
    const hits = search(reader, [query]);
    assert(hits.slice(0, 2).some((hit) => hit.doc.title === title), `${query} → ${ids(hits)}`);
  }
});

Deno.test("a corrected word ranks below a word as typed; short or known words are not corrected", () => {
  const exact = makeEntry({ title: "Pods of whales", body: "Notes." });
  const typo = makeEntry({ title: "Kubernetes notes", body: "Notes." });
  const short = makeEntry({ title: "Redis notes", body: "Notes." });
  const known = makeEntry({ title: "Mongo cluster", body: "Notes." });
  const near = makeEntry({ title: "Mongol history", body: "Notes." });
  const reader = indexOf([typo, exact, short, known, near, ...filler(10)]);
  assertEquals(ids(search(reader, ["kuberentes pods"])), [exact.id, typo.id]);
  assert(
    search(reader, ["kuberentes pods"])[1].terms.includes("kubernet"),
    "found by the correction",
  );
  assertEquals(ids(search(reader, ["rdis"])), [], "a word under five letters is not corrected");
  assertEquals(ids(search(reader, ["mongol"])), [near.id], "a word some entry holds stays");
  assertEquals(typoCorrections(reader, "mongox"), ["mongo", "mongol"], "as many entries each");
  assertEquals(typoCorrections(reader, "mongoal"), ["mongol"]);
  assertEquals(typoCorrections(reader, "kubernetés"), [], "only words of a–z are tried");
});

Deno.test("typoCorrections is bounded on hostile words: long, repeated, many", () => {
  const reader = indexOf([makeEntry({ title: "Kubernetes notes" }), ...filler(50)]);
  const started = performance.now();
  assertEquals(typoCorrections(reader, "k".repeat(MAX_TYPO_LENGTH + 1)), []);
  assertEquals(typoCorrections(reader, "q".repeat(10_000)), []);
  for (let round = 0; round < 20; round++) typoCorrections(reader, "zqxjv".repeat(6));
  assertEquals(search(reader, ["zqxjw ".repeat(2_000)]), []);
  const junk = Array.from({ length: 5_000 }, (_, at) => `zq${at.toString(26)}xjw`).join(" ");
  assertEquals(search(reader, [junk]), [], "only the first words are tried for typos");
  const ms = performance.now() - started;
  assert(ms < 1000, `${ms.toFixed(0)} ms`);
});

Deno.test("compoundSplits: a joined word's parts when entries hold both, none otherwise", () => {
  const reader = indexOf([
    makeEntry({ title: "Force push with lease", body: "Notes." }),
    makeEntry({ title: "Kubernetes notes", body: "Notes." }),
    ...filler(5),
  ]);
  assertEquals(compoundSplits(reader, "forcepush"), ["forc", "push"]);
  assertEquals(compoundSplits(reader, "forcezzzz"), []);
  assertEquals(compoundSplits(reader, "forcépush"), [], "only words of a–z are split");
  assertEquals(compoundSplits(reader, "force".repeat(7)), [], "nor words too long to try");
  assertStrictEquals(search(reader, ["forcepush"])[0]?.doc.title, "Force push with lease");
});

Deno.test("an entry titled as the query comes first, though its words are in every entry", () => {
  // A knowledge base about one tool says its name everywhere: "foam" weighs next to nothing.
  const about = makeEntry({ title: "What is Foam?", body: "A note taking tool: foam." });
  const others = Array.from({ length: 6 }, (_, index) =>
    makeEntry({
      title: index % 2 ? `Foam tips ${index}` : `Principles ${index}`,
      body: "Foam, foam and foam again: foam links, foam graphs, foam templates.",
    }));
  const reader = indexOf([...others, about]);
  assertEquals(ids(search(reader, ["What is Foam?"]))[0], about.id);
  assertEquals(ids(search(reader, ["foam"]))[0], about.id, "stopwords aside, the same title");
  // A query saying more than the title, or a title saying more than the query, is no such match.
  assert(ids(search(reader, ["what is foam graphs"]))[0] !== about.id);
  const tips = others[1];
  assert(ids(search(reader, ["foam tips"]))[0] !== about.id);
  assertEquals(ids(search(reader, ["graphs", "Foam tips 1"]))[0], tips.id, "any of the queries");
});

Deno.test("an entry that holds the query's words side by side moves up among the first ones", () => {
  const scattered = makeEntry({
    title: "Output formatting",
    body:
      "Print the report, print it twice. Pretty colours, pretty fonts. The json goes to the log, json for the api.",
  });
  const together = makeEntry({
    title: "Output formatting",
    body: "Pretty print the json of the report with jq, then read it.",
  });
  const reader = indexOf([scattered, together, ...filler(8)]);
  const hits = search(reader, ["pretty print json"]);
  assertEquals(ids(hits).slice(0, 2), [together.id, scattered.id]);
  assert(hits[0].score > hits[1].score);
  // Words apart, the scattered entry's two json rank it first.
  assertEquals(ids(search(reader, ["json pretty"])).slice(0, 2), [scattered.id, together.id]);
  // However few hits are asked for, the same entries are reordered.
  assertEquals(ids(search(reader, ["pretty print json"], { limit: 1 })), [together.id]);
});
