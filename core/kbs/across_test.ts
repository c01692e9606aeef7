import { deepStrictEqual as deepEqual, ok, strictEqual as equal } from "node:assert/strict";
import type { Entry } from "../entry/entry.ts";
import { buildIndex, makeEntry } from "../index/_memory_index.ts";
import type { IndexReader } from "../index/reader.ts";
import { LIMITS } from "../entry/schema.ts";
import { DEFAULT_SURFACE_CONFIG } from "../prompt/decision.ts";
import { decideAcross, decideSearchAcross, type KbPart } from "./across.ts";

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
  equal(decision.outcome, "surfaced");
  deepEqual(decision.assembly!.pointers.map((pointer) => pointer.id), [
    "personal:kb-aaaaa",
    "team:kb-bbbbb",
    "personal:kb-aaaab",
  ]);
  ok(decision.assembly!.text.includes("Fetch full text: get personal:kb-aaaaa team:kb-bbbbb"));
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
  deepEqual(assembly.kernel, ["personal:kb-rrrr1"]);
  deepEqual(assembly.kernelDegraded, ["team:kb-rrrr2"]);
  ok(assembly.text.length <= DEFAULT_SURFACE_CONFIG.budgetChars);
  ok(assembly.pointers.some((pointer) => pointer.id === "team:kb-bbbbb"));
  // The personal ledger holds kb-aaaaa with another hash: changed, so it shows again.
  ok(assembly.pointers.some((pointer) => pointer.id === "personal:kb-aaaaa"));
});

Deno.test("decideAcross: nothing anywhere is no_signal; a skipped prompt is skipped", () => {
  const parts = [part("a", [{ id: "kb-aaaaa", ...TOKEN }]), part("b", [])];
  equal(decideAcross("tell me about postgres vacuum tuning", parts, FETCH).outcome, "no_signal");
  equal(decideAcross("ok", parts, FETCH).outcome, "skipped");
});

Deno.test("decideAcross: a pointer a knowledge base's own ledger lists unchanged is deduped", () => {
  const team = part("team", [{ id: "kb-bbbbb", ...TOKEN }]);
  const seen = { "kb-bbbbb": team.reader.docById("kb-bbbbb")!.hash };
  const decision = decideAcross("how do I rotate the npm token", [
    part("personal", [{ id: "kb-aaaaa", ...TOKEN }], seen),
    { ...team, seen: () => seen },
  ], FETCH);
  deepEqual(decision.deduped, ["team:kb-bbbbb"]);
  deepEqual(decision.assembly!.pointers.map((pointer) => pointer.id), ["personal:kb-aaaaa"]);
});

Deno.test("decideSearchAcross: matches of both, qualified, at most maxPointers", () => {
  const decision = decideSearchAcross(["npm token"], [
    part("personal", [{ id: "kb-aaaaa", ...TOKEN }]),
    part("team", [{ id: "kb-bbbbb", ...TOKEN }]),
  ], FETCH);
  equal(decision.outcome, "surfaced");
  deepEqual(decision.assembly!.pointers.map((pointer) => pointer.id), [
    "personal:kb-aaaaa",
    "team:kb-bbbbb",
  ]);
  deepEqual(decision.matches, { "npm token": 2 });
  equal(decideSearchAcross(["zebra"], [part("a", []), part("b", [])], FETCH).outcome, "no_match");
});
