/**
 * Proposals: changes to a knowledge base offered for review (by the end-of-session capture, by
 * the receipts of the prompt hook) and kept out of every prompt until a person accepts them.
 * This module holds what a proposal is, how one and its review are recorded in a commit message
 * on the proposals branch (git trailers, read forgivingly), and which proposals are still
 * pending. Pure: no I/O.
 *
 * @module
 */
import { contentHash } from "../hash.ts";
import { type Entry, parseEntryText } from "../entry/entry.ts";
import { isEntryId } from "../entry/identity.ts";

/** What a proposal would do to the knowledge base. */
export type ProposalKind = "new" | "edit" | "alias" | "narrow" | "archive";

/** Every {@link ProposalKind}, in the order a listing sorts them. */
export const PROPOSAL_KINDS: readonly ProposalKind[] = [
  "new",
  "edit",
  "alias",
  "narrow",
  "archive",
];

/** One change offered for review; nothing of it is indexed or injected until accepted. */
export interface Proposal {
  kind: ProposalKind;
  /** The entry id the proposal creates or changes. */
  entryId: string;
  /** The whole entry file as it would be after acceptance (the entry contract, written strictly). */
  markdown: string;
  /** One line for the reviewer: why this is proposed. */
  reason: string;
  /** Where it came from, e.g. "session 3f2a… transcript lines 120-188" or "receipts: shown 9 times, never fetched". */
  source: string;
  /**
   * What makes two proposals the same idea, so a rejected one is not offered again and a pending
   * one not twice; by default {@link proposalKey} works it out from the kind, entry and text.
   */
  key?: string;
  /**
   * The evidence it was made of (for an alias, a digest of each search, {@link EVIDENCE}), so
   * that once it is proposed the same evidence proposes nothing more.
   */
  evidence?: readonly string[];
}

/** What {@link Proposal} writing gave for one proposal. */
export interface ProposeOutcome {
  /** The proposal as given. */
  proposal: Proposal;
  /** Whether it is now a commit on the proposals branch. */
  written: boolean;
  /** Why it was not written: a credential, a rejection before, a pending duplicate, a bad entry. */
  refusal?: string;
  /** The commit that holds it, when written. */
  commit?: string;
}

/** The trailer keys of the commits on the proposals branch. */
export const TRAILERS = {
  kind: "Git-Kb-Proposal",
  entry: "Git-Kb-Entry",
  path: "Git-Kb-Path",
  key: "Git-Kb-Key",
  reason: "Git-Kb-Reason",
  source: "Git-Kb-Source",
  base: "Git-Kb-Base",
  evidence: "Git-Kb-Evidence",
  accepted: "Git-Kb-Accepted",
  rejected: "Git-Kb-Rejected",
  why: "Git-Kb-Why",
} as const;

/** One piece of a proposal's evidence: a digest of 16 hex digits ({@link contentHash}). */
export const EVIDENCE = /^[0-9a-f]{16}$/;

/** `text` on one line (every run of whitespace one space), trimmed, for a trailer's value. */
function oneLine(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

/** Text compared loosely: lowercase, whitespace runs made one space, trimmed. */
function loose(text: string): string {
  return oneLine(text).toLowerCase();
}

/**
 * The frontmatter line of `field` in an entry file (its first line only), or "" when there is
 * none or the file has no frontmatter.
 */
function fieldLine(markdown: string, field: string): string {
  const close = markdown.indexOf("\n---", 3);
  const frontmatter = close < 0 ? "" : markdown.slice(0, close);
  return frontmatter.split("\n").find((line) => line.startsWith(`${field}:`)) ?? "";
}

/**
 * The text of an entry file without what changes on every write of the same idea: the lines
 * `id:`, `created:` and `updated:`.
 */
function withoutStamps(markdown: string): string {
  return markdown.split("\n").filter((line) => !/^(id|created|updated):/.test(line)).join("\n");
}

/**
 * What makes two proposals the same idea, as a short digest. A new entry is its title (a model
 * rewording the body of a rejected idea must not bring it back); an edit is the entry and its
 * proposed text, dates aside; an alias, a narrowing or an archiving is the entry and the field it
 * changes. A proposal's own `key`, when given, is used instead.
 */
export function proposalKey(proposal: Proposal): string {
  const { kind, entryId, markdown } = proposal;
  let idea: string;
  if (proposal.key !== undefined) idea = `given:${proposal.key}`;
  else if (kind === "new") idea = `new:${loose(titleOf(markdown) ?? withoutStamps(markdown))}`;
  else if (kind === "edit") idea = `edit:${entryId}:${loose(withoutStamps(markdown))}`;
  else {
    const field = { alias: "aliases", narrow: "applies_to", archive: "status" }[kind];
    idea = `${kind}:${entryId}:${loose(fieldLine(markdown, field))}`;
  }
  return contentHash(idea);
}

/** The title of an entry file, when its frontmatter parses and has one. */
export function titleOf(markdown: string): string | undefined {
  try {
    const title = parseEntryText(markdown, "proposal").fields.title;
    return typeof title === "string" ? title : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The message of the commit that records `proposal`, its entry file at `path`; `base` is the
 * blob the entry file was on the checked-out branch when proposed (none for a new entry), so an
 * accept can tell whether the entry changed since.
 */
export function proposalMessage(proposal: Proposal, path: string, base?: string): string {
  const title = oneLine(titleOf(proposal.markdown) ?? path);
  return [
    `kb proposal: ${proposal.kind} ${proposal.entryId}: ${title}`.slice(0, 200),
    "",
    oneLine(proposal.reason) || "(no reason given)",
    "",
    `${TRAILERS.kind}: ${proposal.kind}`,
    `${TRAILERS.entry}: ${proposal.entryId}`,
    `${TRAILERS.path}: ${path}`,
    `${TRAILERS.key}: ${proposalKey(proposal)}`,
    `${TRAILERS.reason}: ${oneLine(proposal.reason)}`,
    `${TRAILERS.source}: ${oneLine(proposal.source)}`,
    ...base ? [`${TRAILERS.base}: ${base}`] : [],
    ...proposal.evidence?.length
      ? [
        `${TRAILERS.evidence}: ${
          proposal.evidence.filter((item) => EVIDENCE.test(item)).join(" ")
        }`,
      ]
      : [],
    "",
  ].join("\n");
}

/** How a review ended a proposal. */
export type Verdict = "accepted" | "rejected";

/** What a review of one proposal recorded. */
export interface Resolution {
  /** Accepted (saved to the knowledge base) or rejected. */
  verdict: Verdict;
  /** The proposal's commit. */
  proposal: string;
  /** The proposal's key ({@link proposalKey}). */
  key: string;
  /** The reviewer's words, when given. */
  why?: string;
}

/** The message of the commit that records `resolution` of the proposal `record`. */
export function resolutionMessage(record: ProposalRecord, resolution: Resolution): string {
  const why = oneLine(resolution.why ?? "");
  const trailer = resolution.verdict === "accepted" ? TRAILERS.accepted : TRAILERS.rejected;
  return [
    `kb review: ${resolution.verdict} ${record.kind} ${record.entryId}: ${oneLine(record.title)}`
      .slice(0, 200),
    "",
    ...why ? [why, ""] : [],
    `${trailer}: ${resolution.proposal}`,
    `${TRAILERS.entry}: ${record.entryId}`,
    `${TRAILERS.path}: ${record.path}`,
    `${TRAILERS.key}: ${resolution.key}`,
    ...why ? [`${TRAILERS.why}: ${why}`] : [],
    "",
  ].join("\n");
}

/** A proposal as its commit on the proposals branch records it. */
export interface ProposalRecord {
  /** The commit. */
  commit: string;
  /** When it was made, ISO 8601. */
  date: string;
  kind: ProposalKind;
  entryId: string;
  /** The entry file's path in the knowledge base. */
  path: string;
  key: string;
  reason: string;
  source: string;
  /** The subject's title part: the entry's title when the proposal was written. */
  title: string;
  /** The blob of the entry file the proposal changes, as it was when proposed. */
  base?: string;
  /** The evidence it was made of ({@link Proposal.evidence}); none for most kinds. */
  evidence: string[];
}

/** A review recorded on the proposals branch. */
export interface ResolutionRecord extends Resolution {
  /** The commit that recorded it. */
  commit: string;
  /** When, ISO 8601. */
  date: string;
}

/** One commit of the proposals branch as `git log` gives it. */
export interface LoggedCommit {
  commit: string;
  /** Author date, ISO 8601. */
  date: string;
  /** The whole message. */
  message: string;
}

/**
 * The trailers of a message: the last `Key: value` of each key in its last paragraph, where
 * git-kb writes them (a line of a reason or a reviewer's words above is never one: text that
 * reads `Git-Kb-Proposal: new` must not turn a review into a proposal).
 */
function trailersOf(message: string): Map<string, string> {
  const found = new Map<string, string>();
  const paragraphs = message.trimEnd().split(/\n[ \t]*\n/);
  for (const line of paragraphs.at(-1)!.split("\n")) {
    const match = /^(Git-Kb-[A-Za-z]+): (.*)$/.exec(line.trim());
    if (match) found.set(match[1], match[2].trim());
  }
  return found;
}

/**
 * Whether `path` (from a trailer, which anyone who can push the branch writes) names an entry
 * file inside `entries/`: relative, no `..`, no control character, ending `.md`.
 */
function isEntryFile(path: string | undefined): path is string {
  // deno-lint-ignore no-control-regex -- refusing control characters is the point
  return path !== undefined && /^entries\/[^\x00-\x1f\x7f]+\.md$/.test(path) &&
    !path.split("/").some((part) => part === ".." || part === "." || part === "");
}

/**
 * A proposal's record, read from its commit; undefined for any other commit, and for one whose
 * trailers name no entry id or no entry file.
 */
export function readProposal(logged: LoggedCommit): ProposalRecord | undefined {
  const trailers = trailersOf(logged.message);
  const kind = trailers.get(TRAILERS.kind) as ProposalKind | undefined;
  const entryId = trailers.get(TRAILERS.entry);
  const path = trailers.get(TRAILERS.path);
  const key = trailers.get(TRAILERS.key);
  if (
    !kind || !PROPOSAL_KINDS.includes(kind) || !isEntryId(entryId) || !isEntryFile(path) || !key
  ) {
    return undefined;
  }
  const subject = logged.message.split("\n")[0];
  const prefix = `kb proposal: ${kind} ${entryId}: `;
  return {
    commit: logged.commit,
    date: logged.date,
    kind,
    entryId,
    path,
    key,
    reason: trailers.get(TRAILERS.reason) ?? "",
    source: trailers.get(TRAILERS.source) ?? "",
    title: subject.startsWith(prefix) ? subject.slice(prefix.length) : subject,
    base: trailers.get(TRAILERS.base),
    evidence: (trailers.get(TRAILERS.evidence) ?? "").split(" ").filter((item) =>
      EVIDENCE.test(item)
    ),
  };
}

/** A review's record, read from its commit; undefined for any other commit. */
export function readResolution(logged: LoggedCommit): ResolutionRecord | undefined {
  const trailers = trailersOf(logged.message);
  const key = trailers.get(TRAILERS.key);
  const accepted = trailers.get(TRAILERS.accepted);
  const rejected = trailers.get(TRAILERS.rejected);
  const proposal = accepted ?? rejected;
  if (!key || !proposal) return undefined;
  return {
    verdict: accepted ? "accepted" : "rejected",
    proposal,
    key,
    why: trailers.get(TRAILERS.why),
    commit: logged.commit,
    date: logged.date,
  };
}

/** The review history of the proposals branch: every proposal and every review, read once. */
export interface ProposalLog {
  /** Proposals, newest first. */
  proposals: ProposalRecord[];
  /** Reviews, newest first. */
  resolutions: ResolutionRecord[];
}

/** Read the commits of the proposals branch (any order) into a {@link ProposalLog}. */
export function readLog(commits: readonly LoggedCommit[]): ProposalLog {
  const proposals: ProposalRecord[] = [];
  const resolutions: ResolutionRecord[] = [];
  for (const logged of commits) {
    const proposal = readProposal(logged);
    if (proposal) proposals.push(proposal);
    const resolution = proposal ? undefined : readResolution(logged);
    if (resolution) resolutions.push(resolution);
  }
  // By the instant, not the text: authors' dates carry their own time zones.
  const newestFirst = (a: { date: string }, b: { date: string }) =>
    (Date.parse(b.date) || 0) - (Date.parse(a.date) || 0);
  return { proposals: proposals.sort(newestFirst), resolutions: resolutions.sort(newestFirst) };
}

/** The rejection of `key`, when a review rejected a proposal with that key. */
export function rejectionOf(log: ProposalLog, key: string): ResolutionRecord | undefined {
  return log.resolutions.find((record) => record.verdict === "rejected" && record.key === key);
}

/** A proposal set aside for good: rejected, so that nothing of its key is offered again. */
export interface RejectedProposal {
  /** The proposal rejected (its latest rejection's), as its commit recorded it. */
  proposal: ProposalRecord;
  /** The review that rejected it: when, and the reviewer's words. */
  rejection: ResolutionRecord;
  /**
   * The review that accepted it all the same, when there is one: made on another clone before
   * the two reviews met (see {@link reviewedBothWays}), so its change is in the knowledge base.
   */
  accepted?: ResolutionRecord;
}

/** A proposal accepted on one clone and rejected on another, each before it saw the other. */
export interface ReviewedBothWays {
  /** The proposal's commit. */
  proposal: string;
  /** The newest review that accepted it. */
  accepted: ResolutionRecord;
  /** The newest review that rejected it. */
  rejected: ResolutionRecord;
}

/**
 * Which of the proposals `commits` were reviewed both ways: two reviewers who had not seen each
 * other's review (two machines at once, or one offline) accepted and rejected the same proposal,
 * and the branch, once joined, holds both. Its change is in the knowledge base (the accept saved
 * it) while its key is never offered again (the rejection).
 */
export function reviewedBothWays(
  log: ProposalLog,
  commits: Iterable<string>,
): ReviewedBothWays[] {
  return [...new Set(commits)].flatMap((proposal) => {
    const reviews = log.resolutions.filter((record) => record.proposal === proposal);
    const accepted = reviews.find(({ verdict }) => verdict === "accepted");
    const rejected = reviews.find(({ verdict }) => verdict === "rejected");
    return accepted && rejected ? [{ proposal, accepted, rejected }] : [];
  });
}

/**
 * The proposals rejected, one for each key rejected (its newest rejection), newest first; a
 * rejection whose proposal commit the branch no longer holds is left out.
 */
export function rejectedProposals(log: ProposalLog): RejectedProposal[] {
  const byCommit = new Map(log.proposals.map((record) => [record.commit, record]));
  const seen = new Set<string>();
  return log.resolutions.flatMap((rejection) => {
    if (rejection.verdict !== "rejected" || seen.has(rejection.key)) return [];
    seen.add(rejection.key);
    const proposal = byCommit.get(rejection.proposal);
    if (!proposal) return [];
    const [both] = reviewedBothWays(log, [proposal.commit]);
    return [{ proposal, rejection, ...both ? { accepted: both.accepted } : {} }];
  });
}

/**
 * The proposals still waiting for a review: not reviewed, not rejected under their key, and not
 * landed (`landed` holds the commits of proposals already in the knowledge base's branch: merged
 * on the host, or their text there as proposed). A key proposed twice is pending once, the newest.
 */
export function pendingProposals(
  log: ProposalLog,
  landed: ReadonlySet<string>,
): ProposalRecord[] {
  const reviewed = new Set(log.resolutions.map((record) => record.proposal));
  const rejected = new Set(
    log.resolutions.filter(({ verdict }) => verdict === "rejected").map(({ key }) => key),
  );
  const seen = new Set<string>();
  return log.proposals.filter((record) => {
    if (seen.has(record.key)) return false;
    seen.add(record.key);
    return !reviewed.has(record.commit) && !landed.has(record.commit) && !rejected.has(record.key);
  });
}

/**
 * The proposals a newer one of the same key stands for (the same idea captured twice, on two
 * machines): not reviewed and not landed, and never pending themselves (see
 * {@link pendingProposals}). Their files are still on the branch, so the review of that newer
 * one must record them too, or a merge of the branch would bring them in.
 */
export function twinProposals(
  log: ProposalLog,
  landed: ReadonlySet<string>,
): ProposalRecord[] {
  const reviewed = new Set(log.resolutions.map((record) => record.proposal));
  const seen = new Set<string>();
  return log.proposals.filter((record) => {
    const twin = seen.has(record.key);
    seen.add(record.key);
    return twin && !reviewed.has(record.commit) && !landed.has(record.commit);
  });
}

/**
 * Which of `proposals` names `wanted`: a commit (a unique prefix of at least 4 hex digits) or an
 * entry id (when one pending proposal alone is for it). An error message when none or several.
 */
export function findProposal(
  proposals: readonly ProposalRecord[],
  wanted: string,
): ProposalRecord | string {
  const byCommit = /^[0-9a-f]{4,40}$/.test(wanted)
    ? proposals.filter((record) => record.commit.startsWith(wanted))
    : [];
  const matches = byCommit.length
    ? byCommit
    : proposals.filter((record) => record.entryId === wanted);
  if (matches.length === 1) return matches[0];
  if (!matches.length) return `no pending proposal ${wanted}`;
  return `${wanted} names ${matches.length} pending proposals (${
    matches.map((record) => record.commit.slice(0, 12)).join(", ")
  }); name one by its commit`;
}

/**
 * The entry an accepted proposal saves, from the entry as it is now (`current`, undefined for a
 * new one) and as proposed: a new entry or an edit as proposed, whole; an alias, a narrowing or
 * an archiving as that one field of the proposal applied to the entry as it is now, so a change
 * made to the entry since the proposal is kept.
 */
export function acceptedEntry(
  kind: ProposalKind,
  current: Entry | undefined,
  proposed: Entry,
): Entry {
  if (!current || kind === "new" || kind === "edit") return proposed;
  if (kind === "alias") {
    const aliases = [...current.aliases];
    for (const alias of proposed.aliases) if (!aliases.includes(alias)) aliases.push(alias);
    return { ...current, aliases };
  }
  if (kind === "narrow") return { ...current, appliesTo: proposed.appliesTo };
  return { ...current, status: proposed.status };
}
