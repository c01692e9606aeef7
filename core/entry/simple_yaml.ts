/**
 * A fast path for the frontmatter git-kb itself writes: `key: plain value`, flow lists of plain
 * values, and `links:` as `- { rel: x, to: y }` lines. Anything outside that narrow shape (quotes,
 * numbers, nulls, block scalars, comments, nesting) returns undefined and goes to the YAML
 * library, so the result is always what the YAML core schema would give. It exists because
 * parsing 5,000 entries with the library costs more than the rest of an index build step.
 *
 * @module
 */

const KEY_LINE = /^([A-Za-z_][A-Za-z0-9_-]*):(?: (.*))?$/;
/** Plain scalars the core schema reads as strings: no indicators, no number, bool or null look. */
const PLAIN = /^[A-Za-z][A-Za-z0-9 _./@+:-]*$/;
const RESERVED = /^(?:true|false|null|yes|no|on|off|y|n|~)$/i;
const DATE = /^\d{4}-\d{2}-\d{2}$/;
const LINK_LINE = /^ {2}- \{ rel: ([a-z-]+), to: ([a-z0-9-]+) \}$/;

function plainString(value: string): string | undefined {
  if (DATE.test(value)) return value;
  if (!PLAIN.test(value) || value.endsWith(" ") || RESERVED.test(value)) return undefined;
  if (value.includes(" #") || value.includes(": ") || value.endsWith(":")) return undefined;
  return value;
}

function flowList(value: string): string[] | undefined {
  if (!value.startsWith("[") || !value.endsWith("]")) return undefined;
  const inner = value.slice(1, -1).trim();
  if (!inner) return [];
  const items: string[] = [];
  for (const part of inner.split(",")) {
    const item = plainString(part.trim());
    if (item === undefined) return undefined;
    items.push(item);
  }
  return items;
}

/**
 * Parse frontmatter text of the simple shape, or return undefined when it is anything else.
 *
 * @example
 * ```ts
 * parseSimpleFrontmatter("id: kb-7q2mx\ntags: [git, ci/cd]\nkernel: false\n");
 * // { id: "kb-7q2mx", tags: ["git", "ci/cd"], kernel: false }
 * ```
 */
export function parseSimpleFrontmatter(text: string): Record<string, unknown> | undefined {
  const fields: Record<string, unknown> = {};
  const lines = text.split("\n");
  if (lines[lines.length - 1] === "") lines.pop();
  for (let index = 0; index < lines.length; index++) {
    const match = KEY_LINE.exec(lines[index]);
    if (!match || Object.hasOwn(fields, match[1])) return undefined;
    const [, key, raw] = match;
    if (raw === undefined) {
      if (key !== "links") return undefined;
      const links: { rel: string; to: string }[] = [];
      while (index + 1 < lines.length && lines[index + 1].startsWith("  - ")) {
        const link = LINK_LINE.exec(lines[++index]);
        if (!link || RESERVED.test(link[1]) || !/^[a-z]/.test(link[2])) return undefined;
        links.push({ rel: link[1], to: link[2] });
      }
      if (!links.length) return undefined;
      fields.links = links;
      continue;
    }
    if (raw === "true" || raw === "false") fields[key] = raw === "true";
    else if (raw.startsWith("[")) {
      const list = flowList(raw);
      if (list === undefined) return undefined;
      fields[key] = list;
    } else {
      const value = plainString(raw);
      if (value === undefined) return undefined;
      fields[key] = value;
    }
  }
  return fields;
}
