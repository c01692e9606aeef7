/**
 * The credentials entries and the files saved with them (attachments) hold, as the save pipeline
 * sees them: a problem for each (field or file, line, what it is, masked), unless `--allow-secret`
 * keeps them in a private knowledge base, and then a warning for each one kept.
 *
 * @module
 */
import type { Problem } from "../../core/entry/entry.ts";
import {
  describeFileSecret,
  describeSecret,
  entrySecrets,
  fileSecrets,
} from "../../core/entry/secrets.ts";
import { type KbSettings, readKbSettings, sharedReason } from "../kb_settings.ts";
import type { AttachmentFile } from "./attachments.ts";
import type { Change } from "./request.ts";
import type { ValidationRequest } from "./validate.ts";

/** The words after "remove it" in a refusal: whether and how a credential may be kept. */
function keepingStep(settings: KbSettings, keepSecret: string | undefined): string {
  if (settings.shared) {
    return keepSecret === undefined
      ? `; --allow-secret is refused here: this knowledge base is shared (${
        sharedReason(settings)
      })`
      : `; no credential is kept in this knowledge base: it is shared (${sharedReason(settings)})`;
  }
  return keepSecret === undefined
    ? ", or keep it in this private knowledge base: run the command again with --allow-secret " +
      "(add, edit and import take it)"
    : "; this tool never keeps one: only the user can keep it in this private knowledge base, " +
      `by running ${keepSecret} and writing it in there`;
}

/** Why a credential may not be committed, before {@link keepingStep}. */
const STAYS = "a credential committed here stays in the history of every clone: remove it " +
  "(keep it in a password manager or an environment variable)";

/**
 * The credentials of an entry, each a problem naming what it is (masked) and where: its line in
 * the body, or its field (the entry is not written, so no line of a file is named), unless
 * `--allow-secret` keeps them in a private knowledge base. The settings are read only when there
 * is something to decide.
 */
export async function secretProblems(request: ValidationRequest): Promise<Problem[]> {
  const { kbDir, entry, allowSecret, keepSecret } = request;
  const secrets = entrySecrets(entry);
  if (!secrets.length) return [];
  const settings = await readKbSettings(kbDir);
  if (allowSecret && !settings.shared) return [];
  const step = keepingStep(settings, keepSecret);
  return secrets.map((secret) => ({
    field: secret.field,
    message: `holds ${describeSecret(secret)}; ${STAYS}${step}`,
  }));
}

/**
 * The credentials of the attachments `files`, each a problem naming what it is (masked) and where,
 * unless `--allow-secret` keeps them in a private knowledge base: an import or a promote that
 * brings a file along is a save of that file too.
 */
export async function attachmentSecretProblems(
  kbDir: string,
  files: readonly AttachmentFile[],
  allowSecret: boolean,
): Promise<Problem[]> {
  const found = files.flatMap(({ path, bytes }) =>
    fileSecrets(bytes).map((finding) => describeFileSecret(finding, path))
  );
  if (!found.length) return [];
  const settings = await readKbSettings(kbDir);
  if (allowSecret && !settings.shared) return [];
  const step = keepingStep(settings, undefined);
  return found.map((what) => ({ field: "attachment", message: `holds ${what}; ${STAYS}${step}` }));
}

/**
 * One warning for each credential an entry of `changes`, or a file of `files`, keeps by
 * `--allow-secret`.
 */
export function keptSecretWarnings(
  changes: readonly Change[],
  files: readonly AttachmentFile[] = [],
): string[] {
  const kept = [
    ...changes.flatMap(({ entry, path }) =>
      entry ? entrySecrets(entry).map((secret) => describeSecret(secret, path)) : []
    ),
    ...files.flatMap(({ path, bytes }) =>
      fileSecrets(bytes).map((finding) => describeFileSecret(finding, path))
    ),
  ];
  return kept.map((what) =>
    `kept ${what} (--allow-secret, a private knowledge base); ` +
    "anyone who can read this repository or a clone of it can read it"
  );
}
