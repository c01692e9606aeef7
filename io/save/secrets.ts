/**
 * The credentials entries hold, as the save pipeline sees them: a problem for each (field, line,
 * what it is, masked), unless `--allow-secret` keeps them in a private knowledge base, and then
 * a warning for each one kept.
 *
 * @module
 */
import type { Problem } from "../../core/entry/entry.ts";
import { describeSecret, entrySecrets } from "../../core/entry/secrets.ts";
import { readKbSettings, sharedReason } from "../kb_settings.ts";
import type { Change } from "./request.ts";
import type { ValidationRequest } from "./validate.ts";

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
  const override = settings.shared
    ? keepSecret === undefined
      ? `; --allow-secret is refused here: this knowledge base is shared (${
        sharedReason(settings)
      })`
      : `; no credential is kept in this knowledge base: it is shared (${sharedReason(settings)})`
    : keepSecret === undefined
    ? ", or keep it in this private knowledge base: run the command again with --allow-secret " +
      "(add, edit and import take it)"
    : "; this tool never keeps one: only the user can keep it in this private knowledge base, " +
      `by running ${keepSecret} and writing it in there`;
  return secrets.map((secret) => ({
    field: secret.field,
    message: `holds ${describeSecret(secret)}; a credential committed here stays in the ` +
      "history of every clone: remove it (keep it in a password manager or an environment " +
      `variable)${override}`,
  }));
}

/** One warning for each credential an entry of `changes` keeps by `--allow-secret`. */
export function keptSecretWarnings(changes: readonly Change[]): string[] {
  return changes.flatMap(({ entry, path }) =>
    entry
      ? entrySecrets(entry).map((secret) =>
        `kept ${describeSecret(secret, path)} (--allow-secret, a private knowledge base); ` +
        "anyone who can read this repository or a clone of it can read it"
      )
      : []
  );
}
