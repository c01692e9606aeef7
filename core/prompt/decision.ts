/**
 * The prompt hook's decision, pure: skip or not, which kernel rules and which pointers surface
 * and why, and the text that carries them, always under the budget.
 *
 * @module
 */
import { displaySafe, kernelBlock } from "../text/display.ts";
import type { DocInfo, KernelRule } from "../index/format.ts";
import type { IndexReader } from "../index/reader.ts";
import {
  type Evidence,
  FIRING_RULE,
  type FiringRule,
  type HeldBack,
  type KeywordHit,
  keywordMatches,
  type KindOfWork,
  LISTED_SHARE,
  MAX_PROMPT_TERMS,
  type PromptTerm,
  promptTerms,
  type QuietReason,
} from "./keywords.ts";
import { type ContextReference, contextReference, isQuestion } from "./context.ts";
import type { Activity } from "../entry/schema.ts";
import { kernelRuleCost, LIMITS } from "../entry/schema.ts";
import { splitWords, termOf } from "../text/tokenize.ts";
import { sentencesOf } from "./sentences.ts";

/**
 * Words that carry no topic: acknowledgements, go-aheads, routine chores ("commit and push",
 * "run the tests again", "fix the lint errors") and small talk ("thank you so much, that was really
 * helpful!"). A prompt made only of these is mechanical.
 *
 * Written as an array literal, not a string split when the module loads: a hook builds this on
 * every start, and from literals (hashed as the module is parsed) it takes a quarter of the time.
 */
// deno-fmt-ignore
export const MECHANICAL_WORDS: readonly string[] = [
  "yes", "yeah", "yep", "yup", "no", "nope", "ok", "okay", "k", "sure", "fine", "alright", "right",
  "correct", "good", "great", "cool", "nice", "perfect", "awesome", "thanks", "thank", "thx", "ty",
  "you", "please", "pls", "go", "ahead", "on", "continue", "proceed", "next", "again", "retry",
  "stop", "wait", "lgtm", "done", "do", "it", "that", "this", "these", "those", "them", "all",
  "everything", "now", "keep", "going", "carry", "try", "undo", "revert", "commit", "push", "pull",
  "stash", "merge", "rebase", "git", "and", "the", "changes", "change", "run", "rerun", "re",
  "tests", "test", "specs", "spec", "build", "linter", "lint", "checks", "check", "once", "more",
  "fix", "format", "formatting", "code", "fmt", "deno", "errors", "error", "warnings", "warning",
  "issues", "issue", "types", "type", "typos", "typo", "looks", "sounds", "works", "squash",
  "show", "me", "diff", "commits", "suite", "whole", "entire", "ship", "sgtm", "wfm", "lot", "left",
  // Small talk: thanks, greetings and musing carry no topic either.
  "much", "really", "helpful", "job", "hello", "hi", "hey", "bye", "morning", "today", "think",
  "let", "never", "mind",
];

const MECHANICAL = new Set(MECHANICAL_WORDS);

/** The index terms of {@link MECHANICAL_WORDS}, so that "worked" is as mechanical as "works". */
let mechanicalTerms: ReadonlySet<string> | undefined;

/**
 * Whether `word` carries no topic: a {@link MECHANICAL_WORDS} word or one of its inflections, a
 * stopword (English's closed classes, which the index never holds), or "hmm".
 */
function isMechanicalWord(word: string): boolean {
  if (MECHANICAL.has(word) || isHmm(word)) return true;
  const term = termOf(word);
  mechanicalTerms ??= new Set(MECHANICAL_WORDS.map(termOf));
  return term === "" || mechanicalTerms.has(term);
}

/** True for "hm", "hmm", "hhmmm" and the like: some h, then some m. */
function isHmm(word: string): boolean {
  let index = 0;
  while (word[index] === "h") index++;
  if (index === 0 || index === word.length) return false;
  while (word[index] === "m") index++;
  return index === word.length;
}

/**
 * True when no word of `text` carries a topic: each is a {@link MECHANICAL_WORDS} word or an
 * inflection of one, a stopword, or "hmm" ("thanks, that worked!", "please run the whole test
 * suite again"); and when it has no word at all ("👍👍👍", "?????").
 */
export function isMechanical(text: string): boolean {
  return splitWords(text).every(isMechanicalWord);
}

/**
 * Extra prompts that never fire, beyond those made only of {@link MECHANICAL_WORDS}: tunable,
 * add a pattern to skip more. Matched on the trimmed prompt.
 */
export const SKIP_PATTERNS: readonly RegExp[] = [
  /^(?:lgtm|ship it|sgtm|wfm|ack)\b[\s\W]*$/i,
];

/** Words that say which kind of work a prompt is about, before stemming. */
export const ACTIVITY_LEXICON: Readonly<Record<Activity, readonly string[]>> = {
  writing: [
    "write",
    "draft",
    "rewrite",
    "rephrase",
    "wording",
    "prose",
    "docs",
    "documentation",
    "readme",
    "blog",
    "article",
    "announcement",
    "changelog",
    "copy",
    "email",
    "essay",
    "paragraph",
    "sentence",
    "proofread",
    "tone",
  ],
  reviewing: [
    "review",
    "reviewing",
    "pr",
    "feedback",
    "critique",
    "audit",
    "approve",
    "lgtm",
    "diff",
    "nitpick",
    "inspect",
  ],
  planning: [
    "plan",
    "planning",
    "roadmap",
    "milestone",
    "estimate",
    "prioritize",
    "prioritise",
    "scope",
    "proposal",
    "strategy",
    "schedule",
    "timeline",
    "breakdown",
    "rfc",
    "sprint",
    "release",
  ],
  coding: [
    "implement",
    "refactor",
    "debug",
    "bug",
    "function",
    "compile",
    "endpoint",
    "stack",
    "exception",
    "typescript",
    "script",
    "code",
    "coding",
    "test",
    "tests",
  ],
};

/** The tunables of the decision. */
export interface SurfaceConfig {
  /**
   * The evidence an entry must reach for the prompt to fire, in words: each distinct prompt word
   * the entry holds counts its specificity in this knowledge base (1 for a word in at most √N of
   * the N entries, less on a log scale down to 0 for a word in all of them; `specificity` in
   * keywords.ts) in its title, tags or aliases, `BODY_WORD_WEIGHT` (keywords.ts) of that in its
   * body only. Above 1, no single word fires.
   */
  threshold: number;
  /** When a prompt that reaches the threshold fires, and what it lists beside its best entry. */
  firing: FiringRule;
  /** Most pointers in one prompt. */
  maxEntries: number;
  /** Prompts shorter than this (characters, trimmed) never fire. */
  minChars: number;
  /** The whole additionalContext stays within this. */
  budgetChars: number;
  /** Kernel bodies together may take at most this. */
  kernelBudgetChars: number;
  /** Prompts matching one of these are skipped (confirmations, slash commands…). */
  skipPatterns: readonly RegExp[];
  /** Name the near misses (loads their records); the hook does only when debugging. */
  explain: boolean;
  /**
   * The prompt continues a conversation whose context the model holds (the prompt hook's): one
   * that refers to that context (`contextReference`) needs more evidence to fire. False for a
   * context that starts empty (a subagent's), whose prompt's files and code are the task it
   * describes.
   */
  inConversation: boolean;
}

/**
 * The defaults: THRESHOLD 1.25 (more than one word gives, so two words at least), the
 * {@link FIRING_RULE}, MAX_CONTEXT_ENTRIES 3, a 9,000-character budget.
 */
export const DEFAULT_SURFACE_CONFIG: SurfaceConfig = {
  threshold: 1.25,
  firing: FIRING_RULE,
  maxEntries: 3,
  minChars: 12,
  budgetChars: LIMITS.hookBudgetChars,
  kernelBudgetChars: LIMITS.kernelBudgetChars,
  skipPatterns: SKIP_PATTERNS,
  explain: true,
  inConversation: true,
};

/** Why a prompt was skipped, or undefined when it goes on to matching. */
export function skipReason(
  prompt: string,
  config: SurfaceConfig = DEFAULT_SURFACE_CONFIG,
): string | undefined {
  const text = prompt.trim();
  if (!text) return "empty";
  if (text.startsWith("/")) return "slash_command";
  if (text.length < config.minChars) return "short";
  // The prompt as given, not trimmed: the same words, split once for the checks that follow.
  if (isMechanical(prompt) || config.skipPatterns.some((pattern) => pattern.test(text))) {
    return "mechanical";
  }
  return undefined;
}

/** The kinds of work a prompt is about, by the activity lexicon. */
export function classifyActivities(prompt: string): Activity[] {
  const words = new Set(splitWords(prompt));
  return (Object.keys(ACTIVITY_LEXICON) as Activity[]).filter((activity) =>
    ACTIVITY_LEXICON[activity].some((word) => words.has(word))
  );
}

/** An entry that surfaces, and the signal that surfaced it. */
export interface Pointer {
  /** The entry's id. */
  id: string;
  /** The entry's title. */
  title: string;
  /** The entry's type. */
  type: string;
  /** Content hash of the entry file, for the session ledger. */
  hash: string;
  /** Which path surfaced it: a keyword match, or the kernel (a rule too long to inline). */
  signal: "keyword" | "kernel";
  /** Matched prompt words. */
  why: string[];
}

/** An entry with keyword hits below the threshold. */
export interface NearMiss {
  /** The entry's id. */
  id: string;
  /** The prompt words that hit it. */
  hits: string[];
  /** What each of them counted, and where it matched. */
  evidence: Evidence[];
}

/** The pointer to an entry (or kernel rule) of the index: the one place a pointer is built. */
export function pointerOf(
  doc: Pick<DocInfo, "id" | "title" | "type" | "hash">,
  signal: Pointer["signal"],
  why: string[],
): Pointer {
  return { id: doc.id, title: doc.title, type: doc.type, hash: doc.hash, signal, why };
}

/** The pointer for a keyword hit, loading the entry's record. */
function keywordPointer(reader: IndexReader, hit: KeywordHit): Pointer | undefined {
  const doc = reader.doc(hit.ord);
  return doc && pointerOf(doc, "keyword", hit.words);
}

/**
 * The kinds of work of `activities` as the matching reads them: the words of each, and the
 * entries whose `applies_to` names it (the index's list). No entry record is read: a knowledge
 * base can hold thousands of entries for one kind of work.
 */
function kindsOfWork(reader: IndexReader, activities: readonly Activity[]): KindOfWork[] {
  return activities.map((activity) => ({
    words: ACTIVITY_LEXICON[activity],
    ords: reader.activityOrds(activity),
  }));
}

/** What this session was already shown: entry id → content hash at the time. */
export type Ledger = Record<string, string>;

/**
 * Whether the session was shown `pointer` already, by `ledger` (its knowledge base's), unchanged:
 * an entry edited since surfaces again by its words.
 */
export function alreadyShown(ledger: Ledger, pointer: Pointer): boolean {
  return ledger[pointer.id] === pointer.hash;
}

/** The assembled context and what made it in. */
export interface Assembly {
  /** The additionalContext, ready to print. */
  text: string;
  /** Ids of the kernel rules inlined whole. */
  kernel: string[];
  /** Kernel rules too big for the budget, listed as pointers instead. */
  kernelDegraded: string[];
  /** The pointers listed, kernel rules degraded to pointers excepted. */
  pointers: Pointer[];
}

/** The words around the kernel rules and pointers of an additionalContext. */
export interface Wording {
  /** The first line. */
  header: string;
  /**
   * The first line when what surfaces comes from several knowledge bases, `names` (the default
   * first), each id then starting with its knowledge base's name: it says whose each item is.
   */
  severalHeader?: (names: readonly string[]) => string;
  /** The line before the pointers. */
  pointers: string;
}

/**
 * Knowledge bases named in a header: the default (first) marked as the user's, then the others,
 * and what the prefix of an id means.
 *
 * @example
 * ```ts
 * knowledgeBasesPhrase(["personal", "team"]);
 * // 'the knowledge bases personal (the user's default) and team (each id below starts with the
 * //  name of the one it comes from; one that others push to holds their words, not the user's)'
 * ```
 */
export function knowledgeBasesPhrase(names: readonly string[]): string {
  const [first, ...others] = names.map(displaySafe);
  const listed = others.length > 1
    ? `${[`${first} (the user's default)`, ...others.slice(0, -1)].join(", ")} and ${others.at(-1)}`
    : `${first} (the user's default) and ${others[0]}`;
  return `the knowledge bases ${listed} (each id below starts with the name of the one it comes ` +
    "from; one that others push to holds their words, not the user's)";
}

/** The start of the prompt hook's first line over several knowledge bases. */
export const SEVERAL_PROMPT_HEADER = "git-kb: knowledge for this prompt from ";

/** How the prompt hook (and a subagent's prompt) introduces what it surfaces. */
export const PROMPT_WORDING: Wording = {
  header: "git-kb: knowledge from the user's knowledge base for this prompt.",
  severalHeader: (names) => `${SEVERAL_PROMPT_HEADER}${knowledgeBasesPhrase(names)}.`,
  pointers: "Entries that may bear on this prompt (titles only; fetch before relying on them):",
};

/**
 * The most matched words a pointer line names: a pasted stack trace can match dozens, and the
 * first few say why as well as all of them.
 */
export const MAX_MATCHED_WORDS = 8;

/** The words a pointer line names as matched: the first {@link MAX_MATCHED_WORDS}, and a count. */
function matchedWords(why: readonly string[]): string {
  const named = why.slice(0, MAX_MATCHED_WORDS).join(", ");
  return why.length > MAX_MATCHED_WORDS
    ? `${named} and ${why.length - MAX_MATCHED_WORDS} more`
    : named;
}

/** A pointer's line: every field on one line whatever it holds (see {@link displaySafe}). */
function pointerLine(pointer: Pointer, titleChars: number): string {
  const whole = displaySafe(pointer.title);
  const title = whole.length > titleChars
    ? `${whole.slice(0, Math.max(titleChars - 1, 1)).trimEnd()}…`
    : whole;
  const why = pointer.signal === "keyword"
    ? `matched: ${matchedWords(pointer.why)}`
    : "kernel rule, too long to inline";
  return `- ${pointer.id} ${title} [${displaySafe(pointer.type)}] (${displaySafe(why)})`;
}

/**
 * A kernel rule as injected: its id and title on one heading line, then its body verbatim inside
 * a code fence longer than any backtick run of the body, so that no line of a body can pass for
 * git-kb's own (a heading, a pointer, a fetch line) or end the block early.
 */
function render(
  kernel: KernelRule[],
  pointers: Pointer[],
  titleChars: number,
  fetch: (ids: string[]) => string,
  wording: Wording,
) {
  const parts = [wording.header];
  if (kernel.length) {
    parts.push("\nRules that always apply:");
    for (const rule of kernel) parts.push(`\n${kernelBlock(rule)}`);
  }
  if (pointers.length) {
    parts.push(`\n${wording.pointers}`);
    parts.push(...pointers.map((pointer) => pointerLine(pointer, titleChars)));
    parts.push(`Fetch full text: ${fetch(pointers.map((pointer) => pointer.id))}`);
  }
  return parts.join("\n");
}

/**
 * Assemble kernel bodies and pointers under `budgetChars`: kernel first; a kernel rule that does
 * not fit the kernel budget becomes a pointer; pointers degrade (fewer, then shorter titles)
 * before anything is cut. Never returns more than `budgetChars` characters. `wording` names what
 * the text is for (a prompt by default).
 */
export function assemble(
  kernel: KernelRule[],
  pointers: Pointer[],
  fetch: (ids: string[]) => string,
  config: Pick<SurfaceConfig, "budgetChars" | "kernelBudgetChars"> = DEFAULT_SURFACE_CONFIG,
  wording: Wording = PROMPT_WORDING,
): Assembly {
  const inline: KernelRule[] = [];
  const degraded: Pointer[] = [];
  let kernelChars = 0;
  for (const rule of kernel) {
    const size = kernelRuleCost(rule);
    if (kernelChars + size <= config.kernelBudgetChars) {
      inline.push(rule);
      kernelChars += size;
    } else {
      degraded.push(pointerOf(rule, "kernel", []));
    }
  }
  let listed = [...degraded, ...pointers];
  let titleChars = 200;
  let text = render(inline, listed, titleChars, fetch, wording);
  while (text.length > config.budgetChars && listed.length > 1) {
    listed = listed.slice(0, -1);
    text = render(inline, listed, titleChars, fetch, wording);
  }
  while (text.length > config.budgetChars && titleChars > 20) {
    titleChars = Math.floor(titleChars / 2);
    text = render(inline, listed, titleChars, fetch, wording);
  }
  if (text.length > config.budgetChars) {
    listed = [];
    text = render(inline, listed, titleChars, fetch, wording);
  }
  if (text.length > config.budgetChars) text = `${text.slice(0, config.budgetChars - 1)}…`;
  return {
    text,
    kernel: inline.map((rule) => rule.id),
    kernelDegraded: listed.filter((pointer) => pointer.signal === "kernel").map((pointer) =>
      pointer.id
    ),
    pointers: listed.filter((pointer) => pointer.signal !== "kernel"),
  };
}

/** The whole decision for one prompt. */
export interface Decision {
  /** `skipped`, `no_signal`, `all_deduped`, or `surfaced`. */
  outcome: "skipped" | "no_signal" | "all_deduped" | "surfaced";
  /** Why the prompt was skipped, when it was. */
  skipReason?: string;
  /** The activities the prompt names. */
  activities: Activity[];
  /** Prompt word → how many entries hold it. */
  termHits: Record<string, number>;
  /** The prompt's words that went to matching (stopwords out), once each, in prompt order. */
  words: string[];
  /** Entries whose keyword hits stayed below the threshold (named only when explaining). */
  nearMisses: NearMiss[];
  /**
   * When the best entry reached the threshold and the prompt did not fire (named only when
   * explaining): the entry search ranks first, and why the firing rule held the prompt back.
   */
  heldBack?: { id: string; reason: QuietReason };
  /** Pointers dropped because this session already saw them unchanged. */
  deduped: string[];
  /**
   * What the prompt refers to in front of the model, when it does: an instruction then needs
   * {@link CONTEXT_EVIDENCE} more to fire.
   */
  reference?: ContextReference;
  /** The assembled context; undefined unless something surfaced. */
  assembly?: Assembly;
}

/** The decision for a prompt skipped for `reason`. */
export function skippedDecision(reason: string): Decision {
  return {
    outcome: "skipped",
    skipReason: reason,
    activities: [],
    termHits: {},
    words: [],
    nearMisses: [],
    deduped: [],
  };
}

/**
 * What a prompt that refers to what is in front of the model (and does not ask a question) must
 * show beyond the threshold: one more word as specific as a rare one. Its other words are as
 * often about that as about an entry; a prompt whose words are specific to the knowledge base
 * still fires.
 */
export const CONTEXT_EVIDENCE = 1;

/**
 * The evidence `prompt` needs to fire: the threshold, and {@link CONTEXT_EVIDENCE} more when it
 * refers to what is in front of the model (in a conversation) and none of its `sentences` asks a
 * question ({@link isQuestion}); they are split only then.
 */
function evidenceNeeded(
  prompt: string,
  sentences: () => readonly string[],
  reader: IndexReader,
  config: SurfaceConfig,
): { reference?: ContextReference; needed: number } {
  const reference = config.inConversation
    ? contextReference(prompt, (term) => reader.postingCount(term) > 0)
    : undefined;
  const needed = reference && !sentences().some((sentence) => isQuestion(sentence))
    ? config.threshold + CONTEXT_EVIDENCE
    : config.threshold;
  return { reference, needed };
}

/**
 * What a sentence of a long prompt, read as a prompt of its own, must show beyond what that
 * prompt would need: one more word as specific as a rare one, since each of the prompt's
 * sentences gets a try.
 */
export const SENTENCE_EVIDENCE = 1;

/**
 * The hits of the first of a prompt's `sentences` that, read as a prompt of its own with
 * {@link SENTENCE_EVIDENCE} more, fires for the entry `about` holds back: the one the whole
 * prompt (its terms `looked`) ranks first and was held back from only because it holds too small
 * a share of all the prompt says. None when no sentence does, or the prompt is one sentence. A
 * word counts 1 at most, so a sentence with fewer words than it needs, or with fewer that the
 * entry could hold than an entry listed first needs ({@link fewestWordsFirst}), is passed over
 * unread. The sentences' terms together are looked up at most
 * {@link MAX_PROMPT_TERMS} times, so a prompt of any length costs a bounded time.
 */
function sentenceHits(
  sentences: readonly string[],
  reader: IndexReader,
  about: HeldBack,
  looked: readonly PromptTerm[],
  config: SurfaceConfig,
  kinds: readonly KindOfWork[],
): KeywordHit[] {
  if (sentences.length < 2) return [];
  const mayHold = wordsItMayHold(about, looked, kinds);
  let lookups = MAX_PROMPT_TERMS;
  for (const sentence of sentences) {
    // Not skipReason: a line of a pasted log may start with a path, not a slash command.
    if (isMechanical(sentence)) continue;
    const terms = promptTerms(sentence);
    const words = new Set(terms.map((term) => term.token)).size;
    let held: number | undefined;
    const enough = (needed: number) =>
      words >= needed && (held ??= mayHold(terms)) >= fewestWordsFirst(needed, config.firing);
    // Below the least any sentence needs, it is not read for what it refers to.
    if (!enough(config.threshold + SENTENCE_EVIDENCE)) continue;
    const needed = evidenceNeeded(sentence, () => [sentence], reader, config).needed +
      SENTENCE_EVIDENCE;
    if (!enough(needed)) continue;
    lookups -= terms.length;
    if (lookups < 0) break;
    const { ranked, subject } = keywordMatches(
      reader,
      terms,
      needed,
      { nearMisses: false, rule: config.firing, kindsOfWork: kinds, text: sentence },
    );
    if (subject === about.ord) return ranked;
  }
  return [];
}

/**
 * The fewest words that may count for the entry a prompt needing `needed` lists first, each
 * counting 1 at most: the best entry must reach `needed`, but the one search ranks first may be
 * another, listed beside it with {@link FiringRule.bestShare} of the best's evidence (and
 * {@link LISTED_SHARE} of `needed`) from two words at least.
 */
function fewestWordsFirst(needed: number, rule: FiringRule): number {
  return Math.max(2, Math.max(rule.bestShare, LISTED_SHARE) * needed);
}

/**
 * How many of a sentence's words (its `terms`) could count for the entry `about` holds back, at
 * most: those whose every term it holds, or that the whole prompt did not look up (past its
 * first {@link MAX_PROMPT_TERMS} terms), and a word of a kind of work it applies to, which the
 * sentence may read as its tag.
 */
function wordsItMayHold(
  about: HeldBack,
  looked: readonly PromptTerm[],
  kinds: readonly KindOfWork[],
): (terms: readonly PromptTerm[]) => number {
  const lookedUp = new Set(looked.map(({ term }) => term));
  const itsKinds = kinds.filter(({ ords }) => ords.includes(about.ord));
  const mayCount = ({ term, word }: PromptTerm) =>
    about.holds.has(term) || !lookedUp.has(term) ||
    itsKinds.some(({ words }) => words.includes(word));
  return (terms) => {
    const tokens = new Map<number, boolean>();
    for (const term of terms) {
      tokens.set(term.token, (tokens.get(term.token) ?? true) && mayCount(term));
    }
    let count = 0;
    for (const counts of tokens.values()) if (counts) count++;
    return count;
  };
}

/**
 * Decide what a prompt surfaces: skip check, kernel rules, keyword matches (its kind of work
 * naming the entries that apply to it: {@link kindsOfWork}; sentence by sentence when the whole
 * prompt says too much else: {@link sentenceHits}), the session ledger, then assembly under the
 * budget. Pure apart from reading index files
 * through `reader`. `ledger` may be a function that reads it: it is called only when some entry
 * matched, so a prompt that matches nothing never opens the session's file. What the session
 * was already shown unchanged is left out, never replaced by entries further down the ranking:
 * a repeated prompt adds nothing new.
 */
export function decide(
  prompt: string,
  reader: IndexReader,
  ledger: Ledger | (() => Ledger),
  fetch: (ids: string[]) => string,
  config: SurfaceConfig = DEFAULT_SURFACE_CONFIG,
): Decision {
  const skipped = skipReason(prompt, config);
  if (skipped) return skippedDecision(skipped);
  const activities = classifyActivities(prompt);
  let sentences: string[] | undefined;
  const sentencesOfPrompt = () => sentences ??= sentencesOf(prompt);
  const { reference, needed } = evidenceNeeded(prompt, sentencesOfPrompt, reader, config);
  const terms = promptTerms(prompt);
  const kinds = kindsOfWork(reader, activities);
  const matches = keywordMatches(
    reader,
    terms,
    needed,
    { nearMisses: config.explain, rule: config.firing, kindsOfWork: kinds, text: prompt },
  );
  const { nearMisses, termHits } = matches;
  let { ranked, heldBack } = matches;
  if (!ranked.length && heldBack?.reason === "not_about") {
    ranked = sentenceHits(sentencesOfPrompt(), reader, heldBack, terms, config, kinds);
    if (ranked.length) heldBack = undefined;
  }
  let seen: Ledger | undefined;
  const shown = () => seen ??= typeof ledger === "function" ? ledger() : ledger;
  const deduped: string[] = [];
  const pointers: Pointer[] = [];
  for (const hit of ranked.slice(0, config.maxEntries)) {
    const pointer = keywordPointer(reader, hit);
    if (!pointer) continue;
    if (alreadyShown(shown(), pointer)) deduped.push(pointer.id);
    else pointers.push(pointer);
  }
  const named = config.explain
    ? nearMisses.flatMap((miss) => {
      const doc = reader.doc(miss.ord);
      return doc ? [{ id: doc.id, hits: miss.words, evidence: miss.evidence }] : [];
    })
    : [];
  let held: Decision["heldBack"];
  if (config.explain && heldBack) {
    const doc = reader.doc(heldBack.ord);
    if (doc) held = { id: doc.id, reason: heldBack.reason };
  }
  const kernel = reader.manifest.kernel;
  const words = [...new Set(terms.map((term) => term.word))];
  const base = {
    activities,
    termHits,
    words,
    nearMisses: named,
    deduped,
    reference,
    ...held ? { heldBack: held } : {},
  };
  if (!kernel.length && !pointers.length) {
    return { ...base, outcome: ranked.length ? "all_deduped" : "no_signal" };
  }
  return { ...base, outcome: "surfaced", assembly: assemble(kernel, pointers, fetch, config) };
}
