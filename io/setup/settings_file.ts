/**
 * An agent's settings file as `git-kb setup` reads and rewrites it: its real path, text and
 * mode; the rewrite keeps a `.bak` of the old text and the file's mode.
 *
 * @module
 */
import { writeFileAtomic } from "../fs.ts";

/** A settings file as found on disk. */
export interface SettingsFile {
  /** Its real path (symlinks resolved), or the path given when it does not exist. */
  path: string;
  /** Whether the file exists. */
  exists: boolean;
  /** Its text; empty when it does not exist. */
  text: string;
  /** Its permission bits, when the platform reports them. */
  mode?: number;
}

/** Read the settings file `file`; a missing one reads as empty. */
export async function readSettingsFile(file: string): Promise<SettingsFile> {
  try {
    const path = await Deno.realPath(file);
    const [text, info] = await Promise.all([Deno.readTextFile(path), Deno.stat(path)]);
    return { path, exists: true, text, mode: info.mode ?? undefined };
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return { path: file, exists: false, text: "" };
    throw error;
  }
}

function keepMode(path: string, mode: number | undefined): void {
  if (mode !== undefined && Deno.build.os !== "windows") Deno.chmodSync(path, mode & 0o7777);
}

/** Copy the old file to `<file>.bak`, then write `text` atomically; returns the backup. */
export function writeSettingsFile(current: SettingsFile, text: string): string | undefined {
  let backup: string | undefined;
  if (current.exists) {
    backup = `${current.path}.bak`;
    writeFileAtomic(backup, current.text);
    keepMode(backup, current.mode);
  }
  writeFileAtomic(current.path, text);
  keepMode(current.path, current.mode);
  return backup;
}
