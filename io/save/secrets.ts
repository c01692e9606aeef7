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
 * The credentials of an entry, each a problem naming its field, its line in the file and what it
 * is (masked), unless `--allow-secret` keeps them in a private knowledge base. The settings are
 * read only when there is something to decide.
 */
export async function secretProblems(request: ValidationRequest): Promise<Problem[]> {
  const { kbDir, entry, path, allowSecret } = request;
  const secrets = entrySecrets(entry);
  if (!secrets.length) return [];
  const settings = await readKbSettings(kbDir);
  if (allowSecret && !settings.shared) return [];
  const override = settings.shared
    ? `; --allow-secret is refused here: this knowledge base is shared (${sharedReason(settings)})`
    : ", or keep it in this private knowledge base: run the command again with --allow-secret " +
      "(add, edit and import take it)";
  return secrets.map((secret) => ({
    field: secret.field,
    message: `holds ${describeSecret(secret, path)}; a credential committed here stays in the ` +
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
