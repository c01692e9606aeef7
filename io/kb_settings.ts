/**
 * The settings a knowledge base's repository carries for every clone of it: `git-kb.json` at
 * its root. Today one: `{"shared": true}` marks a team's knowledge base, where `--allow-secret`
 * is refused, since a secret committed there reaches everyone who clones it.
 *
 * Read forgivingly: no file, or a file that does not say `"shared": true`, is a private
 * knowledge base; a file that is not a JSON object is one too, with a warning. The committed
 * file and the one in the work tree are both read, and either saying shared is enough, so
 * deleting or editing the file locally does not make a team's knowledge base private.
 *
 * @module
 */
import { EXIT, KbError } from "../core/exit.ts";
import { join } from "../core/path.ts";
import { lstatOf } from "./disk.ts";
import { ifExists } from "./fs.ts";
import { git } from "./git.ts";

/** The settings file at the knowledge base's root. */
export const KB_SETTINGS_FILE = "git-kb.json";

/** The text `git-kb init --shared` commits as {@link KB_SETTINGS_FILE}. */
export const SHARED_SETTINGS_TEXT = `${JSON.stringify({ shared: true }, null, 2)}\n`;

/** What the settings say. */
export interface KbSettings {
  /** Whether the knowledge base is shared by a team (no secret is ever kept in it). */
  shared: boolean;
  /** One line each: a settings file that could not be read as settings. */
  warnings: string[];
}

/** Raised when `--allow-secret` is given for a shared knowledge base. Exit code 1. */
export class SharedKbError extends KbError {
  /** `kbDir` is shared; nothing was written. */
  constructor(kbDir: string) {
    super(
      `--allow-secret is refused: ${kbDir} is a shared knowledge base (its ${KB_SETTINGS_FILE} ` +
        `says "shared": true), so a secret saved there reaches everyone who clones it; ` +
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
 * read), with a warning.
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
  return ifExists(() => Deno.readTextFileSync(path));
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
  return { shared, warnings };
}

/**
 * Check before anything is written that `--allow-secret` may be used in `kbDir`: throws
 * {@link SharedKbError} for a shared knowledge base; returns the settings' warnings otherwise.
 */
export async function assertSecretsMayBeKept(kbDir: string): Promise<string[]> {
  const { shared, warnings } = await readKbSettings(kbDir);
  if (shared) throw new SharedKbError(kbDir);
  return warnings;
}
