/**
 * The entry field flags shared by `add` and `edit`, read into {@link EntryEdits}; the list flags
 * only `edit` has; the body a flag points at.
 *
 * @module
 */
import type { Link } from "../core/entry/entry.ts";
import type { EntryEdits, LinkMatch } from "../core/entry/edit.ts";
import { ACTIVITIES, ENTRY_TYPES, LINK_RELS, STATUSES } from "../core/entry/schema.ts";
import { shellCommand, shellQuote } from "../core/shell/quote.ts";
import { decodeUtf8Strict, NotUtf8Error } from "../core/text/utf8.ts";
import { type OptionSpec, type OptionValues, UsageError } from "./args.ts";
import { readFileOrStdin } from "../io/disk.ts";
import { type BodyFileFields, readBodyFile } from "../core/entry/body_file.ts";
import { EntryParseError } from "../core/entry/entry.ts";
import { ValidationError } from "../io/save/validate.ts";
import { userPath } from "../io/paths.ts";
import { assertSecretsMayBeKept } from "../io/kb_settings.ts";
import { yellow } from "./output.ts";

/** The options for entry fields, with their help. */
export const ENTRY_OPTIONS = {
  title: { type: "string", value: "<text>", help: "one-line summary" },
  type: { type: "string", value: "<type>", help: ENTRY_TYPES.join(", ") },
  tag: {
    type: "string",
    multiple: true,
    value: "<tag>",
    help: "a tag (repeat, or comma-separate: --tag git,ci/cd)",
  },
  alias: {
    type: "string",
    multiple: true,
    value: "<word>",
    help: "an extra keyword: abbreviation or synonym (repeatable)",
  },
  "applies-to": {
    type: "string",
    multiple: true,
    value: "<kind>",
    help: `${ACTIVITIES.join(", ")} (repeatable)`,
  },
  kernel: {
    type: "boolean",
    help: "a rule whose body goes into every prompt (keep it short)",
  },
  "no-kernel": { type: "boolean", help: "no longer a kernel rule" },
  status: { type: "string", value: "<status>", help: STATUSES.join(", ") },
  source: { type: "string", value: "<url>", help: "where it came from" },
  link: {
    type: "string",
    multiple: true,
    value: "<rel>:<id>",
    help: `${LINK_RELS.join(", ")} (repeatable), e.g. --link related:kb-1a2b3`,
  },
  body: { type: "string", value: "<text>", help: "the markdown body" },
  "body-file": {
    type: "string",
    value: "<path>",
    help: "read the body (UTF-8) from a file, or - for stdin",
  },
  "allow-secret": {
    type: "boolean",
    help: "keep a credential the entry holds (a private knowledge base " +
      "only; refused where git-kb.json says shared)",
  },
  json: { type: "boolean", help: "print the result as JSON" },
} as const satisfies Record<string, OptionSpec>;

/** The options that grow or shrink an entry's lists, with their help: `edit` only. */
export const LIST_EDIT_OPTIONS = {
  "add-tag": { type: "string", multiple: true, value: "<tag>", help: "the same as --tag" },
  "remove-tag": { type: "string", multiple: true, value: "<tag>", help: "take a tag out" },
  "clear-tags": { type: "boolean", help: "empty the tags first" },
  "add-alias": { type: "string", multiple: true, value: "<word>", help: "the same as --alias" },
  "remove-alias": { type: "string", multiple: true, value: "<word>", help: "take an alias out" },
  "clear-aliases": { type: "boolean", help: "empty the aliases first" },
  "add-applies-to": {
    type: "string",
    multiple: true,
    value: "<kind>",
    help: "the same as --applies-to",
  },
  "remove-applies-to": {
    type: "string",
    multiple: true,
    value: "<kind>",
    help: "take a kind out of applies_to",
  },
  "clear-applies-to": { type: "boolean", help: "empty applies_to first" },
  "add-link": {
    type: "string",
    multiple: true,
    value: "<rel>:<id>",
    help: "the same as --link",
  },
  "remove-link": {
    type: "string",
    multiple: true,
    value: "<rel>:<id>",
    help: "take that link out; --remove-link <id> every link to that entry",
  },
  "clear-links": {
    type: "boolean",
    help: "empty the links first: --clear-links --link related:kb-1a2b3 leaves exactly that link",
  },
} as const satisfies Record<string, OptionSpec>;

/** Values parsed from the entry flags and the list flags. */
export type EntryFlagValues = OptionValues<typeof ENTRY_OPTIONS & typeof LIST_EDIT_OPTIONS>;

function list(...values: (string[] | undefined)[]): string[] {
  return values.flat().flatMap((value) => value?.split(",") ?? []).map((value) => value.trim())
    .filter(Boolean);
}

function parseLink(spec: string, flag: string): Link {
  const match = /^([a-z-]+):(.+)$/.exec(spec.trim());
  if (!match) throw new UsageError(`${flag} "${spec}" must be <rel>:<id>, e.g. related:kb-1a2b3`);
  return { rel: match[1] as Link["rel"], to: match[2].trim() };
}

function parseLinkMatch(spec: string): LinkMatch {
  return spec.includes(":") ? parseLink(spec, "--remove-link") : { to: spec.trim() };
}

function kernelFlag(values: EntryFlagValues): boolean | undefined {
  if (values.kernel && values["no-kernel"]) {
    throw new UsageError("give --kernel or --no-kernel, not both");
  }
  return values.kernel ? true : values["no-kernel"] ? false : undefined;
}

/**
 * The edits the flags ask for, with `body` as the new body. Lists given by `--tag`, `--alias`,
 * `--applies-to` and `--link` are added to; the list flags remove and clear. Values are checked
 * by the save pipeline, so every problem is reported at once; only a `--link` that is not
 * `<rel>:<id>` at all is a usage error.
 */
export function editsFromFlags(values: EntryFlagValues, body?: string): EntryEdits {
  const links = [...values.link ?? [], ...values["add-link"] ?? []];
  return {
    title: values.title,
    type: values.type,
    status: values.status,
    source: values.source,
    kernel: kernelFlag(values),
    body,
    tags: {
      clear: values["clear-tags"],
      add: list(values.tag, values["add-tag"]),
      remove: list(values["remove-tag"]),
    },
    aliases: {
      clear: values["clear-aliases"],
      add: list(values.alias, values["add-alias"]),
      remove: list(values["remove-alias"]),
    },
    appliesTo: {
      clear: values["clear-applies-to"],
      add: list(values["applies-to"], values["add-applies-to"]),
      remove: list(values["remove-applies-to"]),
    },
    links: {
      clear: values["clear-links"],
      add: links.map((spec) => parseLink(spec, "--link")),
      remove: (values["remove-link"] ?? []).map(parseLinkMatch),
    },
  };
}

/** Whether any field or list flag was given. */
export function hasFieldFlags(values: EntryFlagValues): boolean {
  const names = [...Object.keys(ENTRY_OPTIONS), ...Object.keys(LIST_EDIT_OPTIONS)];
  return names.some((name) =>
    name !== "json" && name !== "allow-secret" &&
    values[name as keyof EntryFlagValues] !== undefined
  );
}

/** Read a file (or stdin for `-`) that must hold UTF-8 text; `flag` names it in errors. */
export async function readTextArgument(file: string, flag: string): Promise<string> {
  let bytes: Uint8Array;
  try {
    bytes = await readFileOrStdin(file === "-" ? file : userPath(file));
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) {
      throw new UsageError(`${flag} ${file} does not exist`);
    }
    if (error instanceof Deno.errors.IsADirectory) {
      throw new UsageError(`${flag} ${file} is a folder; give the file that holds the text`);
    }
    throw error;
  }
  try {
    return decodeUtf8Strict(bytes).replace(/^\ufeff/, "");
  } catch (error) {
    if (!(error instanceof NotUtf8Error)) throw error;
    const convert = file === "-"
      ? "iconv -f latin1 -t utf-8"
      : `${shellCommand(["iconv", "-f", "latin1", "-t", "utf-8", file])} > ${
        shellQuote(`${file}.utf8`)
      }`;
    throw new UsageError(
      `${flag} ${file === "-" ? "(stdin)" : file}: ${error.message}; nothing was saved. ` +
        `Convert it first, e.g. from Latin-1: ${convert}`,
    );
  }
}

/** A body as given inline, ending with a newline as a file's text does. */
export function bodyText(text: string): string {
  return text.endsWith("\n") ? text : `${text}\n`;
}

/** Read the body the flags point at: `--body`, or `--body-file` (a path, or - for stdin). */
export async function bodyFromFlags(values: EntryFlagValues): Promise<string | undefined> {
  if (values.body !== undefined && values["body-file"] !== undefined) {
    throw new UsageError("give --body or --body-file, not both");
  }
  if (values.body !== undefined) return bodyText(values.body);
  const file = values["body-file"];
  return file === undefined ? undefined : await readTextArgument(file, "--body-file");
}

/** Today as YYYY-MM-DD in UTC. */
export function today(): string {
  return new Date().toISOString().slice(0, 10);
}

/**
 * With `--allow-secret`, refuse it before anything is written when `kbDir` is shared (and print
 * what is wrong with its settings file); the flag as the save request takes it.
 */
export async function allowSecretFlag(
  kbDir: string,
  allow: boolean | undefined,
): Promise<boolean> {
  if (!allow) return false;
  for (const warning of await assertSecretsMayBeKept(kbDir)) {
    console.error(yellow(`warning: ${warning}`));
  }
  return true;
}

/** The `--allow-secret` of a printed command that carries on where this one stopped. */
export function allowSecretArgs(allow: boolean): string[] {
  return allow ? ["--allow-secret"] : [];
}

/** What `add` takes from a `--body-file` that opens with frontmatter, besides the flags. */
export interface FromBodyFile {
  /** The flags with each field the command line does not give taken from the file. */
  values: EntryFlagValues;
  /** The text after the frontmatter. */
  body: string;
  /** The id, dates and fields outside the contract the file gives, for the new entry. */
  entry: { id?: string; created?: string; updated?: string; extra: Record<string, unknown> };
  /** The `note:` line that says which fields came from the file and which it gave in vain. */
  note?: string;
}

/**
 * The fields of the frontmatter block `body` (the text of `--body-file` `file`) opens with, or
 * undefined when it opens with none. A block that cannot be read is a usage error; a field that
 * cannot be read as the contract has it, a {@link ValidationError}: nothing is written either way.
 */
function bodyFileFields(file: string, body: string): BodyFileFields | undefined {
  let read: BodyFileFields | undefined;
  try {
    read = readBodyFile(body, file);
  } catch (error) {
    if (!(error instanceof EntryParseError)) throw error;
    throw new UsageError(
      `--body-file ${file} opens with a frontmatter block that cannot be read ` +
        `(${error.message}); fix it, or take the block out to keep the text as the body`,
    );
  }
  if (read?.problems.length) {
    throw new ValidationError(`The frontmatter of --body-file ${file}`, read.problems);
  }
  return read;
}

/**
 * Each field a body file's frontmatter may give as a flag: the flag, the file's value, the field's
 * name, and for a list, the flag that empties it and every flag that changes it on `edit`'s
 * command line.
 */
function fileFlags(read: BodyFileFields): {
  flag: keyof EntryFlagValues;
  value: unknown;
  field: string;
  list?: { clear: keyof EntryFlagValues; flags: (keyof EntryFlagValues)[] };
}[] {
  const list = (
    name: string,
    clear: keyof EntryFlagValues,
    ...flags: (keyof EntryFlagValues)[]
  ) => ({
    clear,
    flags: [clear, ...flags, `add-${name}`, `remove-${name}`] as (keyof EntryFlagValues)[],
  });
  return [
    { flag: "title", value: read.title, field: "title" },
    { flag: "type", value: read.type, field: "type" },
    { flag: "status", value: read.status, field: "status" },
    { flag: "source", value: read.source, field: "source" },
    // `kernel: false` is given as much as `kernel: true`: it takes an entry out of the kernel.
    read.kernel === false
      ? { flag: "no-kernel", value: true, field: "kernel" }
      : { flag: "kernel", value: read.kernel, field: "kernel" },
    { flag: "tag", value: read.tags, field: "tags", list: list("tag", "clear-tags", "tag") },
    {
      flag: "alias",
      value: read.aliases,
      field: "aliases",
      list: list("alias", "clear-aliases", "alias"),
    },
    {
      flag: "applies-to",
      value: read.appliesTo,
      field: "applies_to",
      list: list("applies-to", "clear-applies-to", "applies-to"),
    },
    {
      flag: "link",
      value: read.links?.map((link) => `${link.rel}:${link.to}`),
      field: "links",
      list: list("link", "clear-links", "link"),
    },
  ];
}

/** Whether the command line gives `flag` (for `kernel` or `no-kernel`, either of the two). */
function gives(values: EntryFlagValues, flag: keyof EntryFlagValues): boolean {
  return flag === "kernel" || flag === "no-kernel"
    ? values.kernel !== undefined || values["no-kernel"] !== undefined
    : values[flag] !== undefined;
}

/** The `note:` line naming the fields taken from `file`, those the command line won over, and those left. */
function fileNote(file: string, taken: string[], overruled: string[], left: string[] = []) {
  if (!taken.length && !overruled.length && !left.length) return undefined;
  return `note: read ${taken.join(", ") || "no field"} from the frontmatter of ${file}` +
    (overruled.length ? `; the command line's ${overruled.join(", ")} won over the file's` : "") +
    (left.length ? `; the entry's ${left.join(", ")} left as they are` : "");
}

/**
 * Read `body` (the text of `--body-file`) for `add`: when it opens with a frontmatter block, its
 * fields fill in what the command line leaves out (a flag given wins, a list flag over the whole
 * list) and the body is the text after it; undefined when it does not. A block that cannot be
 * read is a usage error; a field that cannot be read as the contract has it, a
 * {@link ValidationError}: nothing is written either way.
 */
export function fromBodyFile(
  values: EntryFlagValues & { id?: string },
  body: string,
): FromBodyFile | undefined {
  const file = values["body-file"]!;
  const read = bodyFileFields(file, body);
  if (!read) return undefined;
  const merged: Record<string, unknown> = { ...values };
  const taken: string[] = [];
  const overruled: string[] = [];
  for (const { flag, value, field } of fileFlags(read)) {
    if (value === undefined) continue;
    if (gives(values, flag)) overruled.push(field);
    else {
      merged[flag] = value;
      taken.push(field);
    }
  }
  const { id, created, updated, extra } = read;
  if (id !== undefined) (values.id === undefined ? taken : overruled).push("id");
  if (created !== undefined) taken.push("created");
  if (updated !== undefined) taken.push("updated");
  taken.push(...Object.keys(extra));
  return {
    values: merged as EntryFlagValues,
    body: read.body,
    entry: { id: values.id ?? id, created, updated, extra },
    note: fileNote(file, taken, overruled),
  };
}

/**
 * Read `body` (the text of `--body-file`) for `edit` of entry `id`: when it opens with a
 * frontmatter block (an entry as `get` prints it, edited), each field it gives that the command
 * line does not touch becomes the entry's (a list whole, as the file has it: a tag taken out of
 * the file is taken out of the entry), and the body is the text after it; undefined when it
 * opens with none. The entry's dates and fields outside the contract are left as they are. A
 * block of another entry's id is a usage error, as is one that cannot be read.
 */
export function editFromBodyFile(
  values: EntryFlagValues,
  body: string,
  id: string,
): Omit<FromBodyFile, "entry"> | undefined {
  const file = values["body-file"]!;
  const read = bodyFileFields(file, body);
  if (!read) return undefined;
  if (read.id !== undefined && read.id !== id) {
    throw new UsageError(
      `--body-file ${file} opens with the frontmatter of ${read.id}, not of ${id}; give the ` +
        `file of ${id}, or take the block out to keep the text as the body`,
    );
  }
  const merged: Record<string, unknown> = { ...values };
  const taken: string[] = [];
  const overruled: string[] = [];
  for (const { flag, value, field, list } of fileFlags(read)) {
    if (value === undefined) continue;
    if ((list?.flags ?? [flag]).some((given) => gives(values, given))) overruled.push(field);
    else {
      merged[flag] = value;
      if (list) merged[list.clear] = true;
      taken.push(field);
    }
  }
  const left = [
    ...read.created === undefined ? [] : ["created"],
    ...read.updated === undefined ? [] : ["updated"],
    ...Object.keys(read.extra),
  ];
  return {
    values: merged as EntryFlagValues,
    body: read.body,
    note: fileNote(file, taken, overruled, left),
  };
}
