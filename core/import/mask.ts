/**
 * Credentials in the notes of an import, masked in place, pure: an import keeps every note, with
 * each credential the scanner finds replaced by `[REDACTED:<kind>]` in the source text itself,
 * before the note is read, so the title, the fields and the body are all masked and each finding
 * is named by its line in the source file. The notes the user allowed keep theirs.
 *
 * @module
 */
import { findSecrets, type SecretKind } from "../text/secrets.ts";
import type { SourceNote } from "./note.ts";

/** One credential masked, where it was in the source folder. */
export interface MaskedSecret {
  /** The note's path inside the imported folder. */
  path: string;
  /** Its line in the source file, from 1. */
  line: number;
  kind: SecretKind;
  /** The credential with all but a few characters hidden, safe to print. */
  masked: string;
}

/** What a masked credential reads as in the entry. */
export function redaction(kind: SecretKind): string {
  return `[REDACTED:${kind}]`;
}

/**
 * `notes` with every credential masked (see the module doc), except in the notes `keep` says the
 * user allowed; and each credential masked, in note and line order.
 */
export function maskNoteSecrets(
  notes: readonly SourceNote[],
  keep: (path: string) => boolean,
): { notes: SourceNote[]; masked: MaskedSecret[] } {
  const masked: MaskedSecret[] = [];
  const out = notes.map((note) => {
    if (keep(note.path)) return note;
    const found = findSecrets(note.text);
    if (!found.length) return note;
    let text = "";
    let from = 0;
    for (const finding of found) {
      text += note.text.slice(from, finding.start) + redaction(finding.kind);
      from = finding.end;
      masked.push({
        path: note.path,
        line: finding.line,
        kind: finding.kind,
        masked: finding.masked,
      });
    }
    return { ...note, text: text + note.text.slice(from) };
  });
  return { notes: out, masked };
}
