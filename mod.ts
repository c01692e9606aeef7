/**
 * git-kb as a library: the entry contract, the tokenizer, the index, search, the prompt hook's
 * decision, the prose judge's pure parts (what prose a tool call publishes, the judge prompt,
 * the verdict contract and the deny reason), and the I/O that opens a knowledge base and saves
 * entries through git. Importing this module does no I/O.
 *
 * The exports below are grouped by the feature folder they come from, pure logic (`core/`)
 * first, then the I/O (`io/`) that uses it.
 *
 * @example
 * ```ts
 * import { openKb, search } from "./mod.ts";
 * const { reader } = await openKb("/path/to/kb");
 * for (const hit of search(reader, ["rotate leaked token"])) console.log(hit.doc.id, hit.doc.title);
 * ```
 *
 * @module
 */

// core/entry: the entry contract (fields, types, limits), parsing and checking an entry file,
// and the links between entries.
export * from "./core/entry/schema.ts";
export {
  checkAgainstKb,
  type Entry,
  EntryParseError,
  formatProblems,
  type KbContext,
  type Link,
  parseEntryText,
  type Problem,
  type RawEntry,
  serializeEntry,
  splitFrontmatter,
  toEntry,
} from "./core/entry/entry.ts";
export { type LinkRowLike, type Neighbour, neighbours } from "./core/entry/links.ts";

// core/text: tokenizing and stemming (the words the index and the hooks agree on), and the
// snippet a search hit shows.
export { distinctTerms, STOPWORDS, tokenize } from "./core/text/tokenize.ts";
export { stem } from "./core/text/stem.ts";
export { makeSnippet } from "./core/text/snippet.ts";

// core/index: the on-disk index, its format (format.ts), read (IndexReader) and written
// (IndexEditor) through a loader, so the format lives in core and the files in io/index.
export {
  type AnalyzedEntry,
  type DocInfo,
  type FileRecord,
  type FileSum,
  type FreshnessStamp,
  type InvalidFile,
  type KernelRule,
  type LinkRow,
  type Manifest,
  type TermCounts,
} from "./core/index/format.ts";
export { DamagedIndexError, type DocMeta, IndexReader, type Shape } from "./core/index/reader.ts";
export { type Postings } from "./core/index/postings_file.ts";
export {
  analyzeEntry,
  type EntryAnalysis,
  type EntryFile,
  IndexEditor,
} from "./core/index/editor.ts";

// core/search: ranking entries against a query.
export { type Hit, search, type SearchOptions } from "./core/search/rank.ts";

// core/prompt: the prompt hook's decision (skip, kernel rules, keyword pointers) and the
// keywords it matches in a prompt.
export {
  ACTIVITY_LEXICON,
  assemble,
  type Assembly,
  classifyActivities,
  CONTEXT_EVIDENCE,
  decide,
  type Decision,
  DEFAULT_SURFACE_CONFIG,
  isMechanical,
  type Ledger,
  MECHANICAL_WORDS,
  type NearMiss,
  type Pointer,
  SKIP_PATTERNS,
  skipReason,
  type SurfaceConfig,
  type Wording,
} from "./core/prompt/decision.ts";
export {
  type ContextReference,
  contextReference,
  DEICTIC_WORDS,
  isQuestion,
} from "./core/prompt/context.ts";
export {
  type Evidence,
  FIRING_RULE,
  type FiringRule,
  type HeldBack,
  type KeywordHit,
  type KeywordMatches,
  keywordMatches,
  type KindOfWork,
  type MatchedIn,
  type MatchOptions,
  promptEvidence,
  type PromptTerm,
  promptTerms,
  type QuietReason,
  specificity,
} from "./core/prompt/keywords.ts";

// core/judge and core/shell: the prose judge's pure parts (which tool calls publish prose, the
// judge prompt, the verdict contract and the deny reason) and the shell words it reads.
export {
  commandProse,
  EXCLUDED_TOOLS,
  extractProse,
  isProse,
  MIN_PROSE_CHARS,
  type ProsePiece,
} from "./core/judge/prose.ts";
export { parseShell, type ShellCommand } from "./core/shell/words.ts";
export {
  DEFAULT_JUDGE_CONFIG,
  denyReason,
  JUDGE_MARKER,
  JUDGE_SYSTEM_PROMPT,
  type JudgeConfig,
  judgeConfig,
  judgePrompt,
  type JudgeRule,
  lintDisabled,
  parseVerdict,
  type Verdict,
  verdictCacheKey,
  type Violation,
} from "./core/judge/verdict.ts";

// core/delivery: what the hooks' debug log says about delivery (`git-kb stats`).
export { type HookStats, summarizeDebugLog } from "./core/delivery/hook_log.ts";

// io: finding the knowledge base, opening (and refreshing) its index, saving entries through
// git, and the prompt hook's context for a prompt.
export {
  type ConfigChange,
  type KbLocation,
  type KbSet,
  type KnowledgeBase,
  NotConfiguredError,
  resolveKb,
  resolveKbs,
  writeConfig,
} from "./io/config.ts";
export {
  type OpenIndex,
  openIndex,
  type OpenOptions,
  type RefreshReport,
} from "./io/index/store.ts";
export { type OpenKb, openKb } from "./io/index/open.ts";
export type {
  Change,
  ChangesRequest,
  PushOutcome,
  SaveRequest,
  SaveResult,
} from "./io/save/request.ts";
export { saveEntry } from "./io/save/save.ts";
export { PushError } from "./io/save/publish.ts";
export { ValidationError } from "./io/save/validate.ts";
export { EXIT, type ExitCode, KbError } from "./core/exit.ts";
export type { AttachmentFile } from "./io/save/attachments.ts";
export {
  contextForPrompt,
  type ContextRequest,
  type ContextResult,
} from "./io/hook/prompt_context.ts";
