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
import { join } from "../core/path.ts";
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
export class SharedKbError extends Error {
  /** The exit code a command ends with. */
  readonly exitCode = 1;
  /** `kbDir` is shared; nothing was written. */
  constructor(kbDir: string) {
    super(
      `--allow-secret is refused: ${kbDir} is a shared knowledge base (its ${KB_SETTINGS_FILE} ` +
        `says "shared": true), so a secret saved there reaches everyone who clones it; ` +
        "nothing was written. Remove the secret (keep it in a password manager or an " +
        "environment variable) and run the command again without --allow-secret",
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
  } catch (error) {
    warnings.push(`${where} is not JSON (${(error as Error).message}); read as not shared; ${FIX}`);
    return false;
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    warnings.push(`${where} is not a JSON object; read as not shared; ${FIX}`);
    return false;
  }
  const shared = (value as Record<string, unknown>).shared;
  if (shared !== undefined && typeof shared !== "boolean") {
    warnings.push(
      `${where}: "shared" is ${JSON.stringify(shared)}, not true or false; ` +
        `read as not shared; ${FIX}`,
    );
  }
  return shared === true;
}

/** The settings of the knowledge base in `kbDir` (see the module doc). */
export async function readKbSettings(kbDir: string): Promise<KbSettings> {
  const warnings: string[] = [];
  const committed = await git(kbDir, ["show", `HEAD:${KB_SETTINGS_FILE}`]);
  const path = join(kbDir, KB_SETTINGS_FILE);
  const local = ifExists(() => Deno.readTextFileSync(path));
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
