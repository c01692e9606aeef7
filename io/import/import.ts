/**
 * `git-kb import`'s work: read the source folder, mask the credentials in its notes (but in the
 * notes the user allowed), plan the entries against the knowledge base's own, leave out every
 * note that could not be saved (with why: a credential the masking missed, a value the contract
 * refuses), and save the rest in one commit through the save pipeline (one push, one
 * reindex). A dry run plans and reports without writing.
 *
 * @module
 */
import {
  bytesOverLimit,
  checkEntryFields,
  type Entry,
  parseEntryText,
  type Problem,
  toEntry,
} from "../../core/entry/entry.ts";
import { frontmatterOf, type SourceNote } from "../../core/import/note.ts";
import { join } from "../../core/path.ts";
import { claudeImports } from "../../core/import/agent_rules.ts";
import { type KindNote, readFolderNotes, type SourceKind } from "../../core/import/kinds.ts";
import { kernelRuleCost, LIMITS } from "../../core/entry/schema.ts";
import {
  type ExistingEntry,
  folderKey,
  type ImportChange,
  IMPORTED_FROM,
  type ImportPlan,
  planImport,
  sourceFile,
} from "../../core/import/plan.ts";
import { SECRET_LABELS } from "../../core/text/secrets.ts";
import { describeFileSecret, entrySecrets, fileSecrets } from "../../core/entry/secrets.ts";
import { listEntryFiles, readKbFile } from "../kb.ts";
import type { ChangesResult } from "../save/request.ts";
import { entryPaths, newId } from "../save/entry_files.ts";
import { saveChanges } from "../save/save.ts";
import { readKbSettings } from "../kb_settings.ts";
import { PushError } from "../save/publish.ts";
import { sameBytes } from "../save/attachments.ts";
import {
  inFolder,
  readSourceFolder,
  type SourceFolder,
  SPLIT_NOTE,
  SYMLINK,
  tooLargeNote,
} from "./source.ts";
import {
  attachmentLookup,
  attachmentPath,
  MAX_ATTACHMENT_BYTES,
  type MissingAttachment,
  noteNameLookup,
  resolveAttachments,
} from "../../core/import/attachments.ts";
import { type MaskedSecret, maskNoteSecrets } from "../../core/import/mask.ts";
import { type LinkTarget, namingLeftOut, NOTE_FILE } from "../../core/import/wikilinks.ts";
import { realPathOr } from "../disk.ts";
import { plural } from "../../core/text/plural.ts";
import { ifExists, readSeenFile } from "../fs.ts";
import { uncommittedFiles } from "../save/repo_state.ts";
import { IMPORT_SUBJECT } from "../../core/import/edited_here.ts";
import { editedSinceImport } from "./edited_here.ts";

/** What to import, and where. */
export interface ImportRequest {
  kbDir: string;
  /** The folder of notes. */
  folder: string;
  /** The folder's kind as the user named it; detected when undefined. */
  kind?: SourceKind;
  /** Plan and report without writing anything. */
  dryRun?: boolean;
  /**
   * Update an entry edited in the knowledge base since its last import too, replacing those edits
   * with the note (`--replace-edits`); by default such an entry is kept as it is and named.
   */
  replaceEdits?: boolean;
  /** Keep every note's credentials (`--allow-secret`: a private knowledge base only). */
  allowSecret?: boolean;
  /**
   * The notes whose credentials are kept (`--allow-secret-in`: a private knowledge base only),
   * each a path inside the folder or a path to the file; every other note's are masked.
   */
  allowSecretIn?: readonly string[];
}

/** What an import did (or, in a dry run, would do). */
export interface ImportReport extends ImportPlan {
  kind: SourceKind;
  /** Index files read for the summaries they give the files they list, not imported. */
  indexes: string[];
  /**
   * Source files not imported, each with the reason, paths inside the folder; a folder not read
   * (hidden, or node_modules) is one item, its path ending in `/`.
   */
  leftOut: { path: string; reason: string }[];
  /**
   * The files notes embed or link: those brought under `attachments/` (paths inside the folder),
   * of them those this import copies (new, or changed since the last import) and how many bytes
   * they hold, and the embeds of files not brought (made plain text) and links to them (kept as
   * written), each with why.
   */
  attachments: {
    brought: string[];
    copied: string[];
    copiedBytes: number;
    missing: MissingAttachment[];
  };
  /** Credentials masked in the notes brought in, each with its note and line in the source. */
  masked: MaskedSecret[];
  /**
   * What was changed to fit the entry format or could not be read, by note: a title cut at 200
   * characters, tags past 32 left out, frontmatter that is not YAML.
   */
  warnings: { path: string; warning: string }[];
  /** Rules their source applies always (Cursor's `alwaysApply`) made kernel rules. */
  kernel: string[];
  /** Such rules left as plain rules, since the kernel budget had no room for them. */
  kernelOverBudget: string[];
  /**
   * Entries the import would have updated that were edited in the knowledge base since their last
   * import (in a field the import writes): kept as they are, unless `replaceEdits`.
   */
  editedHere: { id: string; title: string }[];
  /**
   * Entries left as they were whose files no commit held: written by an earlier import that was
   * killed (or ran out of disk) before its commit, committed by this one.
   */
  recovered: string[];
  /** The save, when something was written and published (or there is no remote). */
  save?: ChangesResult;
  /** The error of a save committed but not pushed: the report stands, the commit is kept. */
  notPushed?: PushError;
}

/** Import a folder of notes (see the module doc). */
export async function importFolder(request: ImportRequest): Promise<ImportReport> {
  const { kbDir, folder } = request;
  const source = await readSourceFolder(folder, kbDir);
  const kind = request.kind ?? source.kind;
  const allowSecret = request.allowSecret === true;
  const allowedNotes = notesNamed(folder, request.allowSecretIn ?? [], source.notes);
  const keeps = (sourcePath: string) => allowSecret || allowedNotes.has(sourceFile(sourcePath));
  const { notes: maskedNotes, masked } = maskNoteSecrets(source.notes, keeps);
  const leftOut = [...source.leftOut, ...importsOutside(source.notes)];
  const taken = new Map(entryPaths(kbDir));
  const fresh = () => {
    const id = newId(taken);
    taken.set(id, "");
    return id;
  };
  const key = folderKey(realPathOr(folder));
  const read = readFolderNotes(kind, maskedNotes);
  leftOut.push(...read.leftOut);
  const attachmentBytes = new Map<string, Uint8Array>();
  const bytesOf = (path: string) =>
    attachmentBytes.get(path) ?? attachmentBytes.set(path, readAttachment(folder, path)).get(path)!;
  const scan = allowSecret ? undefined : {
    bytesOf,
    keep: (await readKbSettings(kbDir)).shared
      ? "this knowledge base is shared, so it keeps none"
      : "or keep it in this private knowledge base with --allow-secret",
  };
  const { notes, attachments: embedded } = withAttachments(read.notes, source.others, key, scan);
  const files = embedded.brought.map((path) => ({
    source: path,
    path: attachmentPath(key, path),
    bytes: bytesOf(path),
  })).filter(({ path, bytes }) => !sameBytes(ifExists(() => readKbBytes(kbDir, path)), bytes));
  const attachments = {
    ...embedded,
    copied: files.map((file) => file.source),
    copiedBytes: files.reduce((sum, file) => sum + file.bytes.length, 0),
  };
  // A wikilink to a file of the folder not brought names that file, with why: it names a file.
  const linkedFiles = new Set(
    embedded.missing.filter((file) => file.linked).map((file) => `${file.path}\0${file.target}`),
  );
  const fileNotBrought = (path: string, name: string) => linkedFiles.has(`${path}\0${name}`);
  const indexes = read.indexes;
  const existing = existingEntries(kbDir);
  const dendron = kind === "dendron";
  const firstPlan = planImport(notes, existing, fresh, key, dendron);
  const refused = refusals(firstPlan.changes, keeps, source.notes);
  for (const [path, reason] of refused) leftOut.push({ path, reason });
  // Planned again without the notes left out, so that a wikilink to one of them is named as
  // unresolved instead of becoming a link to an entry that is not saved.
  const planned = refused.size
    ? planImport(
      notes.filter((note) => !refused.has(note.sourcePath)),
      existing,
      fresh,
      key,
      dendron,
    )
    : firstPlan;
  const edited = request.replaceEdits
    ? new Set<string>()
    : await editedSinceImport(kbDir, planned.changes);
  const plan = {
    ...planned,
    changes: planned.changes.filter((change) => !edited.has(change.entry.id)),
    updated: planned.updated.filter((id) => !edited.has(id)),
  };
  const kept = plan.changes;
  const candidates = new Set(
    notes.filter((note) => note.alwaysApply).map((note) => note.sourcePath),
  );
  const brought = new Set(attachments.brought);
  const kernel = offerKernel(kept, candidates, existing);
  const recovered: ImportChange[] = [];
  for (const change of await uncommittedWrites(kbDir, plan.unchanged, existing)) {
    // Left by an earlier import, perhaps one with --allow-secret: refused as any note would be.
    const reason = saveRefusal(change.entry, allowSecret);
    if (!reason) recovered.push(change);
    else leftOut.push({ path: String(change.entry.extra.imported_from), reason });
  }
  const notBrought = new Set(leftOut.map((file) => file.path));
  const report: ImportReport = {
    ...plan,
    unresolved: namingLeftOut(
      plan.unresolved.filter((link) => !fileNotBrought(sourceFile(link.sourcePath), link.name)),
      leftOutNotes(leftOut, notes),
    ),
    kind,
    indexes,
    leftOut: leftOut.filter((file) => !brought.has(file.path)),
    attachments,
    // A note left out after it was read (too large as an entry) brings no credential in.
    masked: masked.filter((found) => !notBrought.has(found.path)),
    warnings: notes.flatMap((note) =>
      note.warnings.map((warning) => ({ path: note.sourcePath, warning }))
    ),
    ...kernel,
    editedHere: planned.changes.filter((change) => edited.has(change.entry.id))
      .map(({ entry }) => ({ id: entry.id, title: entry.title })),
    recovered: recovered.map((change) => change.entry.id),
  };
  if (request.dryRun || !kept.length && !recovered.length && !files.length) return report;
  // Its real name, so that `import .` or `import ..` says which folder came in.
  const folderName = realPathOr(folder).replace(/\/+$/, "").split("/").pop() || folder;
  const saving = saveChanges({
    kbDir,
    message: `${IMPORT_SUBJECT}${folderName} (${report.added.length} added, ` +
      `${report.updated.length} updated` +
      (recovered.length ? `, ${recovered.length} left uncommitted before` : "") +
      (files.length ? `, ${plural(files.length, "attachment", "attachments")})` : ")"),
    changes: [...kept, ...recovered],
    files: files.map(({ path, bytes }) => ({ path, bytes })),
    allowSecret: allowSecret || allowedNotes.size > 0,
  });
  try {
    report.save = await saving;
  } catch (error) {
    if (!(error instanceof PushError)) throw error;
    report.notPushed = error;
  }
  return report;
}

/**
 * The notes of the folder left out, by path, with the title and aliases of those that were read
 * (a note refused at the save), for naming the note a wikilink names when it is one of them.
 */
function leftOutNotes(
  leftOut: ImportReport["leftOut"],
  notes: readonly KindNote[],
): Omit<LinkTarget, "id">[] {
  const read = new Map(notes.map((note) => [note.sourcePath, note]));
  return leftOut.filter((file) => NOTE_FILE.test(sourceFile(file.path)))
    .map(({ path }) => ({
      sourcePath: path,
      title: read.get(path)?.title ?? "",
      aliases: read.get(path)?.aliases ?? [],
    }));
}

/**
 * The notes with their embeds resolved against the folder's other files (see
 * core/import/attachments.ts): a file past {@link MAX_ATTACHMENT_BYTES}, a symbolic link or a file
 * whose path holds a backslash is not brought, nor, when `scan` gives the bytes of a file (no
 * `--allow-secret`), a file that holds a credential: the reason then ends with `scan.keep`, whether
 * and how it could be kept.
 */
function withAttachments(
  notes: readonly KindNote[],
  others: SourceFolder["others"],
  key: string,
  scan?: { bytesOf: (path: string) => Uint8Array; keep: string },
): {
  notes: KindNote[];
  attachments: Omit<ImportReport["attachments"], "copied" | "copiedBytes">;
} {
  const info = new Map(others.map((file) => [file.path, file]));
  const lookup = attachmentLookup(others.map((file) => file.path));
  const refusal = (path: string) => {
    const file = info.get(path)!;
    if (file.symlink) return SYMLINK;
    // git-kb reads `\` as a folder separator: the copy would land elsewhere, maybe outside.
    if (path.includes("\\")) return "its name holds a backslash; rename it without one";
    if (file.size > MAX_ATTACHMENT_BYTES) {
      return `larger than ${MAX_ATTACHMENT_BYTES / 1024 / 1024} MiB`;
    }
    if (!scan) return undefined;
    const [secret] = fileSecrets(scan.bytesOf(path));
    return secret
      ? `it holds ${describeFileSecret(secret)}; remove it from the file and import again ` +
        `(${scan.keep})`
      : undefined;
  };
  const isNote = noteNameLookup(notes.map((note) => sourceFile(note.sourcePath)));
  const brought = new Set<string>();
  const missing: MissingAttachment[] = [];
  const resolved = notes.map((note) => {
    const notePath = sourceFile(note.sourcePath);
    const found = resolveAttachments(note.body, notePath, key, lookup, refusal, isNote);
    for (const path of found.brought) brought.add(path);
    missing.push(...found.missing);
    return found.body === note.body ? note : { ...note, body: found.body };
  });
  return { notes: resolved, attachments: { brought: [...brought].sort(), missing } };
}

/**
 * The bytes of the file `path` inside `folder`, refused when it is no longer the regular file
 * looked at (never read through a link, never waited on: see `readSeenFile`).
 */
function readAttachment(folder: string, path: string): Uint8Array {
  const absolute = inFolder(folder, path);
  const info = Deno.lstatSync(absolute);
  const bytes = info.isFile && info.size <= MAX_ATTACHMENT_BYTES
    ? readSeenFile(absolute, info, MAX_ATTACHMENT_BYTES + 1)
    : undefined;
  if (!bytes || bytes.length > MAX_ATTACHMENT_BYTES) {
    throw new Error(`${absolute} changed while it was imported; import again`);
  }
  return bytes;
}

/** The bytes of the file at `path` in the knowledge base `kbDir` (a relative path). */
function readKbBytes(kbDir: string, path: string): Uint8Array {
  return Deno.readFileSync(join(kbDir, path));
}

/**
 * Make each kernel candidate a kernel rule while the kernel budget has room for it, counting the
 * knowledge base's own active kernel rules first; the others stay plain rules.
 */
function offerKernel(
  changes: readonly ImportChange[],
  candidates: ReadonlySet<string>,
  existing: readonly ExistingEntry[],
): { kernel: string[]; kernelOverBudget: string[] } {
  const changed = new Set(changes.map((change) => change.entry.id));
  let spent = existing
    .filter(({ entry }) => entry.kernel && entry.status === "active" && !changed.has(entry.id))
    .reduce((sum, { entry }) => sum + kernelRuleCost(entry), 0);
  const kernel: string[] = [];
  const kernelOverBudget: string[] = [];
  for (const { entry } of changes) {
    if (!candidates.has(String(entry.extra.imported_from)) || entry.kernel) continue;
    const cost = kernelRuleCost(entry);
    if (spent + cost > LIMITS.kernelBudgetChars) {
      kernelOverBudget.push(entry.id);
      continue;
    }
    spent += cost;
    entry.kernel = true;
    kernel.push(entry.id);
  }
  return { kernel, kernelOverBudget };
}

/**
 * The `@imports` of each CLAUDE.md that name a file outside the imported folder: not followed
 * (an import reads only the folder it is given), and named so they can be imported on their own.
 */
function importsOutside(notes: readonly SourceNote[]): ImportReport["leftOut"] {
  const leftOut: ImportReport["leftOut"] = [];
  for (const note of notes) {
    if (!/(^|\/)CLAUDE(\.local)?\.md$/.test(note.path)) continue;
    const folder = note.path.includes("/") ? note.path.slice(0, note.path.lastIndexOf("/")) : "";
    for (const target of claudeImports(note.text)) {
      const resolved = join(folder, target);
      if (target.startsWith("~") || target.startsWith("/") || resolved.startsWith("..")) {
        leftOut.push({
          path: `${note.path} @${target}`,
          reason: "imports a file outside this folder; import that file's folder on its own",
        });
      }
    }
  }
  return leftOut;
}

/**
 * The entries of `unchanged` (ids: what the import would write is on disk already) whose files
 * git has no commit of as they are, untracked or modified: an import that was killed or ran out
 * of disk between writing them and committing left them, and every later import would call
 * them unchanged and never commit them. Each becomes a change that writes the same text again,
 * so this import's commit holds it.
 */
async function uncommittedWrites(
  kbDir: string,
  unchanged: readonly string[],
  existing: readonly ExistingEntry[],
): Promise<ImportChange[]> {
  const ids = new Set(unchanged);
  const mine = existing.filter(({ entry }) => ids.has(entry.id));
  if (!mine.length) return [];
  const files = await uncommittedFiles(kbDir, mine.map(({ path }) => path));
  const dirty = new Set(files.map(({ path }) => path));
  return mine.filter(({ path }) => dirty.has(path))
    .map(({ entry, path, text }) => ({ path, entry, previousText: text }));
}

/** The entries the knowledge base has now, read as the index reads them. */
function existingEntries(kbDir: string): ExistingEntry[] {
  const existing: ExistingEntry[] = [];
  for (const path of listEntryFiles(kbDir).entries) {
    try {
      const text = readKbFile(kbDir, path);
      const { entry } = toEntry(parseEntryText(text, path));
      if (entry) existing.push({ entry, path, text });
    } catch {
      // A file the index leaves out is named by `git-kb doctor`, not by an import.
    }
  }
  return existing;
}

/**
 * The notes `named` names, by their paths inside `folder`: each a path inside it, or a path to the
 * file (absolute, or from the working folder). Throws for a name that is no note of the folder.
 */
function notesNamed(
  folder: string,
  named: readonly string[],
  notes: readonly SourceNote[],
): Set<string> {
  const paths = new Set(notes.map((note) => note.path));
  const root = realPathOr(folder);
  const found = new Set<string>();
  for (const name of named) {
    const inside = name.replace(/^\.\//, "");
    const real = realPathOr(name);
    const relative = real.startsWith(`${root}/`) ? real.slice(root.length + 1) : undefined;
    const path = paths.has(inside) ? inside : relative;
    if (!path || !paths.has(path)) {
      throw new Error(
        `--allow-secret-in ${name}: no note of ${folder} has that path; give its path inside ` +
          "the folder, as the import's report names it",
      );
    }
    found.add(path);
  }
  return found;
}

/**
 * The planned changes that cannot be saved, by the source path of their note, with why; `notes`
 * are the folder's notes as written.
 */
function refusals(
  changes: readonly ImportChange[],
  keeps: (sourcePath: string) => boolean,
  notes: readonly SourceNote[],
): Map<string, string> {
  const written = new Map(notes.map((note) => [note.path, note.text]));
  const refused = new Map<string, string>();
  for (const { entry } of changes) {
    const from = String(entry.extra[IMPORTED_FROM]);
    const reason = saveRefusal(entry, keeps(from), written.get(from));
    if (reason) refused.set(from, reason);
  }
  return refused;
}

/**
 * Why a planned entry cannot be saved: a credential in it (unless `allowSecret`), or a value the
 * contract refuses. `note` is the text of the note it comes from, as written, when known.
 */
function saveRefusal(entry: Entry, allowSecret: boolean, note?: string): string | undefined {
  const [secret] = allowSecret ? [] : entrySecrets(entry);
  if (secret) {
    // The path inside the folder is the note's file name: only a rename takes the value out.
    const [where, remove] = secret.field === IMPORTED_FROM
      ? ["in its file name", "rename the file"]
      : [
        secret.field === "body"
          ? `on line ${secret.fieldLine} of its body`
          : `in its ${secret.field}`,
        "remove it from the note",
      ];
    return `holds ${SECRET_LABELS[secret.kind]} (${secret.masked}) ${where}; ${remove} and ` +
      "import again, or keep it with --allow-secret-in <path> in a private knowledge base";
  }
  const bytes = bytesOverLimit(entry.body);
  if (bytes !== undefined) {
    // Its text over the limit as written: the note's size is the cause, not what the import
    // added; said by the file's size, as a note too large to read is.
    if (note !== undefined && bytesOverLimit(frontmatterOf(note, []).body) !== undefined) {
      return tooLargeNote(new TextEncoder().encode(note).length);
    }
    return `is ${bytes} bytes as an entry (its description put first, its links written as ` +
      `entry ids); the limit is ${LIMITS.maxBodyBytes}. ${SPLIT_NOTE}`;
  }
  const problems: Problem[] = checkEntryFields(entry);
  if (problems.length) {
    return problems.map((problem) => `${problem.field} ${problem.message}`).join("; ");
  }
  return undefined;
}
