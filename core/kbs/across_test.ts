import { assert, assertEquals } from "@std/assert";
import type { Entry } from "../entry/entry.ts";
import { buildIndex, makeEntry } from "../index/_memory_index.ts";
import type { IndexReader } from "../index/reader.ts";
import { LIMITS } from "../entry/schema.ts";
import { DEFAULT_SURFACE_CONFIG, PROMPT_WORDING } from "../prompt/decision.ts";
import { COMPACT_WORDING } from "../hook/session_start.ts";
import { SEARCH_WORDING } from "../search_augment/match.ts";
import { decideAcross, decideSearchAcross, type KbPart, wordingAcross } from "./across.ts";

function reader(entries: Partial<Entry>[]): IndexReader {
  return buildIndex(entries.map((entry) => makeEntry(entry)), { kernelBodies: true }).reader();
}

function part(name: string, entries: Partial<Entry>[], seen: Record<string, string> = {}): KbPart {
  return { name, reader: reader(entries), seen: () => seen };
}

const FETCH = (ids: string[]) => `get ${ids.join(" ")}`;

const TOKEN = { title: "Rotate the npm token", tags: ["npm", "token"] };

Deno.test("decideAcross: pointers of every knowledge base, qualified, best of each first", () => {
  const decision = decideAcross("how do I rotate the npm token", [
    part("personal", [
      { id: "kb-aaaaa", ...TOKEN },
      { id: "kb-aaaab", title: "Rotate the npm token on a schedule", tags: ["npm"] },
    ]),
    part("team", [{ id: "kb-bbbbb", ...TOKEN }]),
  ], FETCH);
  assertEquals(decision.outcome, "surfaced");
  assertEquals(decision.assembly!.pointers.map((pointer) => pointer.id), [
    "personal:kb-aaaaa",
    "team:kb-bbbbb",
    "personal:kb-aaaab",
  ]);
  assert(decision.assembly!.text.includes("Fetch full text: get personal:kb-aaaaa team:kb-bbbbb"));
});

Deno.test("decideAcross: one kernel budget for all; a changed entry shows again", () => {
  const rule = (id: string) => ({
    id,
    title: `Rule ${id}`,
    type: "rule" as const,
    kernel: true,
    body: `${"Always say what changed. ".repeat(Math.floor(LIMITS.kernelBudgetChars / 40))}\n`,
  });
  const decision = decideAcross("how do I rotate the npm token", [
    part("personal", [rule("kb-rrrr1"), { id: "kb-aaaaa", ...TOKEN }], { "kb-aaaaa": "x" }),
    part("team", [rule("kb-rrrr2"), { id: "kb-bbbbb", ...TOKEN }]),
  ], FETCH);
  const assembly = decision.assembly!;
  assertEquals(assembly.kernel, ["personal:kb-rrrr1"]);
  assertEquals(assembly.kernelDegraded, ["team:kb-rrrr2"]);
  assert(assembly.text.length <= DEFAULT_SURFACE_CONFIG.budgetChars);
  assert(assembly.pointers.some((pointer) => pointer.id === "team:kb-bbbbb"));
  // The personal ledger holds kb-aaaaa with another hash: changed, so it shows again.
  assert(assembly.pointers.some((pointer) => pointer.id === "personal:kb-aaaaa"));
});

Deno.test("decideAcross: nothing anywhere is no_signal; a skipped prompt is skipped", () => {
  const parts = [part("a", [{ id: "kb-aaaaa", ...TOKEN }]), part("b", [])];
  assertEquals(
    decideAcross("tell me about postgres vacuum tuning", parts, FETCH).outcome,
    "no_signal",
  );
  assertEquals(decideAcross("ok", parts, FETCH).outcome, "skipped");
});

Deno.test("decideAcross: says which entry held the prompt back, in which knowledge base", () => {
  // The prompt's rare words are all in the meeting notes' body only: enough evidence, but the
  // prompt never names the entry.
  const meeting = {
    id: "kb-meet1",
    title: "Notes from the Tuesday meeting",
    tags: ["meetings"],
    body: "Retry with backoff and jitter, jitter.\n",
  };
  const fillers = Array.from({ length: 30 }, (_, index) => ({
    id: `kb-f${index.toString(36).padStart(4, "0")}`,
    title: `Filler note ${index}`,
    body: `Nothing here about topic${index}.\n`,
  }));
  const prompt = "retry the request with backoff and jitter";
  const alone = decideAcross(prompt, [part("team", [meeting, ...fillers])], FETCH);
  assertEquals(alone.heldBack, { id: "team:kb-meet1", reason: "not_named" });
  const decision = decideAcross(prompt, [
    part("personal", [{ id: "kb-aaaaa", ...TOKEN }]),
    part("team", [meeting, ...fillers]),
  ], FETCH);
  assertEquals(decision.outcome, "no_signal");
  assertEquals(decision.heldBack, { id: "team:kb-meet1", reason: "not_named" });
  // An instruction about the code in front of the model says so, as a single knowledge base does.
  assertEquals(
    decideAcross(
      "fix the crash in parser.py",
      [part("personal", [{ id: "kb-aaaaa", ...TOKEN }])],
      FETCH,
    )
      .reference?.kind,
    "file",
  );
});

Deno.test("decideAcross: a pointer a knowledge base's own ledger lists unchanged is deduped", () => {
  const team = part("team", [{ id: "kb-bbbbb", ...TOKEN }]);
  const seen = { "kb-bbbbb": team.reader.docById("kb-bbbbb")!.hash };
  const decision = decideAcross("how do I rotate the npm token", [
    part("personal", [{ id: "kb-aaaaa", ...TOKEN }], seen),
    { ...team, seen: () => seen },
  ], FETCH);
  assertEquals(decision.deduped, ["team:kb-bbbbb"]);
  assertEquals(decision.assembly!.pointers.map((pointer) => pointer.id), ["personal:kb-aaaaa"]);
});

Deno.test("decideAcross: a repeated prompt adds nothing, however many each knowledge base listed", () => {
  const schedule = { title: "Rotate the npm token on a schedule", tags: ["npm"] };
  const ledgers: Record<string, Record<string, string>> = { personal: {}, team: {} };
  const parts = [
    part("personal", [{ id: "kb-aaaaa", ...TOKEN }, { id: "kb-aaaab", ...schedule }]),
    part("team", [{ id: "kb-bbbbb", ...TOKEN }, { id: "kb-bbbbc", ...schedule }]),
  ].map((kb) => ({ ...kb, seen: () => ledgers[kb.name] }));
  const prompt = "how do I rotate the npm token";
  const first = decideAcross(prompt, parts, FETCH).assembly!.pointers;
  assertEquals(first.length, DEFAULT_SURFACE_CONFIG.maxEntries, "more were listed than shown");
  for (const pointer of first) {
    const [name, id] = pointer.id.split(":");
    ledgers[name][id] = pointer.hash;
  }
  const again = decideAcross(prompt, parts, FETCH);
  assertEquals(again.assembly?.pointers ?? [], []);
  assertEquals(again.outcome, "all_deduped");
  assertEquals(again.deduped.sort(), first.map((pointer) => pointer.id).sort());
});

Deno.test("decideSearchAcross: matches of both, qualified, at most maxPointers", () => {
  const decision = decideSearchAcross(["npm token"], [
    part("personal", [{ id: "kb-aaaaa", ...TOKEN }]),
    part("team", [{ id: "kb-bbbbb", ...TOKEN }]),
  ], FETCH);
  assertEquals(decision.outcome, "surfaced");
  assertEquals(decision.assembly!.pointers.map((pointer) => pointer.id), [
    "personal:kb-aaaaa",
    "team:kb-bbbbb",
  ]);
  assertEquals(decision.matches, { "npm token": 2 });
  assertEquals(
    decideSearchAcross(["zebra"], [part("a", []), part("b", [])], FETCH).outcome,
    "no_match",
  );
  // One word of three in the title, and no tag whole: the entry is matched, not named.
  const unnamed = decideSearchAcross(["rotate"], [
    part("personal", [{ id: "kb-aaaaa", ...TOKEN }]),
    part("team", []),
  ], FETCH);
  assertEquals([unnamed.outcome, unnamed.matches], ["unnamed", { rotate: 1 }]);
});

Deno.test("wordingAcross: over several knowledge bases the first line names each, whose ids carry it", () => {
  const parts = [{ name: "personal" }, { name: "team" }, { name: "ops\u001b[2J" }];
  const phrase = "the knowledge bases personal (the user's default), team and ops (each id below " +
    "starts with the name of the one it comes from; one that others push to holds their words, " +
    "not the user's)";
  assertEquals(
    wordingAcross(PROMPT_WORDING, parts).header,
    `git-kb: knowledge for this prompt from ${phrase}.`,
  );
  assertEquals(
    wordingAcross(SEARCH_WORDING, parts).header,
    `git-kb: ${phrase} have entries on what this search looks for.`,
  );
  assert(
    wordingAcross(COMPACT_WORDING, parts).header.startsWith(`git-kb: the rules from ${phrase}`),
  );
  assertEquals(wordingAcross(PROMPT_WORDING, [{ name: "personal" }]), PROMPT_WORDING);
});
