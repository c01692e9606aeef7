/**
 * Proposals from receipts, pure: the noise threshold (relative to the sessions on record), narrow
 * versus archive, and near misses becoming aliases (words of two searches or more, those the
 * entry is found by left out, the searches a proposal was made of spent).
 */
import { assertEquals } from "@std/assert";
import { blankEntry, type Entry } from "../entry/entry.ts";
import type { SessionRecord } from "../delivery/misses.ts";
import type { NearMiss } from "../delivery/receipts.ts";
import { receiptProposals, searchDigest } from "./from_receipts.ts";

function entry(id: string, fields: Partial<Entry> = {}): Entry {
  return {
    ...blankEntry(id, "2026-01-01"),
    title: `Entry ${id}`,
    tags: ["x"],
    body: "b\n",
    ...fields,
  };
}

function session(
  shown: string[],
  fetched: string[] = [],
  nearMisses?: NearMiss[],
  name: string = crypto.randomUUID(),
): SessionRecord {
  return {
    session: name,
    ledger: Object.fromEntries(shown.map((id) => [id, "h"])),
    receipts: {
      fetched,
      unmatched: { prompts: 0, words: {} },
      ...nearMisses ? { nearMisses } : {},
    },
  };
}

/** A valid `updated`: a proposal dated otherwise breaks the contract and is not made. */
const TODAY = "2026-03-03";

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
    receiptProposals({ sessions: [...three, ...quiet], entries: ENTRIES, today: TODAY }).length,
    0,
  );
  assertEquals(
    receiptProposals({ sessions: three, entries: ENTRIES, today: "2026-03-03" }).length,
    0,
  );
});

/** A session that searched `words`, then fetched `id` with no pointer to it. */
function missed(id: string, words: string[], name?: string): SessionRecord {
  return session([], [id], [{ id, words }], name);
}

Deno.test("near misses: the words of two searches the entry lacks, most searched first, at most 3", () => {
  const sessions = [
    missed("kb-fetch", ["entry", "deploy", "helm", "argo", "zulu"]),
    missed("kb-fetch", ["helm", "zulu", "x", "argo", "deploy"]),
    missed("kb-fetch", ["helm", "once"]),
    missed("kb-gone1", ["helm"]),
    missed("kb-gone1", ["helm"]),
  ];
  const [alias, ...rest] = receiptProposals({ sessions, entries: ENTRIES, today: "2026-03-03" });
  assertEquals(rest.length, 0, "an entry that is not there gets none");
  assertEquals(alias.kind, "alias");
  assertEquals(alias.entryId, "kb-fetch");
  assertEquals(alias.markdown.includes("aliases: [helm, argo, deploy]\n"), true, alias.markdown);
  assertEquals(alias.key, "alias:kb-fetch:argo,deploy,helm");
  assertEquals(alias.evidence?.length, 3, "every search it was made of");
});

Deno.test("near misses: a word common in the knowledge base is not proposed", () => {
  const sessions = [missed("kb-fetch", ["key", "vault"]), missed("kb-fetch", ["vault", "key"])];
  const specificity = (word: string) => word === "key" ? 0.6 : 0.7;
  const [alias] = receiptProposals({ sessions, entries: ENTRIES, today: TODAY, specificity });
  assertEquals(alias.key, "alias:kb-fetch:vault", "under 2/3: common, as the prompt hook says");
});

Deno.test("near misses: one search proposes nothing, however many times it is fetched after", () => {
  const words = ["secret", "exposure", "publish", "key"];
  const once = session([], ["kb-fetch"], [{ id: "kb-fetch", words }, { id: "kb-fetch", words }]);
  assertEquals(receiptProposals({ sessions: [once], entries: ENTRIES, today: TODAY }), []);
  const [alias] = receiptProposals({
    sessions: [once, missed("kb-fetch", ["publish", "key"])],
    entries: ENTRIES,
    today: "2026-03-03",
  });
  assertEquals(alias.key, "alias:kb-fetch:key,publish", "a second search: its shared words");
});

Deno.test("near misses: searches a proposal was made of are spent, whatever became of it; new ones count", () => {
  const entries = new Map([["kb-fetch", entry("kb-fetch", { aliases: ["access rotation"] })]]);
  const old = [
    missed("kb-fetch", ["access", "exposure", "publish", "key", "vault"], "s1"),
    missed("kb-fetch", ["access", "exposure", "publish", "key", "vault"], "s2"),
  ];
  const [first] = receiptProposals({ sessions: old, entries, today: "2026-03-03" });
  assertEquals(
    first.key,
    "alias:kb-fetch:exposure,key,publish",
    "access is an alias's word already",
  );
  // Accepted with publish taken out (or rejected): those searches propose nothing more, not the
  // word taken out nor the ones ranked after.
  const accepted = new Map([[
    "kb-fetch",
    entry("kb-fetch", { aliases: ["access rotation", "exposure", "key"] }),
  ]]);
  const spent = new Set(first.evidence);
  assertEquals(receiptProposals({ sessions: old, entries: accepted, today: TODAY, spent }), []);
  assertEquals(receiptProposals({ sessions: old, entries, today: TODAY, spent }), []);
  assertEquals(
    receiptProposals({ sessions: old, entries, today: TODAY, aliasPending: new Set(["kb-fetch"]) }),
    [],
    "one alias proposal of an entry at a time",
  );
  const later = [
    ...old,
    missed("kb-fetch", ["publish", "zeppelin"], "s3"),
    missed("kb-fetch", ["zeppelin"], "s4"),
  ];
  const [next, ...more] = receiptProposals({
    sessions: later,
    entries: accepted,
    today: "2026-03-03",
    spent,
  });
  assertEquals(more, []);
  assertEquals(next.key, "alias:kb-fetch:zeppelin", "new searches: their own words, two of them");
  assertEquals(
    next.evidence,
    [
      searchDigest("kb-fetch", "s3", ["zeppelin", "publish"]),
      searchDigest("kb-fetch", "s4", ["zeppelin"]),
    ].sort(),
  );
});
