/**
 * The entry field flags shared by `add` and `edit`, and how they change an entry.
 *
 * @module
 */
import type { Entry, Link } from "../core/entry.ts";
import { ACTIVITIES, ENTRY_TYPES, LINK_RELS, STATUSES } from "../core/schema.ts";
import { UsageError } from "./args.ts";

/** parseArgs options for entry fields. */
export const ENTRY_OPTIONS = {
  title: { type: "string" },
  type: { type: "string" },
  tag: { type: "string", multiple: true },
  alias: { type: "string", multiple: true },
  "applies-to": { type: "string", multiple: true },
  kernel: { type: "boolean" },
  "no-kernel": { type: "boolean" },
  status: { type: "string" },
  source: { type: "string" },
  link: { type: "string", multiple: true },
  body: { type: "string" },
  "body-file": { type: "string" },
  json: { type: "boolean" },
} as const;

/** Help lines for the entry field flags. */
export const ENTRY_FLAGS_HELP = `  --title <text>         one-line summary
  --type <type>          ${ENTRY_TYPES.join(", ")}
  --tag <tag>            a tag (repeat, or comma-separate: --tag git,ci/cd)
  --alias <word>         an extra keyword: abbreviation or synonym (repeatable)
  --applies-to <kind>    ${ACTIVITIES.join(", ")} (repeatable)
  --kernel, --no-kernel  a rule whose body goes into every prompt (keep it short)
  --status <status>      ${STATUSES.join(", ")}
  --source <url>         where it came from
  --link <rel>:<id>      ${LINK_RELS.join(", ")} (repeatable), e.g. --link related:kb-1a2b3
  --body <text>          the markdown body
  --body-file <path>     read the body from a file, or - for stdin
  --json                 print the result as JSON`;

/** Values parsed from the entry flags. */
export type EntryFlagValues = {
  title?: string;
  type?: string;
  tag?: string[];
  alias?: string[];
  "applies-to"?: string[];
  kernel?: boolean;
  "no-kernel"?: boolean;
  status?: string;
  source?: string;
  link?: string[];
  body?: string;
  "body-file"?: string;
};

function list(values: string[] | undefined): string[] | undefined {
  return values?.flatMap((value) => value.split(",")).map((value) => value.trim()).filter(Boolean);
}

function parseLink(spec: string): Link {
  const match = /^([a-z-]+):(.+)$/.exec(spec.trim());
  if (!match) throw new UsageError(`--link "${spec}" must be <rel>:<id>, e.g. related:kb-1a2b3`);
  return { rel: match[1] as Link["rel"], to: match[2].trim() };
}

/** Read the body the flags point at: `--body`, or `--body-file` (a path, or - for stdin). */
export async function bodyFromFlags(values: EntryFlagValues): Promise<string | undefined> {
  if (values.body !== undefined && values["body-file"] !== undefined) {
    throw new UsageError("give --body or --body-file, not both");
  }
  if (values.body !== undefined) {
    return values.body.endsWith("\n") ? values.body : `${values.body}\n`;
  }
  const file = values["body-file"];
  if (file === undefined) return undefined;
  if (file === "-") return await new Response(Deno.stdin.readable).text();
  try {
    return Deno.readTextFileSync(file);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) {
      throw new UsageError(`--body-file ${file} does not exist`);
    }
    throw error;
  }
}

/** Whether any field flag was given. */
export function hasFieldFlags(values: EntryFlagValues): boolean {
  const fields: (keyof EntryFlagValues)[] = [
    "title",
    "type",
    "tag",
    "alias",
    "applies-to",
    "kernel",
    "no-kernel",
    "status",
    "source",
    "link",
    "body",
    "body-file",
  ];
  return fields.some((field) => values[field] !== undefined);
}

/**
 * Apply the field flags to `entry` (a copy is returned). Lists given by flags replace the
 * entry's lists; vocabulary checks are the save pipeline's job, so every problem is reported
 * at once.
 */
export function applyFieldFlags(entry: Entry, values: EntryFlagValues, body?: string): Entry {
  if (values.kernel && values["no-kernel"]) {
    throw new UsageError("give --kernel or --no-kernel, not both");
  }
  const next: Entry = { ...entry, extra: { ...entry.extra } };
  if (values.title !== undefined) next.title = values.title.trim();
  if (values.type !== undefined) next.type = values.type as Entry["type"];
  if (values.status !== undefined) next.status = values.status as Entry["status"];
  if (values.source !== undefined) next.source = values.source.trim() || undefined;
  next.tags = list(values.tag) ?? next.tags;
  next.aliases = list(values.alias) ?? next.aliases;
  next.appliesTo = (list(values["applies-to"]) as Entry["appliesTo"]) ?? next.appliesTo;
  next.links = values.link?.map(parseLink) ?? next.links;
  if (values.kernel) next.kernel = true;
  if (values["no-kernel"]) next.kernel = false;
  if (body !== undefined) next.body = body;
  return next;
}

/** Today as YYYY-MM-DD in UTC. */
export function today(): string {
  return new Date().toISOString().slice(0, 10);
}
