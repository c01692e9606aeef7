/**
 * Opening the user's editor on a draft and never losing what they typed. The draft is a file
 * created exclusively (0600) in a private folder of the cache; when what they wrote cannot be
 * saved, the editor reopens with the reasons as notes at the top (on a terminal), or the draft is
 * kept and its path printed with the command that picks it up again. It is removed once saved.
 *
 * @module
 */
import { basename, dirname, join } from "../core/path.ts";
import { formatProblems, notSavedBecause, type Problem } from "../core/entry/entry.ts";
import { problemNotes, stripNotes, withNotes } from "../core/entry/draft.ts";
import { decodeUtf8Strict, NotUtf8Error } from "../core/text/utf8.ts";
import { EXIT, type ExitCode, KbError } from "../core/exit.ts";
import { editorBlank, editorWords } from "../core/shell/editor.ts";
import { shellQuote } from "../core/shell/quote.ts";
import { ensurePrivateDir, PRIVATE_FILE_MODE, writeFileAtomic } from "./fs.ts";
import { cacheRoot, resolvePath } from "./paths.ts";
import { isFolder } from "./disk.ts";

/** How many times the editor opens on a terminal before the draft is kept instead. */
export const MAX_EDITOR_ROUNDS = 5;

/** What `add` and `edit` can do without an editor, for the messages that say there is none. */
const FIELD_FLAGS_INSTEAD = "give the fields with flags (--title, --body, --body-file)";

/** The editor commands the messages that find no editor name as examples, the first two. */
const EXAMPLE_EDITORS = ["nano", "code --wait", "vi"];

/**
 * How to set `variable` to an editor, with two examples: never `missing`, the program that was
 * not found, which the line would have the user set again.
 */
function examples(variable: string, missing?: string): string {
  const name = missing === undefined ? undefined : basename(missing);
  const [first, second] = EXAMPLE_EDITORS.filter((command) => command.split(" ")[0] !== name);
  return `export ${variable}=${shellQuote(first)} (or ${variable}=${shellQuote(second)})`;
}

/** How the messages that find no editor say to set one, then `instead`. */
function setOne(instead: string, missing?: string): string {
  return `Set one, e.g. ${examples("EDITOR", missing)}, or ${instead}`;
}

/**
 * Raised when there is no editor to open; `instead` is what the command can do without one.
 * Exit code 2.
 */
export class NoEditorError extends KbError {
  constructor(instead = FIELD_FLAGS_INSTEAD) {
    super(
      "no editor to open: $VISUAL and $EDITOR are unset and there is no terminal for vi. " +
        setOne(instead),
      EXIT.usage,
    );
    this.name = "NoEditorError";
  }
}

/** Raised when what the user wrote could not be saved and was kept in a draft file. */
export class DraftKeptError extends KbError {
  /** The draft file. */
  readonly path: string;
  /** `reason` it was not saved; kept in `path`; `resume` carries on. */
  constructor(reason: string, path: string, resume: string, exitCode: ExitCode = EXIT.failed) {
    super(
      `${reason}\nWhat you wrote is kept in ${path}\nFix it and carry on with:`,
      exitCode,
      [resume],
    );
    this.name = "DraftKeptError";
    this.path = path;
  }
}

/**
 * Raised when `$VISUAL` or `$EDITOR` is not a command git-kb can run without a shell (see
 * core/shell/editor.ts). Exit code 2.
 */
export class EditorCommandError extends KbError {
  constructor(variable: string, value: string, reason: string) {
    super(
      `the editor was not opened: ${variable}=${shellQuote(value)} is not a command git-kb ` +
        `can run without a shell: ${reason}. Set ${variable} to a program and its arguments, ` +
        `quoted as sh quotes them (e.g. export ${variable}='code --wait'), or to a script that ` +
        `does the rest`,
      EXIT.usage,
    );
    this.name = "EditorCommandError";
  }
}

/** The editor to run: a program and the arguments before the file. */
export interface EditorCommand {
  /** The program, by name (looked up on PATH) or path. */
  program: string;
  /** Its arguments, quotes removed; the file comes after them. */
  args: string[];
  /** The variable that named it, `VISUAL` or `EDITOR`; absent for `vi`, taken when neither is. */
  variable?: string;
}

/**
 * Raised when the editor's program is not there (not on PATH, or no file at its path): which
 * variable named it, or that `vi`, the editor when none is set, is not installed (`instead`: what
 * the command can do without one). Exit code 2.
 */
export class EditorNotFoundError extends KbError {
  constructor({ program, variable }: EditorCommand, instead = FIELD_FLAGS_INSTEAD) {
    const where = program.includes("/") ? "there is no such file" : "no such program is on PATH";
    super(
      variable
        ? `the editor was not opened: ${variable} names ${shellQuote(program)}, and ${where}. ` +
          `Set ${variable} to an editor that is installed, e.g. ${examples(variable, program)}`
        : `no editor to open: $VISUAL and $EDITOR are unset and vi is not installed. ${
          setOne(instead, program)
        }`,
      EXIT.usage,
    );
    this.name = "EditorNotFoundError";
  }
}

/**
 * The editor command: `$VISUAL`, else `$EDITOR`, read as sh reads a command's words without
 * evaluating anything, else `vi` on a terminal; undefined if none. Throws
 * {@link EditorCommandError} for a value only a shell could run, and for a program path that
 * is a folder.
 */
export function editorCommand(): EditorCommand | undefined {
  for (const variable of ["VISUAL", "EDITOR"]) {
    const value = Deno.env.get(variable);
    if (value === undefined || editorBlank(value)) continue;
    const read = editorWords(value);
    if (read.refused !== undefined) throw new EditorCommandError(variable, value, read.refused);
    if (read.program.includes("/") && isFolder(read.program)) {
      // Deno refuses every write under a folder it may run (the drafts too): say what is wrong.
      const reason = `its program ${shellQuote(read.program)} is a folder`;
      throw new EditorCommandError(variable, value, reason);
    }
    return { program: read.program, args: read.args, variable };
  }
  return Deno.stdin.isTerminal() ? { program: "vi", args: [] } : undefined;
}

/**
 * The drafts folder, `<cache root>/drafts`: a private folder of the user's own, like the cache
 * root it sits in (see `io/fs.ts` `ensurePrivateDir`).
 */
export function draftsDir(): string {
  return ensurePrivateDir(join(cacheRoot(), "drafts"));
}

function randomName(): string {
  return crypto.getRandomValues(new Uint32Array(1))[0].toString(36);
}

function timestamp(): string {
  return new Date().toISOString().replace(/[-:]/g, "").replace(/\.\d+Z$/, "Z");
}

/** Create a new draft file holding `text`: exclusively (never an existing file or link), 0600. */
function createDraftFile(name: string, text: string): string {
  const dir = draftsDir();
  for (;;) {
    const safe = name.replace(/[^A-Za-z0-9_-]/g, "_").slice(0, 40);
    const path = join(dir, `${safe}-${timestamp()}-${randomName()}.md`);
    try {
      Deno.writeTextFileSync(path, text, { createNew: true, mode: PRIVATE_FILE_MODE });
      return path;
    } catch (error) {
      if (!(error instanceof Deno.errors.AlreadyExists)) throw error;
    }
  }
}

/**
 * Keep `text`, which the user gave where nothing else holds it (piped on stdin), in a new draft
 * file when the save it was for failed with `reason`: the {@link DraftKeptError} to throw, naming
 * the file and what `resume` makes of it; undefined when even the draft cannot be written (the
 * caller's error stands then).
 */
export function keepGivenText(
  name: string,
  text: string,
  reason: string,
  resume: (path: string) => string,
  exitCode: ExitCode,
): DraftKeptError | undefined {
  let path: string;
  try {
    path = createDraftFile(name, text);
  } catch {
    return undefined;
  }
  return new DraftKeptError(reason, path, resume(path), exitCode);
}

/** Whether `path` is a regular file directly in the drafts folder, owned as the folder is. */
function isOwnDraft(path: string): boolean {
  const file = resolvePath(path);
  const dir = resolvePath(draftsDir());
  if (dirname(file) !== dir) return false;
  const info = Deno.lstatSync(file);
  return info.isFile && info.uid === Deno.uid();
}

/** Read a file that must be UTF-8 text: the text, or the problem that says why it is not. */
function readUtf8File(path: string): { text?: string; problem?: string } {
  try {
    return { text: decodeUtf8Strict(Deno.readFileSync(path)) };
  } catch (error) {
    if (error instanceof NotUtf8Error) return { problem: `${path}: ${error.message}` };
    throw error;
  }
}

/**
 * The signals a terminal sends its whole foreground group for Ctrl-C and Ctrl-\, the editor
 * included, which decides what they mean (vim takes Ctrl-C as Esc): git-kb outlives them while
 * the editor runs, as git does, so that what the user saves is still read.
 */
const EDITOR_KEYS: readonly Deno.Signal[] = ["SIGINT", "SIGQUIT"];

/** How long the signal that stopped the editor is waited for, in ms (see {@link runEditor}). */
const SIGNAL_SETTLE_MS = 200;

/** Run the editor on `file`; what went wrong when it did not exit 0. */
async function runEditor(
  { program, args }: EditorCommand,
  file: string,
): Promise<string | undefined> {
  const ignore = () => {};
  const held = EDITOR_KEYS.filter((signal) => {
    try {
      Deno.addSignalListener(signal, ignore);
      return true;
    } catch {
      return false; // not a signal this platform lets a program listen for
    }
  });
  let status: Deno.CommandStatus | undefined;
  try {
    status = await new Deno.Command(program, {
      args: [...args, file],
      stdin: "inherit",
      stdout: "inherit",
      stderr: "inherit",
    }).output();
  } finally {
    // An editor the key stopped exits as the same signal reaches this process: it is let in
    // before the default (the end of this process) is back.
    if (status?.signal) await new Promise((resolve) => setTimeout(resolve, SIGNAL_SETTLE_MS));
    for (const signal of held) Deno.removeSignalListener(signal, ignore);
  }
  if (status.success) return undefined;
  return status.signal
    ? `the editor ${shellQuote(program)} was stopped by ${status.signal}`
    : `the editor ${shellQuote(program)} exited with code ${status.code}`;
}

/** What a check of the edited text found: the value to save, or the problems. */
export interface DraftCheck<T> {
  value?: T;
  problems: Problem[];
}

/** An editing session: what to open, how to check it, what to say. */
export interface EditRequest<T> {
  /** The text the editor opens on. */
  text: string;
  /** The start of the draft's file name, e.g. the entry's id. */
  name: string;
  /** What is being edited, for messages: "Entry kb-7q2mx". */
  what: string;
  /** Check the text (notes and all) the user saved. */
  check(text: string): Promise<DraftCheck<T>>;
  /** The command that carries on from the draft at `path`, quoted to be pasted. */
  resume(path: string): string;
  /**
   * What the command can do without an editor, for the message when there is none (by default:
   * give the fields with flags, as `add` and `edit` take them).
   */
  instead?: string;
  /**
   * The file `text` was read from when it is a draft to carry on: edited in place when it is one
   * of the drafts folder's own files, else copied to a new draft.
   */
  from?: string;
}

/** Edited text that passed its check, still in its draft file until it is saved. */
export class Draft<T> {
  readonly #request: EditRequest<T>;
  /** The draft file. */
  readonly path: string;
  /** What the user wrote. */
  readonly text: string;
  /** What the check made of it. */
  readonly value: T;
  constructor(request: EditRequest<T>, path: string, text: string, value: T) {
    this.#request = request;
    this.path = path;
    this.text = text;
    this.value = value;
  }

  /** Remove the draft file: what it held is saved. */
  discard(): void {
    removeDraft(this.path);
  }

  /**
   * Keep the draft with `reason` (and `problems`) as notes at its top, and throw the
   * {@link DraftKeptError} that says where it is.
   */
  keep(reason: string, problems: readonly Problem[] = [], exitCode: ExitCode = EXIT.failed): never {
    return keepDraft(this.#request, this.path, this.text, reason, problems, exitCode);
  }
}

function removeDraft(path: string): void {
  try {
    Deno.removeSync(path);
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
  }
}

/**
 * Put `notes` at the top of the draft at `path`, which holds `text`: the whole new file or none
 * of it, so that a full disk never cuts short what the user typed. Why it failed, else undefined.
 */
function writeNotes(path: string, text: string, notes: readonly string[]): string | undefined {
  try {
    writeFileAtomic(path, withNotes(text, notes), { mode: PRIVATE_FILE_MODE });
    return undefined;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

function keepDraft<T>(
  request: EditRequest<T>,
  path: string,
  text: string,
  reason: string,
  problems: readonly Problem[] = [],
  exitCode: ExitCode = EXIT.failed,
): never {
  const unwritten = writeNotes(path, text, problemNotes(reason, problems));
  const details = [
    reason,
    ...problems.length ? [formatProblems([...problems])] : [],
    ...unwritten
      ? [`(these reasons could not be added to the draft, which is as you saved it: ${unwritten})`]
      : [],
  ].join("\n");
  throw new DraftKeptError(details, path, request.resume(path), exitCode);
}

/**
 * A draft resumed where no editor is set (fixed by hand, say), checked as it is: its entry when
 * it is valid, else the draft kept with the problems, as after an editor round.
 */
async function checkAsItIs<T>(request: EditRequest<T>, path: string): Promise<Draft<T>> {
  const text = request.text;
  const result = await request.check(text).catch((error: Error): DraftCheck<T> => {
    return keepDraft(request, path, text, `${request.what} was not saved: ${error.message}`);
  });
  if (!result.problems.length) return new Draft(request, path, text, result.value as T);
  return keepDraft(request, path, text, notSavedBecause(request.what, result.problems), [
    ...result.problems,
  ]);
}

function isBlank(text: string): boolean {
  return text.split("\n").every((line) => !line.trim() || line.startsWith("#"));
}

/**
 * Open the editor on `request.text` until what the user saves passes `request.check`. On a
 * terminal the editor reopens, up to {@link MAX_EDITOR_ROUNDS} times, with the problems as notes
 * at the top; without one, or when the user saves the same text again, the draft is kept
 * ({@link DraftKeptError}). An untouched text that fails, or an emptied file, saves nothing and
 * keeps no draft unless an earlier round holds something the user typed. With no editor, a draft
 * being resumed (`request.from`) is checked as it is; anything else throws {@link NoEditorError}
 * before writing anything.
 */
export async function editUntilValid<T>(request: EditRequest<T>): Promise<Draft<T>> {
  const editor = editorCommand();
  if (!editor && request.from === undefined) throw new NoEditorError(request.instead);
  const reused = request.from !== undefined && isOwnDraft(request.from);
  const path = reused ? request.from! : createDraftFile(request.name, request.text);
  if (!editor) return await checkAsItIs(request, path);
  const interactive = Deno.stdin.isTerminal();
  const untouched = stripNotes(request.text);
  /** What the user saved in the last round that failed its check. */
  let typed: string | undefined;
  for (let round = 1;; round++) {
    const failure = await runEditor(editor, path).catch((error) => {
      // A draft carried on from holds what the user wrote before: it stays.
      if (!reused && typed === undefined) removeDraft(path);
      throw error instanceof Deno.errors.NotFound
        ? new EditorNotFoundError(editor, request.instead)
        : error;
    });
    const read = readUtf8File(path);
    if (read.text === undefined) {
      const reason = `${request.what} was not saved: ${read.problem}`;
      throw new DraftKeptError(reason, path, request.resume(path));
    }
    const text = read.text;
    const changed = stripNotes(text) !== (typed === undefined ? untouched : stripNotes(typed));
    if (failure) {
      const reason = `${request.what} was not saved: ${failure}`;
      if (!reused && typed === undefined && !changed) {
        removeDraft(path);
        throw new Error(reason);
      }
      return keepDraft(request, path, text, reason);
    }
    if (isBlank(text)) {
      const reason = `${request.what} was not saved: the file was left empty`;
      if (typed === undefined) {
        removeDraft(path);
        throw new Error(reason);
      }
      return keepDraft(request, path, typed, reason);
    }
    const result = await request.check(text).catch((error: Error): DraftCheck<T> => {
      return keepDraft(request, path, text, `${request.what} was not saved: ${error.message}`);
    });
    if (!result.problems.length) return new Draft(request, path, text, result.value as T);
    const reason = notSavedBecause(request.what, result.problems);
    if (!reused && typed === undefined && !changed) {
      removeDraft(path);
      throw new Error(`${reason} (the text was not changed):\n${formatProblems(result.problems)}`);
    }
    if (!interactive || !changed || round >= MAX_EDITOR_ROUNDS) {
      return keepDraft(request, path, text, reason, result.problems);
    }
    if (writeNotes(path, text, problemNotes(reason, result.problems))) {
      return keepDraft(request, path, text, reason, result.problems);
    }
    typed = text;
  }
}
