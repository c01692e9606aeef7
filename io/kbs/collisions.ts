/**
 * Doctor's check across the configured knowledge bases: which ones are read, and every id that
 * two of them hold (get and edit then ask for `name:id` instead of picking one).
 *
 * @module
 */
import type { Finding } from "../../core/setup/finding.ts";
import { join } from "../../core/path.ts";
import { qualifyId } from "../../core/kbs/qualified.ts";
import { shellQuote } from "../../core/shell/quote.ts";
import { isConfigFile, type KbLocation, type KnowledgeBase, resolveKbs } from "../config.ts";
import { NotAKbError } from "../kb.ts";
import { entryPaths } from "../save/entry_files.ts";
import { isFolder } from "../disk.ts";
import { kbCommand, selfCommand } from "../self_command.ts";

/** The most colliding ids named one by one; the rest are counted. */
const NAMED_LIMIT = 10;

/**
 * The knowledge bases read beside `location` (none for `--kb` and `KB_DIR`, which name one) and
 * a warning for each id found in more than one of them, with where each file is.
 */
export function idCollisionFindings(location: KbLocation): Finding[] {
  if (!isConfigFile(location.source)) return [];
  const { kbs } = resolveKbs();
  if (kbs.length < 2) return [];
  const holders = new Map<string, { name: string; file: string }[]>();
  const unread: KnowledgeBase[] = [];
  for (const kb of kbs) {
    let paths: Map<string, string>;
    try {
      paths = entryPaths(kb.kbDir);
    } catch (error) {
      if (!(error instanceof NotAKbError)) throw error;
      unread.push(kb);
      continue;
    }
    for (const [id, path] of paths) {
      const list = holders.get(id) ?? [];
      list.push({ name: kb.name, file: join(kb.kbDir, path) });
      holders.set(id, list);
    }
  }
  const collisions = [...holders].filter(([, list]) => list.length > 1);
  const names = kbs.map((kb, at) => `${kb.name}${at ? "" : " (default)"}`).join(", ");
  const findings: Finding[] = [{
    level: "ok",
    check: "kbs",
    message: `${kbs.length} knowledge bases read: ${names}`,
  }];
  for (const { name, kbDir } of unread) {
    const again = `set it up again with ${selfCommand()} init <clone-url|path> --name ${name}`;
    findings.push({
      level: "warn",
      check: "kbs",
      message: isFolder(kbDir)
        ? `${name} is configured but its folder ${kbDir} holds no knowledge base; run ` +
          `${selfCommand()} doctor --kb ${shellQuote(kbDir)}, or ${again}`
        : `${name} is configured but its folder ${kbDir} does not exist; drop it from the ` +
          `config with ${kbCommand("doctor", name, "--fix", "--write")}, or ${again}`,
    });
  }
  for (const [id, list] of collisions.slice(0, NAMED_LIMIT)) {
    findings.push({
      level: "warn",
      check: "kbs",
      message: `${id} is in ${list.map((item) => `${item.name} (${item.file})`).join(" and ")}: ` +
        `get and edit ask for ${list.map((item) => qualifyId(item.name, id)).join(" or ")}; ` +
        "give one a new id (in its file name and its id: field) so that it resolves alone",
    });
  }
  if (collisions.length > NAMED_LIMIT) {
    findings.push({
      level: "warn",
      check: "kbs",
      message: `${collisions.length - NAMED_LIMIT} more ids are in two knowledge bases`,
    });
  }
  return findings;
}
