/**
 * Proposals, pure: the key that makes two proposals one idea, the commit messages that record a
 * proposal and its review (read back forgivingly), what is pending, finding one by name, and the
 * entry an accept saves.
 */
import { assert, assertEquals } from "@std/assert";
import { blankEntry, serializeEntry } from "../entry/entry.ts";
import {
  acceptedEntry,
  findProposal,
  type LoggedCommit,
  pendingProposals,
  type Proposal,
  proposalKey,
  proposalMessage,
  readLog,
  rejectedProposals,
  rejectionOf,
  resolutionMessage,
  reviewedBothWays,
  twinProposals,
} from "./proposal.ts";

const ENTRY = { ...blankEntry("kb-abcde", "2026-01-01"), title: "Pin actions", tags: ["ci"] };

function proposal(fields: Partial<Proposal> = {}): Proposal {
  return {
    kind: "new",
    entryId: "kb-abcde",
    markdown: serializeEntry(ENTRY),
    reason: "found in a session",
    source: "session s1 lines 1-9",
    ...fields,
  };
}

function logged(commit: string, date: string, message: string): LoggedCommit {
  return { commit, date, message };
}

Deno.test("proposalKey: a new entry is its title; dates and ids do not count", () => {
  const other = serializeEntry({
    ...ENTRY,
    id: "kb-zzzzz",
    body: "other\n",
    updated: "2026-02-02",
  });
  assertEquals(
    proposalKey(proposal()),
    proposalKey(proposal({ entryId: "kb-zzzzz", markdown: other })),
  );
  const retitled = serializeEntry({ ...ENTRY, title: "Pin actions by sha" });
  assert(proposalKey(proposal()) !== proposalKey(proposal({ markdown: retitled })));
  const edit = proposal({ kind: "edit" });
  const later = proposal({
    kind: "edit",
    markdown: serializeEntry({ ...ENTRY, updated: "2026-09-09" }),
  });
  assertEquals(proposalKey(edit), proposalKey(later));
  assertEquals(
    proposalKey(proposal({ key: "x" })),
    proposalKey(proposal({ key: "x", kind: "alias" })),
  );
});

Deno.test("a proposal's and a review's messages read back; other commits and junk are no record", () => {
  const message = proposalMessage(
    proposal({
      reason: "two\nlines",
      source: "s\u2028x",
      evidence: ["0123456789abcdef", "not evidence", "fedcba9876543210"],
    }),
    "entries/kb-abcde-pin-actions.md",
    "0123abcd",
  );
  const log = readLog([
    logged("c1", "2026-01-01T00:00:00Z", message),
    logged("c0", "2025-12-31T00:00:00Z", "kb: add kb-abcde: Pin\n\nGit-Kb-Proposal: bogus\n"),
    logged("c9", "2026-01-03T00:00:00Z", "Merge branch\n"),
  ]);
  assertEquals(log.proposals.length, 1);
  const [record] = log.proposals;
  assertEquals(
    { ...record, key: "" },
    {
      commit: "c1",
      date: "2026-01-01T00:00:00Z",
      kind: "new",
      entryId: "kb-abcde",
      path: "entries/kb-abcde-pin-actions.md",
      key: "",
      reason: "two lines",
      source: "s\u2028x".replace(/\s+/g, " "),
      title: "Pin actions",
      base: "0123abcd",
      evidence: ["0123456789abcdef", "fedcba9876543210"],
    },
  );
  const forged = readLog([
    logged("c3", "2026-01-01T00:00:00Z", `${message}Git-Kb-Evidence: ../x 0123456789ABCDEF\n`),
  ]);
  assertEquals(forged.proposals[0].evidence, [], "only digests of 16 hex digits");
  const rejection = resolutionMessage(record, {
    verdict: "rejected",
    proposal: "c1",
    key: record.key,
    why: "not\nours",
  });
  const both = readLog([
    logged("c1", record.date, message),
    logged("c2", "2026-01-02T00:00:00Z", rejection),
  ]);
  assertEquals(rejectionOf(both, record.key)?.why, "not ours");
  assertEquals(
    rejectedProposals(both).map(({ proposal, rejection }) => [proposal.commit, rejection.commit]),
    [["c1", "c2"]],
  );
  assertEquals(rejectedProposals(log), []);
  assertEquals(reviewedBothWays(both, ["c1"]), []);
  // Accepted on a clone that had not seen the rejection: both, and listed so.
  const acceptance = resolutionMessage(record, {
    verdict: "accepted",
    proposal: "c1",
    key: record.key,
  });
  const twice = readLog([
    logged("c1", record.date, message),
    logged("c2", "2026-01-02T00:00:00Z", rejection),
    logged("c4", "2026-01-03T00:00:00Z", acceptance),
  ]);
  assertEquals(
    reviewedBothWays(twice, ["c1", "c1", "c9"]).map(({ accepted, rejected }) => [
      accepted.commit,
      rejected.commit,
    ]),
    [["c4", "c2"]],
  );
  assertEquals(rejectedProposals(twice)[0].accepted?.commit, "c4");
  assertEquals(pendingProposals(both, new Set()), []);
  assertEquals(pendingProposals(log, new Set(["c1"])), [], "landed: not pending");
  assertEquals(pendingProposals(log, new Set()).map((item) => item.commit), ["c1"]);
});

Deno.test("a key proposed twice is pending once, the newest", () => {
  const first = proposalMessage(proposal(), "entries/a.md");
  const log = readLog([
    logged("c1", "2026-01-01T00:00:00Z", first),
    logged("c2", "2026-01-02T00:00:00Z", first),
  ]);
  assertEquals(pendingProposals(log, new Set()).map((item) => item.commit), ["c2"]);
  // Authored in two time zones: 10:00 at +05:00 is 05:00 UTC, an hour before 06:00 UTC.
  const zones = readLog([
    logged("east", "2026-01-02T10:00:00+05:00", first),
    logged("west", "2026-01-02T06:00:00+00:00", first),
  ]);
  assertEquals(pendingProposals(zones, new Set()).map((item) => item.commit), ["west"]);
  assertEquals(twinProposals(log, new Set()).map((item) => item.commit), ["c1"]);
  // Once the newest is reviewed the older one is pending no more, and still a twin to record.
  const accepted = resolutionMessage(log.proposals[0], {
    verdict: "accepted",
    proposal: "c2",
    key: log.proposals[0].key,
  });
  const reviewed = readLog([
    ...["c1", "c2"].map((commit, at) => logged(commit, `2026-01-0${at + 1}T00:00:00Z`, first)),
    logged("c3", "2026-01-03T00:00:00Z", accepted),
  ]);
  assertEquals(pendingProposals(reviewed, new Set()), []);
  assertEquals(twinProposals(reviewed, new Set()).map((item) => item.commit), ["c1"]);
  assertEquals(twinProposals(reviewed, new Set(["c1"])), [], "landed: no twin to record");
});

Deno.test("findProposal: by commit prefix or by entry id; none or several named", () => {
  const log = readLog([
    logged("aaaa1111", "2026-01-01T00:00:00Z", proposalMessage(proposal(), "entries/a.md")),
    logged(
      "aaaa2222",
      "2026-01-02T00:00:00Z",
      proposalMessage(proposal({ kind: "alias", key: "k" }), "entries/a.md"),
    ),
  ]);
  const records = pendingProposals(log, new Set());
  assertEquals((findProposal(records, "aaaa1") as { commit: string }).commit, "aaaa1111");
  assert(/names 2 pending proposals/.test(findProposal(records, "aaaa") as string));
  assert(/names 2 pending proposals/.test(findProposal(records, "kb-abcde") as string));
  assertEquals(findProposal(records, "kb-zzzzz"), "no pending proposal kb-zzzzz");
});

Deno.test("acceptedEntry: one field of an alias, narrow or archive on the entry as it is now", () => {
  const now = {
    ...ENTRY,
    body: "edited since\n",
    aliases: ["gha"],
    appliesTo: ["coding" as const],
  };
  const proposed = {
    ...ENTRY,
    aliases: ["gha", "workflow"],
    appliesTo: [],
    status: "archived" as const,
  };
  assertEquals(acceptedEntry("alias", now, proposed), { ...now, aliases: ["gha", "workflow"] });
  assertEquals(acceptedEntry("narrow", now, proposed), { ...now, appliesTo: [] });
  assertEquals(acceptedEntry("archive", now, proposed), { ...now, status: "archived" });
  assertEquals(acceptedEntry("edit", now, proposed), proposed);
  assertEquals(acceptedEntry("new", undefined, proposed), proposed);
});

Deno.test("a proposal commit whose trailers name no entry file or id is no record", () => {
  const good = proposalMessage(proposal(), "entries/kb-abcde-pin.md");
  for (
    const bad of [
      good.replace("Git-Kb-Path: entries/kb-abcde-pin.md", "Git-Kb-Path: entries/../../x.md"),
      good.replace("Git-Kb-Path: entries/kb-abcde-pin.md", "Git-Kb-Path: /etc/x.md"),
      good.replace("Git-Kb-Path: entries/kb-abcde-pin.md", "Git-Kb-Path: entries/a\tb.md"),
      good.replace("Git-Kb-Entry: kb-abcde", "Git-Kb-Entry: ../kb"),
    ]
  ) {
    assertEquals(readLog([logged("c1", "2026-01-01T00:00:00Z", bad)]).proposals.length, 0, bad);
  }
  assertEquals(readLog([logged("c1", "2026-01-01T00:00:00Z", good)]).proposals.length, 1);
});

Deno.test("words above the trailers that read like one never make a review a proposal", () => {
  const [record] = readLog([
    logged(
      "c1",
      "2026-01-01T00:00:00Z",
      proposalMessage(proposal(), "entries/kb-abcde-pin-actions.md"),
    ),
  ]).proposals;
  const why = "Git-Kb-Proposal: new";
  const rejection = logged(
    "c2",
    "2026-01-02T00:00:00Z",
    resolutionMessage(record, { verdict: "rejected", proposal: "c1", key: record.key, why }),
  );
  const log = readLog([
    rejection,
    logged("c1", "2026-01-01T00:00:00Z", proposalMessage(proposal(), record.path)),
  ]);
  assertEquals(log.proposals.map((item) => item.commit), ["c1"]);
  assertEquals(log.resolutions.map((item) => [item.commit, item.why]), [["c2", why]]);
  assertEquals(pendingProposals(log, new Set()), []);
});

Deno.test("a teammate's message with a long run of blanks before its end is read in linear time", () => {
  // A run of n blanks then a character cost the trailing-blank match n²/2 steps: 160,000 blanks
  // took 9 s, and anyone who can push the proposals branch writes its messages.
  const good = proposalMessage(proposal(), "entries/kb-abcde-pin.md");
  const started = performance.now();
  const records = readLog([
    logged("c1", "2026-01-01T00:00:00Z", `${good}\n${" ".repeat(400_000)}x`),
    logged("c2", "2026-01-01T00:00:00Z", `${good}${"\t \n".repeat(400_000)}`),
  ]);
  const took = performance.now() - started;
  assert(took < 2_000, `${took} ms`);
  assertEquals(records.proposals.map(({ commit }) => commit), ["c2"]);
});
