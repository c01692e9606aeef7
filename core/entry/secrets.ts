/**
 * Credentials in an entry, found where they would be written: the entry file as the save
 * pipeline writes it is scanned part by part (each frontmatter field on its own, then the body),
 * so a finding names its field and its line in the file, and no value runs into the next field;
 * and in a file saved beside entries (an attachment). Pure: no I/O.
 *
 * @module
 */
import { type Entry, serializeEntry } from "./entry.ts";
import {
  findSecrets,
  SECRET_LABELS,
  type SecretFinding,
  type SecretKind,
} from "../text/secrets.ts";
import { decodeUtf8Strict } from "../text/utf8.ts";

/** One credential in an entry. */
export interface EntrySecret {
  /** The frontmatter field holding it (`title`, `source`, `tags`, an unknown field), or `body`. */
  field: string;
  /** Its line in the entry file as written, from 1 (the opening `---` is line 1). */
  line: number;
  /** Its line within the field, from 1: for the body, the body's own line. */
  fieldLine: number;
  /** What it is. */
  kind: SecretKind;
  /** The credential with all but a few characters hidden, safe to print. */
  masked: string;
}

/** One part of an entry file: a frontmatter field (its key line and what is under it) or the body. */
interface FilePart {
  field: string;
  /** The part's first line in the file, from 1. */
  firstLine: number;
  lines: string[];
}

/** The field a top-level frontmatter line starts (`title: …` → `title`), undefined for others. */
function fieldOf(line: string): string | undefined {
  const key = /^(?:'((?:[^']|'')*)'|"((?:[^"\\]|\\.)*)"|([^\s'"#-][^:]*)):(?:\s|$)/.exec(line);
  return key ? key[1] ?? key[2] ?? key[3] : undefined;
}

/** The parts of `text`, an entry file as {@link serializeEntry} writes it. */
function fileParts(text: string): FilePart[] {
  const lines = text.split("\n");
  const close = lines.indexOf("---", 1);
  const parts: FilePart[] = [];
  for (let index = 1; index < close; index++) {
    const field = fieldOf(lines[index]);
    if (field !== undefined || !parts.length) {
      parts.push({ field: field ?? "frontmatter", firstLine: index + 1, lines: [] });
    }
    parts.at(-1)!.lines.push(lines[index]);
  }
  parts.push({ field: "body", firstLine: close + 2, lines: lines.slice(close + 1) });
  return parts;
}

/** Every credential in `entry`, in file order, each with its field and its line in the file. */
export function entrySecrets(entry: Entry): EntrySecret[] {
  return fileParts(serializeEntry(entry)).flatMap(({ field, firstLine, lines }) =>
    findSecrets(lines.join("\n")).map(({ kind, line, masked }) => ({
      field,
      line: firstLine + line - 1,
      fieldLine: line,
      kind,
      masked,
    }))
  );
}

/**
 * `secret` in words, with where it is. In an entry written at `path`: "a GitHub token (ghp_…AB)
 * on line 7 of <path>", and for the body its line there too (" (line 2 of the body)"), as typed to
 * --body or in an editor. In an entry that was not written (no `path`), no file holds it to point
 * at: "… on line 2 of the body", or "… in the title" for a frontmatter field.
 */
export function describeSecret(secret: EntrySecret, path?: string): string {
  const what = `${SECRET_LABELS[secret.kind]} (${secret.masked})`;
  const inBody = `line ${secret.fieldLine} of the body`;
  if (path === undefined) {
    return secret.field === "body" ? `${what} on ${inBody}` : `${what} in the ${secret.field}`;
  }
  return `${what} on line ${secret.line} of ${path}${
    secret.field === "body" ? ` (${inBody})` : ""
  }`;
}

/**
 * The credentials in a file saved beside the entries (an attachment), when it reads as text
 * (UTF-8 without a NUL: a `.env`, a config, a key file a note links to); none in the bytes of an
 * image or a PDF.
 */
export function fileSecrets(bytes: Uint8Array): SecretFinding[] {
  if (bytes.includes(0)) return [];
  try {
    return findSecrets(decodeUtf8Strict(bytes));
  } catch {
    return [];
  }
}

/**
 * `finding`, a credential in a file saved beside the entries, in words: "a GitHub token (ghp_…AB)
 * on line 2", then " of <path>" when given.
 */
export function describeFileSecret(finding: SecretFinding, path?: string): string {
  const where = path === undefined ? "" : ` of ${path}`;
  return `${SECRET_LABELS[finding.kind]} (${finding.masked}) on line ${finding.line}${where}`;
}
