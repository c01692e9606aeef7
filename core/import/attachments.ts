/**
 * The files notes embed (images, PDFs), pure: `![[diagram.png]]`, `![[scan.pdf|300]]`,
 * `![alt](img/x.png)` and `![alt](<img/x y.png>)` outside code. An embed is resolved as Obsidian
 * does: a wikilink embed by its path inside the folder, else by its file name anywhere in it (the
 * shortest path first); a markdown embed relative to the note, else from the folder's top (one
 * from the site's root, `/x.png`, in a Hugo site's `static/` too), else, when it names a file
 * without a folder, by its name as a wikilink embed is; a `#…` after the file is not part of its
 * name in either. Each embed of a file brought along points at its copy under
 * `attachments/<folder key>/`; an embed of a file that is not brought (not found, too large, a
 * link) becomes plain text naming it, so no entry points at a file that is not there. An embed
 * of a note is left as written, a Dendron note's (`![[dendron.topic.git#summary]]`,
 * `![[dendron://vault/tags.scope.edit]]`, `![[Install Node.js|dendron.ref.cli]]`) too, though its
 * name ends as a file's would.
 * A link to a file that is no note, `[[shot.png|see the screenshot]]` or `[the spec](spec.pdf)`
 * (found as an embed's file is), brings the file along too and points at its copy, a markdown
 * link after its text; one to a file not brought is left as written, and named with why.
 *
 * @module
 */
import { dirname, join } from "../path.ts";
import { ADDRESS, decodedTarget, NOTE_FILE, replaceOutsideCode } from "./wikilinks.ts";

/** The folder of a knowledge base that holds the files imported notes embed. */
export const ATTACHMENTS_DIR = "attachments";

/** The largest file an import brings along: 10 MiB. */
export const MAX_ATTACHMENT_BYTES = 10 * 1024 * 1024;

/** An embed whose file is not brought along, and why. */
export interface MissingAttachment {
  /** The note's path inside the imported folder. */
  path: string;
  /** The embed's target as written. */
  target: string;
  reason: string;
  /** A link to the file, not an embed of it: left as written, not made plain text. */
  linked?: true;
}

/** What the embeds of a note need: files to bring, and embeds that name none. */
export interface NoteAttachments {
  body: string;
  /** The source paths (inside the imported folder) of the files the body now points at. */
  brought: string[];
  missing: MissingAttachment[];
}

/** A wikilink to a file, `[[file]]` with an optional `#page` and `|size` or `|text` after it. */
const WIKILINK = "\\[\\[([^\\]|#\\n]+?)([#|][^\\]\\n]*)?\\]\\]";

/** A markdown link's target after its text, `](file)` or `](<file>)`, with an optional title. */
const TARGET = '\\]\\((?:<([^>\\n]+)>|([^)\\s]+))(?:\\s+"[^"\\n]*")?\\)';

/**
 * An embed: a wikilink one, `![[file]]` (group 1) with an optional `#page` and `|size` (group 2),
 * or a markdown one, `![alt](file)` or `![alt](<file>)` with an optional title (groups 3 to 5).
 */
const EMBED = new RegExp(`!${WIKILINK}|!\\[([^\\]\\n]*)${TARGET}`, "g");

/**
 * A link to a file, not an embed of it: a wikilink, `[[manual.pdf]]` or `[[shot.png|see it]]`, or
 * a markdown link, `[the spec](files/spec.pdf)`, whose text holds no link of its own; in the
 * groups of {@link EMBED}.
 */
const FILE_LINK = new RegExp(`(?<!!)${WIKILINK}|(?<!!)\\[([^\\[\\]\\n]*)${TARGET}`, "g");

/** What follows a wikilink's file: its `#…` (group 1) and its `|…` (group 2). */
const AFTER_FILE = /^(#[^|]*)?(?:\|(.*))?$/;

/** The ending of a file's name in a link: `.png`, `.pdf`. */
const FILE_ENDING = /\.[a-z0-9]{1,8}$/i;

/**
 * A lookup of the folder's attachment files: by path inside the folder, then by file name (the
 * shortest path of that name first), as Obsidian resolves `![[name]]`.
 */
export function attachmentLookup(files: readonly string[]): {
  byPath: (path: string) => string | undefined;
  byName: (name: string) => string | undefined;
} {
  const paths = new Map(files.map((path) => [path.toLowerCase(), path]));
  const names = new Map<string, string>();
  for (const path of [...files].sort((a, b) => a.length - b.length || a.localeCompare(b))) {
    const name = path.slice(path.lastIndexOf("/") + 1).toLowerCase();
    if (!names.has(name)) names.set(name, path);
  }
  return {
    byPath: (path) => paths.get(path.toLowerCase()),
    byName: (name) => names.get(name.slice(name.lastIndexOf("/") + 1).toLowerCase()),
  };
}

/**
 * Whether a name in an embed names one of the notes at `paths` (paths inside the folder): by its
 * path or its file name, without `.md`, in any case (`dendron.topic.git`,
 * `dendron://vault/tags.scope.edit`).
 */
export function noteNameLookup(paths: readonly string[]): (name: string) => boolean {
  const names = new Set(paths.flatMap((path) => {
    const name = path.replace(NOTE_FILE, "").toLowerCase();
    return [name, name.slice(name.lastIndexOf("/") + 1)];
  }));
  return (name) => {
    const key = name.trim().toLowerCase();
    return names.has(key) || names.has(key.slice(key.lastIndexOf("/") + 1));
  };
}

/** `path` as a link target: each segment percent-encoded where markdown needs it. */
function linkTarget(path: string): string {
  return path.split("/").map((segment) => encodeURIComponent(segment)).join("/");
}

/** Where the copy of the source file `path` goes in the knowledge base, for the folder `key`. */
export function attachmentPath(folderKey: string, path: string): string {
  return `${ATTACHMENTS_DIR}/${folderKey}/${path}`;
}

/**
 * Resolve the embeds of `body`, the note at `notePath` (see the module doc). `files` finds a
 * file of the folder; `refusal` says why a found file is not brought (undefined: it is); `isNote`
 * says whether a name no file has names a note of the folder.
 */
export function resolveAttachments(
  body: string,
  notePath: string,
  folderKey: string,
  files: ReturnType<typeof attachmentLookup>,
  refusal: (path: string) => string | undefined,
  isNote: (name: string) => boolean = () => false,
): NoteAttachments {
  const brought: string[] = [];
  const missing: MissingAttachment[] = [];
  // `fragment` is what followed the file's name (`#page=3`): kept on the copy's address, or in
  // the text that names a file not brought (a Dendron note's `#summary,1:#*` too).
  const point = (target: string, found: string | undefined, alt: string, fragment = "") => {
    const reason = found ? refusal(found) : "not found in the folder";
    if (!found || reason) {
      missing.push({ path: notePath, target, reason: reason ?? "" });
      // The file stays named though the alt text says something else: a reader can find it.
      const file = `${target}${fragment}`;
      const named = alt && alt !== target ? `${alt} (${file})` : file;
      return `[${named}: not imported, ${reason}]`;
    }
    if (!brought.includes(found)) brought.push(found);
    return `![${alt}](../${linkTarget(attachmentPath(folderKey, found))}${fragment})`;
  };
  // A wikilink's file by its path, else by its name; a markdown link's relative to the note, else
  // from the folder's top, else (named without a folder) by its name.
  const byWikilink = (target: string) => files.byPath(target) ?? files.byName(target);
  const byMarkdown = (target: string) => {
    const relative = join(dirname(notePath), target);
    const fromTop = target.replace(/^\/+/, "");
    return (relative.startsWith("../") ? undefined : files.byPath(relative)) ??
      files.byPath(fromTop) ??
      // From the site's root, a Hugo site serves its static/ folder (`/ox-hugo/x.png`).
      (target.startsWith("/") ? files.byPath(`static/${fromTop}`) : undefined) ??
      (target.includes("/") ? undefined : files.byName(target));
  };
  // The line comes with its code spans held out; a name is looked up and reported as written.
  const resolveLine = (line: string, restore: (text: string) => string) =>
    line.replace(
      EMBED,
      (whole, name?: string, heldAfter = "", heldAlt?: string, angled?: string, plain?: string) => {
        const [after, alt] = [restore(heldAfter), restore(heldAlt ?? "")];
        if (name !== undefined) {
          const target = restore(name).trim();
          if (NOTE_FILE.test(target) || !FILE_ENDING.test(target)) return whole;
          const found = byWikilink(target);
          // A Dendron embed writes its text first, `![[Install Node.js|dendron.ref.cli#x]]`.
          const textFirst = /^\|([^#|]+)/.exec(after)?.[1] ?? "";
          if (!found && (ADDRESS.test(target) || isNote(target) || isNote(textFirst))) {
            return whole;
          }
          // A `|size` (or alt text) goes to the alt text, where Obsidian reads a markdown embed's.
          const [fragment, shown] = AFTER_FILE.exec(after)!.slice(1);
          return point(target, found, shown ? `${target}|${shown}` : target, fragment ?? "");
        }
        const written = restore(angled ?? plain ?? "");
        // An embedded note is another matter (transclusion): left as written, as an address is.
        if (ADDRESS.test(written) || written.startsWith("#") || NOTE_FILE.test(written)) {
          return whole;
        }
        // A `#…` after the file is no part of its name (`x.png#interface`, a publishing hint), but
        // part of the embed: kept after the copy's address.
        const target = decodedTarget(written.replace(/#.*$/, ""));
        return point(target, byMarkdown(target), alt, /#.*$/.exec(written)?.[0]);
      },
    );
  // A link to a file of the folder that is brought along points at its copy, as an embed does;
  // one to a file not found or not brought is left as written (a wikilink to a file not found is
  // then reported as a link that names no note; one to a file not brought is named with why).
  const linkTo = (target: string, text: string, found: string | undefined, fragment = "") => {
    if (!found) return undefined;
    const reason = refusal(found);
    if (reason !== undefined) {
      missing.push({ path: notePath, target, reason, linked: true });
      return undefined;
    }
    if (!brought.includes(found)) brought.push(found);
    return `[${text}](../${linkTarget(attachmentPath(folderKey, found))}${fragment})`;
  };
  const linkLine = (line: string, restore: (text: string) => string) =>
    line.replace(
      FILE_LINK,
      (
        whole,
        name?: string,
        heldAfter = "",
        heldText?: string,
        angled?: string,
        plain?: string,
      ) => {
        if (name !== undefined) {
          const target = restore(name).trim();
          if (NOTE_FILE.test(target) || !FILE_ENDING.test(target) || isNote(target)) return whole;
          const [fragment, shown] = AFTER_FILE.exec(restore(heldAfter))!.slice(1);
          return linkTo(target, shown || target, byWikilink(target), fragment) ?? whole;
        }
        const written = restore(angled ?? plain ?? "");
        const target = decodedTarget(written.replace(/#.*$/, ""));
        if (ADDRESS.test(written) || NOTE_FILE.test(target) || !FILE_ENDING.test(target)) {
          return whole;
        }
        const fragment = /#.*$/.exec(written)?.[0];
        return linkTo(target, restore(heldText ?? ""), byMarkdown(target), fragment) ?? whole;
      },
    );
  const embedded = replaceOutsideCode(body, /!\[/, resolveLine);
  return { body: replaceOutsideCode(embedded, /\[/, linkLine), brought, missing };
}
