/**
 * git-kb as a library: the entry contract, the tokenizer, the index, search, the prompt hook's
 * decision, the prose judge's pure parts (what prose a tool call publishes, the judge prompt,
 * the verdict contract and the deny reason), and the I/O that opens a knowledge base and saves
 * entries through git. Importing this module does no I/O.
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
export { distinctTerms, STOPWORDS, tokenize } from "./core/text/tokenize.ts";
export { stem } from "./core/text/stem.ts";
export { type DocInfo, IndexReader, type KernelRule, type Manifest } from "./core/index/reader.ts";
export { analyzeEntry, IndexEditor } from "./core/index/editor.ts";
export { type Hit, search, type SearchOptions } from "./core/search/rank.ts";
export { makeSnippet } from "./core/text/snippet.ts";
export { type Neighbour, neighbours } from "./core/entry/links.ts";
export {
  ACTIVITY_LEXICON,
  assemble,
  classifyActivities,
  decide,
  type Decision,
  DEFAULT_SURFACE_CONFIG,
  isMechanical,
  type Ledger,
  MECHANICAL_WORDS,
  type Pointer,
  SKIP_PATTERNS,
  skipReason,
  type SurfaceConfig,
} from "./core/prompt/decision.ts";
export {
  type KeywordHit,
  type KeywordMatches,
  keywordMatches,
  type PromptTerm,
  promptTerms,
} from "./core/prompt/keywords.ts";
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
export { type HookStats, summarizeDebugLog } from "./core/delivery/hook_log.ts";
export { type KbLocation, NotConfiguredError, resolveKb, writeConfig } from "./io/config.ts";
export { openIndex, type OpenOptions, type RefreshReport } from "./io/index/store.ts";
export { type OpenKb, openKb } from "./io/index/open.ts";
export {
  PushError,
  saveEntry,
  type SaveRequest,
  type SaveResult,
  ValidationError,
} from "./io/save/save.ts";
export { contextForPrompt, type ContextRequest } from "./io/hook/prompt_context.ts";
