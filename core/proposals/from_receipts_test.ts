/**
 * Proposals from receipts, pure: the noise threshold (relative to the sessions on record), narrow
 * versus archive, and near misses becoming aliases (words the entry is found by left out).
 */
import { assertEquals } from "@std/assert";
import { blankEntry, type Entry } from "../entry/entry.ts";
import type { SessionRecord } from "../delivery/misses.ts";
import type { NearMiss } from "../delivery/receipts.ts";
import { receiptProposals } from "./from_receipts.ts";

function entry(id: string, fields: Partial<Entry> = {}): Entry {
  return {
    ...blankEntry(id, "2026-01-01"),
    title: `Entry ${id}`,
    tags: ["x"],
    body: "b\n",
    ...fields,
  };
}

function session(shown: string[], fetched: string[] = [], nearMisses?: NearMiss[]): SessionRecord {
  return {
    ledger: Object.fromEntries(shown.map((id) => [id, "h"])),
    receipts: {
      fetched,
      unmatched: { prompts: 0, words: {} },
      ...nearMisses ? { nearMisses } : {},
    },
  };
}

const ENTRIES = new Map([
  ["kb-noisy", entry("kb-noisy")],
  ["kb-activ", entry("kb-activ", { appliesTo: ["coding", "reviewing"] })],
  ["kb-fetch", entry("kb-fetch")],
]);

Deno.test("noise: shown in 3 sessions and a quarter of them, never fetched: archive or narrow", () => {
  const sessions = [
    session(["kb-noisy", "kb-activ", "kb-fetch"], ["kb-fetch"]),
    session(["kb-noisy", "kb-activ"]),
    session(["kb-noisy", "kb-activ"]),
  ];
  const proposals = receiptProposals({ sessions, entries: ENTRIES, today: "2026-03-03" });
  assertEquals(proposals.map(({ kind, entryId }) => [kind, entryId]), [
    ["narrow", "kb-activ"],
    ["archive", "kb-noisy"],
  ]);
  assertEquals(proposals[0].markdown.includes("applies_to"), false);
  assertEquals(proposals[1].markdown.includes("status: archived\n"), true);
  assertEquals(proposals[1].markdown.includes("updated: 2026-03-03\n"), true);
});

Deno.test("noise: below a quarter of the sessions, or where nothing is ever fetched, no proposal", () => {
  const quiet = Array.from({ length: 10 }, () => session([], ["kb-fetch"]));
  const three = [session(["kb-noisy"]), session(["kb-noisy"]), session(["kb-noisy"])];
  assertEquals(
    receiptProposals({ sessions: [...three, ...quiet], entries: ENTRIES, today: "x" }).length,
    0,
  );
  assertEquals(
    receiptProposals({ sessions: three, entries: ENTRIES, today: "2026-03-03" }).length,
    0,
  );
});

Deno.test("near misses: the searched words the entry lacks, most searched first, at most 3", () => {
  const sessions = [
    session([], ["kb-fetch"], [{ id: "kb-fetch", words: ["entry", "deploy", "helm", "argo"] }]),
    session([], ["kb-fetch"], [{ id: "kb-fetch", words: ["helm", "zulu", "x"] }]),
    session([], ["kb-gone1"], [{ id: "kb-gone1", words: ["helm"] }]),
  ];
  const [alias, ...rest] = receiptProposals({ sessions, entries: ENTRIES, today: "2026-03-03" });
  assertEquals(rest.length, 0, "an entry that is not there gets none");
  assertEquals(alias.kind, "alias");
  assertEquals(alias.entryId, "kb-fetch");
  assertEquals(alias.markdown.includes("aliases: [helm, argo, deploy]\n"), true, alias.markdown);
  assertEquals(alias.key, "alias:kb-fetch:argo,deploy,helm");
});
