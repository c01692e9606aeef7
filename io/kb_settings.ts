/**
 * The settings a knowledge base's repository carries for every clone of it: `git-kb.json` at
 * its root. Today one: `{"shared": true}` marks a team's knowledge base, where `--allow-secret`
 * is refused, since a secret committed there reaches everyone who clones it.
 *
 * Read forgivingly: no file, or a file that does not say `"shared": true`, is a private
 * knowledge base; a file that is not a JSON object is one too, with a warning. The committed
 * file and the one in the work tree are both read, and either saying shared is enough, so
 * deleting or editing the file locally does not make a team's knowledge base private. Nor does a
 * commit that deletes or edits it (a teammate's, say): a knowledge base whose history ever said
 * shared stays shared, since everyone who cloned it then can read what is pushed to it.
 *
 * @module
 */
import { EXIT, KbError } from "../core/exit.ts";
import { join } from "../core/path.ts";
import { lstatOf } from "./disk.ts";
import { ifExists, readSeenFile } from "./fs.ts";
import { git } from "./git.ts";

/** The settings file at the knowledge base's root. */
export const KB_SETTINGS_FILE = "git-kb.json";

/** The text `git-kb init --shared` commits as {@link KB_SETTINGS_FILE}. */
export const SHARED_SETTINGS_TEXT = `${JSON.stringify({ shared: true }, null, 2)}\n`;

/** What the settings say. */
export interface KbSettings {
  /** Whether the knowledge base is shared by a team (no secret is ever kept in it). */
  shared: boolean;
  /**
   * The commit (short hash) that marked the knowledge base shared, when only the history says so:
   * the file no longer does.
   */
  markedIn?: string;
  /** One line each: a settings file that could not be read as settings. */
  warnings: string[];
}

/** Why a knowledge base with `settings` is shared, for a message: `its git-kb.json says …`. */
export function sharedReason(settings: KbSettings): string {
  return settings.markedIn
    ? `its ${KB_SETTINGS_FILE} said "shared": true from commit ${settings.markedIn} on, and ` +
      "what is pushed to a knowledge base others have cloned reaches them however the file " +
      "reads now"
    : `its ${KB_SETTINGS_FILE} says "shared": true`;
}

/** Raised when `--allow-secret` is given for a shared knowledge base. Exit code 1. */
export class SharedKbError extends KbError {
  /** `kbDir`, with `settings`, is shared; nothing was written. */
  constructor(kbDir: string, settings: KbSettings) {
    super(
      `--allow-secret is refused: ${kbDir} is a shared knowledge base (${
        sharedReason(settings)
      }), so a secret saved there reaches everyone who clones it; ` +
        "nothing was written. Remove the secret (keep it in a password manager or an " +
        "environment variable) and run the command again without --allow-secret",
      EXIT.failed,
    );
    this.name = "SharedKbError";
  }
}

/** What a bad settings file should hold instead. */
const FIX = `write {"shared": true} there for a team's knowledge base, or {"shared": false}`;

/** Whether `text` says shared; a warning naming `where` when it is not settings at all. */
function readSettingsText(text: string, where: string, warnings: string[]): boolean {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    // Not the parser's message: it quotes the file, which may be anything a link points at.
    warnings.push(`${where} is not JSON; read as not shared; ${FIX}`);
    return false;
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    warnings.push(`${where} is not a JSON object; read as not shared; ${FIX}`);
    return false;
  }
  const shared = (value as Record<string, unknown>).shared;
  if (shared !== undefined && typeof shared !== "boolean") {
    warnings.push(`${where}: "shared" is a ${typeof shared}, not true or false; ${FIX}`);
  }
  return shared === true;
}

/** The most bytes of a settings file read: it holds a line or two. */
const SETTINGS_MAX_BYTES = 64 * 1024;

/**
 * The text of the settings file in the work tree; undefined when there is none, or when it is
 * not a regular file of at most {@link SETTINGS_MAX_BYTES} (a link, a FIFO that would block the
 * read), with a warning. What is opened must be the file looked at: a swap since (a checkout
 * running beside) is not read through (see {@link readSeenFile}).
 */
function readLocalSettings(path: string, warnings: string[]): string | undefined {
  const info = lstatOf(path);
  if (!info) return undefined;
  if (!info.isFile || info.size > SETTINGS_MAX_BYTES) {
    warnings.push(
      `${path} is not a regular file of at most ${SETTINGS_MAX_BYTES} bytes; not read; ${FIX}`,
    );
    return undefined;
  }
  // undefined: removed since the look, as if never there; null: replaced, or grown past the cap.
  const bytes = ifExists(() => readSeenFile(path, info, SETTINGS_MAX_BYTES + 1) ?? null);
  if (bytes === undefined) return undefined;
  if (bytes === null || bytes.length > SETTINGS_MAX_BYTES) {
    warnings.push(`${path} changed while it was being read; not read; run the command again`);
    return undefined;
  }
  return new TextDecoder().decode(bytes);
}

/** A line of the settings file saying shared, as `git log -G` looks for it (a POSIX regex). */
const SHARED_LINE = '"shared"[[:space:]]*:[[:space:]]*true';

/**
 * The oldest commit of HEAD's history whose change of the settings file added or removed a line
 * saying shared (short hash): the one that marked it shared; undefined when none did (or there is
 * no commit yet).
 */
async function markedSharedIn(kbDir: string): Promise<string | undefined> {
  const args = ["log", "--format=%h", "-G", SHARED_LINE, "HEAD", "--", KB_SETTINGS_FILE];
  const found = await git(kbDir, args);
  return found.code === 0 && found.stdout.trim().split("\n").at(-1) || undefined;
}

/** The settings of the knowledge base in `kbDir` (see the module doc). */
export async function readKbSettings(kbDir: string): Promise<KbSettings> {
  const warnings: string[] = [];
  const committed = await git(kbDir, ["show", `HEAD:${KB_SETTINGS_FILE}`]);
  const path = join(kbDir, KB_SETTINGS_FILE);
  const local = readLocalSettings(path, warnings);
  let shared = false;
  if (committed.code === 0) {
    shared = readSettingsText(committed.stdout, `the committed ${KB_SETTINGS_FILE}`, warnings);
  }
  if (local !== undefined && local !== committed.stdout) {
    shared = readSettingsText(local, path, warnings) || shared;
  }
  if (shared) return { shared, warnings };
  const markedIn = await markedSharedIn(kbDir);
  return markedIn ? { shared: true, markedIn, warnings } : { shared, warnings };
}

/**
 * Check before anything is written that `--allow-secret` may be used in `kbDir`: throws
 * {@link SharedKbError} for a shared knowledge base; returns the settings' warnings otherwise.
 */
export async function assertSecretsMayBeKept(kbDir: string): Promise<string[]> {
  const settings = await readKbSettings(kbDir);
  if (settings.shared) throw new SharedKbError(kbDir, settings);
  return settings.warnings;
}
