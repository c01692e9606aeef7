/**
 * `git-kb eval` without the printing: read a golden file, replay it against a knowledge base's
 * index, score it, and compare with the previous run of the same file, which is kept in the
 * knowledge base's cache folder.
 *
 * @module
 */
import { contentHash } from "../core/hash.ts";
import { parseGolden } from "../core/eval/golden.ts";
import { join } from "../core/path.ts";
import { replayPrompt } from "../core/eval/replay.ts";
import { diffRuns, type EvalDiff, type EvalRun, scoreRun } from "../core/eval/score.ts";
import { readPrivateJson, writePrivateFile } from "./fs.ts";
import { openIndex } from "./index/store.ts";
import { fetchCommand, surfaceConfig } from "./hook/prompt_context.ts";
import { kbCacheDir, resolvePath } from "./paths.ts";

/** Raised when a golden file has lines that are not cases; nothing was scored. */
export class GoldenFileError extends Error {
  constructor(path: string, problems: { line: number; message: string }[]) {
    super(
      `${path} has lines eval cannot use; fix them and run it again:\n` +
        problems.map(({ line, message }) => `  line ${line}: ${message}`).join("\n"),
    );
    this.name = "GoldenFileError";
  }
}

/** A run as kept in the cache. */
interface StoredRun {
  golden: string;
  at: string;
  run: EvalRun;
}

/** Everything `git-kb eval` reports. */
export interface EvalReport {
  /** The golden file, absolute. */
  golden: string;
  kbDir: string;
  /** Entries in the index. */
  entries: number;
  run: EvalRun;
  /** Expected ids that no entry has (always misses). */
  unknownIds: string[];
  /** When the previous run of this golden file was made, and how this one differs from it. */
  previous?: { at: string; diff: EvalDiff };
  /** Milliseconds to replay and score every prompt, the index already open. */
  ms: number;
}

/**
 * The golden file `path` names: relative to the current folder, else to the knowledge base
 * (where golden files usually live). Throws NotFound naming both places when neither has it, and
 * an error naming what is there instead when that is not a regular file (a folder, a FIFO).
 */
export function findGolden(path: string, kbDir: string): string {
  const candidates = [resolvePath(path), ...(path.startsWith("/") ? [] : [join(kbDir, path)])];
  const notFiles: string[] = [];
  for (const candidate of candidates) {
    try {
      const info = Deno.statSync(candidate);
      if (info.isFile) return candidate;
      notFiles.push(`${candidate} is ${info.isDirectory ? "a folder" : "not a regular file"}`);
    } catch (error) {
      if (!(error instanceof Deno.errors.NotFound)) throw error;
    }
  }
  if (notFiles.length) {
    throw new Error(
      `golden file ${path} is not a file (${notFiles.join("; ")}); give the path of the ` +
        ".jsonl file itself",
    );
  }
  throw new Deno.errors.NotFound(
    `golden file ${path} not found (looked at ${candidates.join(" and ")}); ${GOLDEN_FORMAT}`,
  );
}

/** What a golden file holds, for the messages that find none or an empty one. */
const GOLDEN_FORMAT = 'write one JSON line per prompt: {"prompt": "…", "expect": ["kb-…"]}';

/** Where the last run of `golden` against `kbDir` is kept. */
export function lastRunPath(kbDir: string, golden: string): string {
  return join(kbCacheDir(kbDir), "eval", `${contentHash(golden)}.json`);
}

/** The most bytes read of a stored run: far more than a run of thousands of prompts takes. */
const LAST_RUN_CAP = 64 * 1024 * 1024;

function readLastRun(path: string, golden: string): StoredRun | undefined {
  const stored = readPrivateJson(path, LAST_RUN_CAP) as StoredRun | undefined;
  const valid = typeof stored === "object" && stored !== null && stored.golden === golden &&
    Array.isArray(stored.run?.results) && typeof stored.run?.summary === "object";
  return valid ? stored : undefined;
}

/**
 * Replay the golden file at `goldenPath` (see {@link findGolden}) against the knowledge base in
 * `kbDir`, score it, compare it with the previous run and keep this one for the next time.
 */
export async function evaluate(kbDir: string, goldenPath: string): Promise<EvalReport> {
  const golden = findGolden(goldenPath, kbDir);
  const { cases, problems } = parseGolden(Deno.readTextFileSync(golden));
  if (problems.length) throw new GoldenFileError(golden, problems);
  if (!cases.length) {
    throw new Error(`${golden} holds no prompt, so there is nothing to score; ${GOLDEN_FORMAT}`);
  }
  const { reader } = await openIndex(kbDir);
  const started = performance.now();
  const config = { ...surfaceConfig(), explain: false };
  const fetch = fetchCommand(kbDir);
  const run = scoreRun(
    cases,
    cases.map((item) => replayPrompt(reader, item.prompt, config, fetch)),
  );
  const ms = performance.now() - started;
  const unknownIds = [...new Set(cases.flatMap((item) => item.expect))].filter((id) =>
    reader.ordOf(id) === undefined
  );
  const store = lastRunPath(kbDir, golden);
  const last = readLastRun(store, golden);
  const at = new Date().toISOString();
  writePrivateFile(store, JSON.stringify({ golden, at, run } satisfies StoredRun));
  return {
    golden,
    kbDir,
    entries: reader.manifest.docCount,
    run,
    unknownIds,
    previous: last && { at: last.at, diff: diffRuns(last.run, run) },
    ms,
  };
}
