/**
 * `git-kb export`'s work: write git-kb's block (core/export/agent_files.ts) into the agent files
 * of a project, or with `check` only say which are stale. Without a list of files, AGENTS.md is
 * written, and each of the others whose agent the project already uses (CLAUDE.md exists, a
 * `.cursor/` or `.windsurf/` folder exists).
 *
 * The user's files are never damaged: every byte outside git-kb's block is kept, and the file is
 * replaced atomically (a temp file beside it, given the old file's mode, renamed over it). What
 * cannot be edited that way is refused, with the reason and what to do: a symbolic link (except
 * one to another agent file of the project, so a CLAUDE.md linked to AGENTS.md stays linked), a
 * folder or special file (a FIFO would hang the read), a file with more than one hard link (a
 * rename would split them), a file that is not UTF-8 (decoding would re-encode it), a folder that
 * leads out of the project, and a damaged block (see `blockDamage`).
 *
 * @module
 */
import { dirname, isWithin, join, resolveFrom } from "../../core/path.ts";
import {
  AGENT_FILES,
  type AgentFileName,
  blockDamage,
  exportedFile,
  type ExportedRule,
} from "../../core/export/agent_files.ts";
import { shellQuote } from "../../core/shell/quote.ts";
import { existingFolderOf, statOf } from "../disk.ts";
import { ifExists, lstatOrUndefined, readSeenFile, writeFileAtomic } from "../fs.ts";

/** What to export, and where. */
export interface ExportRequest {
  /** The project folder the agent files live in; the current folder when undefined. */
  projectDir?: string;
  /** The kernel rules to write. */
  rules: readonly ExportedRule[];
  /**
   * The knowledge base the block's commands name with `--kb`: one that git-kb run without it does
   * not read. Undefined when it does.
   */
  kbDir?: string;
  /** Which files; undefined for AGENTS.md and the agents the project already uses. */
  files?: readonly AgentFileName[];
  /** Only compare: write nothing. */
  check?: boolean;
}

/** What happened to one agent file. */
export interface ExportedFileReport {
  name: AgentFileName;
  /** Its path inside the project. */
  path: string;
  /**
   * `written`/`unchanged` on export; `missing` (never exported), `stale` or `unchanged` with
   * check; `refused` when the file cannot be edited safely (see
   * {@link ExportedFileReport.problem}).
   */
  state: "written" | "unchanged" | "missing" | "stale" | "refused";
  /** Kernel rules left out to keep the file inside its agent's limit. */
  leftOut: string[];
  /** With `refused`: why, naming the file (`CLAUDE.md is a symbolic link to …`). */
  problem?: string;
  /** With `refused`: what to do before exporting again. */
  fix?: string;
}

/** An agent file git-kb may edit: where to write, its text and its mode. */
interface EditableFile {
  /** The path written: the agent file's, or the other agent file a link of it points at. */
  target: string;
  /** The file's text ("" when it does not exist yet). */
  text: string;
  /** Whether the file exists. */
  exists: boolean;
  /** The file's permission bits to keep; undefined for a new file (the umask's default). */
  mode?: number;
}

/** Why an agent file cannot be edited safely, and what to do. */
class Refusal {
  constructor(readonly problem: string, readonly fix: string) {}
}

const strictUtf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/** Export the block into each agent file (see the module doc). */
export function exportAgentFiles(request: ExportRequest): ExportedFileReport[] {
  const projectDir = request.projectDir ?? Deno.cwd();
  const folder = statOf(projectDir);
  if (!folder?.isDirectory) {
    throw new Error(
      `${projectDir} ${folder ? "is not a folder" : "does not exist"}; give --dir the project's ` +
        "folder, whose agent files export writes",
    );
  }
  const names = request.files ?? filesInUse(projectDir);
  const targets = new Set<string>();
  const realProject = join(Deno.realPathSync(projectDir));
  return names.flatMap((name): ExportedFileReport[] => {
    const { path } = AGENT_FILES[name];
    const file = editableFile(
      realProject,
      path,
      request.projectDir ? join(projectDir, path) : path,
    );
    if (file instanceof Refusal) {
      const { problem, fix } = file;
      return [{ name, path, state: "refused", leftOut: [], problem, fix }];
    }
    // Two names for one file (CLAUDE.md linked to AGENTS.md): it is written once, as the first.
    if (targets.has(file.target)) return [];
    targets.add(file.target);
    const { text, leftOut } = exportedFile(name, file.text, request.rules, request.kbDir);
    if (text === file.text) return [{ name, path, state: "unchanged", leftOut }];
    if (request.check) {
      return [{ name, path, state: file.exists ? "stale" : "missing", leftOut }];
    }
    writeFileAtomic(file.target, text, { mode: file.mode });
    return [{ name, path, state: "written", leftOut }];
  });
}

/** AGENTS.md, and each other agent file whose agent the project shows signs of using. */
function filesInUse(projectDir: string): AgentFileName[] {
  const exists = (path: string) => lstatOrUndefined(join(projectDir, path)) !== undefined;
  const names: AgentFileName[] = ["agents"];
  if (exists("CLAUDE.md")) names.push("claude");
  if (exists(".cursor")) names.push("cursor");
  if (exists(".windsurf")) names.push("windsurf");
  return names;
}

/**
 * The agent file at `path` in the project (`realProject`: its folder, links resolved), read, or
 * why it cannot be edited safely; `shown` is how messages name it (its path from the current
 * folder).
 */
function editableFile(realProject: string, path: string, shown: string): EditableFile | Refusal {
  const refuse = (reason: string, fix: string) => new Refusal(`${shown} ${reason}`, fix);
  let target = join(realProject, path);
  let info = lstatOrUndefined(target);
  if (info?.isSymlink) {
    const real = ifExists(() => join(Deno.realPathSync(target))) ?? linkToMissing(target);
    const linkedTo = Object.values(AGENT_FILES).find((file) =>
      join(realProject, file.path) === real
    );
    if (real === undefined || !linkedTo) {
      return refuse(
        `is a symbolic link ${real ? `to ${real}` : "to nothing"}, and git-kb writes through a ` +
          "link only to another agent file of the project (CLAUDE.md to AGENTS.md)",
        `replace the link with a file of its own (rm ${shellQuote(shown)}), or leave it out ` +
          "with --to",
      );
    }
    // What is refused from here on is the file the link leads to: messages name that one.
    shown = shown.slice(0, shown.length - path.length) + linkedTo.path;
    target = real;
    info = lstatOrUndefined(target);
  }
  const folder = join(Deno.realPathSync(existingFolderOf(target)));
  if (!isWithin(folder, realProject)) {
    return refuse(
      `would be written into ${folder}, outside the project, through a symbolic link`,
      `make its folder a folder of the project's own, or leave it out with --to`,
    );
  }
  if (!info) return { target, text: "", exists: false };
  if (!info.isFile) {
    return refuse(
      `is ${info.isDirectory ? "a folder" : "a special file (a FIFO, socket or device)"}, ` +
        "not a regular file",
      `move it away (mv ${shellQuote(shown)} ${shellQuote(`${shown}.old`)})`,
    );
  }
  if (info.nlink !== null && info.nlink > 1) {
    const copy = shellQuote(`${shown}.copy`);
    return refuse(
      `has ${info.nlink} hard links, and replacing it would split them from it`,
      `give it a copy of its own (cp ${shellQuote(shown)} ${copy} && mv ${copy} ` +
        `${shellQuote(shown)}), or make its other names symbolic links to it`,
    );
  }
  const bytes = readSeenFile(target, info);
  if (!bytes) {
    return refuse(
      "was replaced (by a link, a FIFO or another file) while export read it",
      `look at what is there now (ls -l ${shellQuote(shown)})`,
    );
  }
  let text: string;
  try {
    text = strictUtf8.decode(bytes);
  } catch (error) {
    if (!(error instanceof TypeError)) throw error;
    const utf8 = shellQuote(`${shown}.utf8`);
    return refuse(
      "is not UTF-8 text, and rewriting it would change its encoding",
      `convert it to UTF-8 (from Latin-1: iconv -f latin1 -t utf-8 ${shellQuote(shown)} > ` +
        `${utf8} && mv ${utf8} ${shellQuote(shown)})`,
    );
  }
  const damage = blockDamage(text);
  if (damage) return refuse(damage.reason, damage.fix);
  return { target, text, exists: true, mode: info.mode === null ? undefined : info.mode & 0o7777 };
}

/**
 * Where the link at `path` points when nothing is there yet (a CLAUDE.md linked to an AGENTS.md
 * still to be written), resolved against the real folder of the link; undefined when what it
 * points at is another link.
 */
function linkToMissing(path: string): string | undefined {
  const to = resolveFrom(Deno.realPathSync(dirname(path)), Deno.readLinkSync(path));
  return lstatOrUndefined(to) ? undefined : to;
}
