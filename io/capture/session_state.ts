/**
 * What the capture keeps per session, in the knowledge base's cache beside the session's ledger
 * (io/hook/session.ts, swept with it): how far into the transcript earlier runs read, so that no
 * part of a session is sent to the model twice, and how many model calls the session made. And
 * the session's capture lock, so two runs of one session (a compaction, then the session's end)
 * never work at once.
 *
 * @module
 */
import { readPrivateJson, writePrivateFile } from "../fs.ts";
import { sessionFile } from "../hook/session.ts";

/** A session's capture record. */
export interface CaptureState {
  /** The transcript's bytes read by earlier runs: a run reads only what came after. */
  covered: number;
  /** The model calls made for the session so far. */
  calls: number;
}

/** The most bytes of the record read (one is about 40). */
const STATE_MAX_BYTES = 4096;

function statePath(cacheDir: string, session: string): string {
  return sessionFile(cacheDir, session, ".capture.json");
}

/** The lock file of a session's capture runs. */
export function captureLockPath(cacheDir: string, session: string): string {
  return sessionFile(cacheDir, session, ".capture.lock");
}

/** The session's record; a fresh one when there is none or it cannot be read as one. */
export function readCaptureState(cacheDir: string, session: string): CaptureState {
  const data = readPrivateJson(statePath(cacheDir, session), STATE_MAX_BYTES) as
    | Partial<CaptureState>
    | undefined;
  const count = (value: unknown) =>
    typeof value === "number" && Number.isSafeInteger(value) && value > 0 ? value : 0;
  return { covered: count(data?.covered), calls: count(data?.calls) };
}

/** Replace the session's record (atomically, 0600). */
export function writeCaptureState(cacheDir: string, session: string, state: CaptureState): void {
  writePrivateFile(statePath(cacheDir, session), JSON.stringify(state));
}
