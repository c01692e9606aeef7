/**
 * The capture of one session's lessons, run in the background after the session ended or before
 * it was compacted (hooks/capture_worker.ts): read what no earlier run of the session read of its
 * transcript, find the lessons in it (a failure, then what made it work), ask the model once for
 * at most three candidate entries, check each strictly, turn a duplicate of an entry into a
 * proposed edit of it, and write the rest as proposals (io/proposals/store.ts), which nothing
 * indexes or injects until a person accepts them. See spec/capture.md.
 *
 * @module
 */
import {
  type Candidate,
  candidateEntry,
  CAPTURE_MARKER,
  CAPTURE_SYSTEM_PROMPT,
  type CaptureConfig,
  capturePrompt,
  parseCandidates,
} from "../../core/capture/candidates.ts";
import {
  duplicateLine,
  findDuplicate,
  withCapturedMaterial,
} from "../../core/capture/duplicates.ts";
import { findLessons, lessonExcerpt, transcriptTurns } from "../../core/capture/transcript.ts";
import { parseEntryText, serializeEntry, toEntry } from "../../core/entry/entry.ts";
import { outputExcerpt } from "../../core/model/reply.ts";
import { scrubSecrets } from "../../core/text/secrets.ts";
import type { Proposal } from "../../core/proposals/proposal.ts";
import type { IndexReader } from "../../core/index/reader.ts";
import { openIndex, readIndexedEntry } from "../index/store.ts";
import { askModel } from "../model/claude.ts";
import { kbCacheDir } from "../paths.ts";
import { propose } from "../proposals/store.ts";
import { LockTimeoutError, withLock } from "../save/lock.ts";
import { newId } from "../save/entry_files.ts";
import { readTranscriptTail, TRANSCRIPT_TAIL_BYTES } from "./transcript_file.ts";
import { captureLockPath, readCaptureState, writeCaptureState } from "./session_state.ts";

/** What a capture run is asked to do: the hook's payload, as handed over. */
export interface CaptureRequest {
  /** The session's id. */
  session: string;
  /** The session's transcript (JSONL). */
  transcript: string;
  /** What ended it: `SessionEnd` or `PreCompact`. */
  event: string;
}

/** What one run did and why: its debug record. */
export interface CaptureTrace {
  /** `skipped`: no model call; `proposed`: the call made and its candidates handled; `error`. */
  outcome: "skipped" | "proposed" | "error";
  /** Why, in words. */
  reason: string;
  /** The transcript lines read, first and last. */
  lines?: [number, number];
  /** The lessons found, as `recovered 120-188`. */
  lessons?: string[];
  /** Characters of excerpt sent to the model. */
  excerptChars?: number;
  /** The model asked. */
  model?: string;
  /** Each candidate: written (`new kb-…`, `edit kb-…`) or dropped with why. */
  candidates?: string[];
}

/** The environment of the model's process besides what it inherits: the recursion marker. */
const CAPTURE_ENV = { [CAPTURE_MARKER]: "1" };

/** Today, `YYYY-MM-DD` (UTC), the date of a captured entry. */
function today(): string {
  return new Date().toISOString().slice(0, 10);
}

/** A candidate named in a debug record: its title, credentials masked, clipped. */
function named(candidate: Candidate): string {
  return JSON.stringify(scrubSecrets(candidate.title).slice(0, 60));
}

/** The existing entry `id` (as in the working tree), with a candidate's material added; or why not. */
function editProposal(
  kbDir: string,
  reader: IndexReader,
  id: string,
  candidate: Candidate,
): { markdown: string } | { refusal: string } {
  const doc = reader.docById(id);
  if (!doc) return { refusal: `${id} is gone from the index` };
  const { entry, problems } = toEntry(
    parseEntryText(readIndexedEntry(kbDir, id, doc.path), doc.path),
  );
  if (!entry) return { refusal: `${id} cannot be read: ${problems[0]?.message ?? "unknown"}` };
  const edited = withCapturedMaterial(entry, candidate, today());
  if (!edited) return { refusal: `${id} already says it` };
  return { markdown: serializeEntry(edited) };
}

/**
 * The proposals for `candidates` (their excerpt spans lines `shown`), and a line per candidate
 * for the trace: a new entry, an edit of the entry it duplicates, or why it was dropped.
 */
function proposalsFor(
  kbDir: string,
  reader: IndexReader,
  candidates: readonly Candidate[],
  shown: readonly [number, number],
  session: string,
  notes: string[],
): Proposal[] {
  const line = duplicateLine(reader);
  const proposals: Proposal[] = [];
  for (const candidate of candidates) {
    const checked = candidateEntry(
      candidate,
      newId({ has: (id) => reader.ordOf(id) !== undefined }),
      today(),
      shown,
    );
    if ("refusal" in checked) {
      notes.push(`dropped ${named(candidate)}: ${checked.refusal}`);
      continue;
    }
    const source = `session ${session.slice(0, 12)} transcript lines ${candidate.lines.join("-")}`;
    const duplicate = findDuplicate(reader, candidate, line);
    if (duplicate) {
      const edit = editProposal(kbDir, reader, duplicate.id, candidate);
      if ("refusal" in edit) {
        notes.push(`dropped ${named(candidate)}: ${edit.refusal}`);
        continue;
      }
      const closeness = `${duplicate.closeness.toFixed(2)} > ${duplicate.line.toFixed(2)}`;
      proposals.push({
        kind: "edit",
        entryId: duplicate.id,
        markdown: edit.markdown,
        reason: `a session found again what ${duplicate.id} says (closeness ${closeness}); ` +
          `its new material is added under "Seen again in a session": ${candidate.title}`,
        source,
      });
      continue;
    }
    proposals.push({
      kind: "new",
      entryId: checked.entry.id,
      markdown: serializeEntry(checked.entry),
      reason: `a session fixed something worth keeping: ${candidate.title}`,
      source,
    });
  }
  return proposals;
}

/** The run itself, under the session's lock. */
async function captureLocked(
  kbDir: string,
  request: CaptureRequest,
  config: CaptureConfig,
  signal: AbortSignal | undefined,
  trace: CaptureTrace,
): Promise<void> {
  const cacheDir = kbCacheDir(kbDir);
  const state = readCaptureState(cacheDir, request.session);
  const part = readTranscriptTail(request.transcript, TRANSCRIPT_TAIL_BYTES, {
    after: state.covered,
    countLines: true,
  });
  const turns = transcriptTurns(part.text, part.firstLine);
  const lessons = findLessons(turns);
  if (turns.length) trace.lines = [turns[0].line, turns.at(-1)!.line];
  trace.lessons = lessons.map((lesson) => `${lesson.kind} ${lesson.from}-${lesson.to}`);
  if (!lessons.length) {
    writeCaptureState(cacheDir, request.session, { ...state, covered: part.end });
    trace.reason = "nothing learned: no failure that was then fixed";
    return;
  }
  const excerpt = lessonExcerpt(turns, lessons);
  trace.excerptChars = excerpt.text.length;
  trace.model = config.model;
  // Counted before the call: a run that dies in it never asks about the same lines again.
  writeCaptureState(cacheDir, request.session, { covered: part.end, calls: state.calls + 1 });
  const output = await askModel(capturePrompt(excerpt.text), {
    ...config,
    systemPrompt: CAPTURE_SYSTEM_PROMPT,
    env: CAPTURE_ENV,
    settings: { timeout: "GIT_KB_CAPTURE_TIMEOUT_MS", binary: "KB_PROSE_LINT_CLAUDE" },
    signal,
  }, cacheDir);
  const reply = parseCandidates(output);
  if (!reply) {
    throw new Error(`the capture model's reply holds no candidates: ${outputExcerpt(output)}`);
  }
  const notes = reply.dropped.map((item) => `dropped reply item ${item.index}: ${item.reason}`);
  trace.candidates = notes;
  if (!reply.candidates.length) {
    trace.reason = "the model found nothing worth keeping";
    return;
  }
  const { reader } = await openIndex(kbDir);
  const proposals = proposalsFor(
    kbDir,
    reader,
    reply.candidates,
    [excerpt.first, excerpt.last],
    request.session,
    notes,
  );
  const outcomes = proposals.length ? await propose(kbDir, proposals) : [];
  for (const { proposal, written, refusal } of outcomes) {
    notes.push(
      written
        ? `${proposal.kind} ${proposal.entryId}`
        : `refused ${proposal.kind} ${proposal.entryId}: ${refusal}`,
    );
  }
  trace.outcome = "proposed";
  trace.reason = `${outcomes.filter((outcome) => outcome.written).length} proposal(s) written`;
}

/**
 * Capture what the session of `request` taught into proposals for the knowledge base at
 * `kbDir`; fills in `trace`. At most one model call, only for transcript lines no earlier run of
 * the session read; a run finding another of the same session under way does nothing. Throws on
 * a failure (the caller records it); `signal` stops the model with its process group.
 */
export async function captureSession(
  kbDir: string,
  request: CaptureRequest,
  config: CaptureConfig,
  trace: CaptureTrace,
  signal?: AbortSignal,
): Promise<void> {
  try {
    await withLock(
      captureLockPath(kbCacheDir(kbDir), request.session),
      () => captureLocked(kbDir, request, config, signal, trace),
      { timeoutMs: 0 },
    );
  } catch (error) {
    if (!(error instanceof LockTimeoutError)) throw error;
    trace.outcome = "skipped";
    trace.reason = "another capture of this session is under way";
  }
}
