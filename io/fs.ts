/**
 * File helpers: atomic writes and JSON reads that tolerate absence (the lock is in `lock.ts`).
 *
 * @module
 */
import { dirname, join } from "../core/path.ts";

let sequence = 0;

/**
 * A temp file name beside `path`, unique across processes (pid, sequence and a random part:
 * `Math.random`, not the crypto source, whose first use costs a hook half a millisecond).
 */
function tempName(path: string): string {
  const nonce = Math.floor(Math.random() * 2 ** 32).toString(36);
  return join(dirname(path), `.${Deno.pid}-${nonce}-${sequence++}.tmp`);
}

/** Write text or bytes to `path`. */
export function writeData(path: string, data: string | Uint8Array): void {
  if (typeof data === "string") Deno.writeTextFileSync(path, data);
  else Deno.writeFileSync(path, data);
}

/**
 * Write `data` to `path` so that readers see either the old file or the new one, never half:
 * write a temp file beside it, then rename it over. Creates missing parent folders.
 */
export function writeFileAtomic(path: string, data: string | Uint8Array): void {
  Deno.mkdirSync(dirname(path), { recursive: true });
  const temp = tempName(path);
  try {
    writeData(temp, data);
    Deno.renameSync(temp, path);
  } catch (error) {
    try {
      Deno.removeSync(temp);
    } catch { /* the temp file was never created */ }
    throw error;
  }
}

/** What `read` returns, or undefined when the file it reads does not exist. */
export function ifExists<T>(read: () => T): T | undefined {
  try {
    return read();
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return undefined;
    throw error;
  }
}

/** Read and parse a JSON file; undefined when it does not exist or does not parse. */
export function readJsonFile(path: string): unknown {
  const text = ifExists(() => Deno.readTextFileSync(path));
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/**
 * Write (or with `append`, append) `text` to `path`, making its folder only when the write finds
 * it missing: the hooks write a session file on most prompts, and a mkdir on each would be a
 * system call (and a stat) for nothing.
 */
export function writeTextMakingFolder(path: string, text: string, append = false): void {
  try {
    Deno.writeTextFileSync(path, text, { append });
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
    Deno.mkdirSync(dirname(path), { recursive: true });
    Deno.writeTextFileSync(path, text, { append });
  }
}

/**
 * The text of a scratch file, "" when there was none: it is then created empty (by appending
 * nothing), where reading a missing file would throw. A process's first exception costs a hook
 * about a millisecond; this uses only calls the hooks make anyway. Only for files the caller
 * writes next (a session's ledger).
 */
export function readOrCreateText(path: string): string {
  writeTextMakingFolder(path, "", true);
  return Deno.readTextFileSync(path);
}
