/**
 * `@std/yaml`: parse and stringify YAML. A stand-in for the JSR package of that name (see
 * std/README.md), with its names and options, over the pinned npm `js-yaml` (from which the JSR
 * package was ported). Only what the options ask is checked here: git-kb's own refusals (YAML
 * anchors in an entry, see core/entry/entry.ts) stay with git-kb, whichever parser this is.
 *
 * @module
 */
import yaml from "js-yaml";

/** The name of a schema: which tags and implicit types a document may use. */
export type SchemaType = "failsafe" | "json" | "core" | "default" | "extended";

/** How {@link parse} reads a document. */
export interface ParseOptions {
  /** The schema to resolve values with (default `"default"`). */
  schema?: SchemaType;
  /** Let a later key overwrite an earlier one instead of throwing (default false). */
  allowDuplicateKeys?: boolean;
  /** Called with each warning the parser finds. */
  onWarning?(error: Error): void;
}

/** How {@link stringify} writes a value. */
export type StringifyOptions = {
  /** Spaces per indentation level (default 2). */
  indent?: number;
  /** Indent sequences inside mappings (default true). */
  arrayIndent?: boolean;
  /** Skip values YAML cannot hold (functions, undefined) instead of throwing (default false). */
  skipInvalid?: boolean;
  /** The nesting level from which collections are written in flow style (`[a, b]`); -1: never. */
  flowLevel?: number;
  /** The schema whose types may be written (default `"default"`). */
  schema?: SchemaType;
  /** Sort mapping keys, or sort them with this comparison. */
  sortKeys?: boolean | ((a: string, b: string) => number);
  /** The line width to fold long strings at; -1: never fold (default 80). */
  lineWidth?: number;
  /** Write an object met twice as an anchor and an alias (default true). */
  useAnchors?: boolean;
  /** Quote what older YAML parsers would read differently, such as `yes` (default true). */
  compatMode?: boolean;
  /** Leave out the spaces of flow collections (default false). */
  condenseFlow?: boolean;
};

/** The js-yaml schema of each schema name that it has. */
const SCHEMAS: Partial<Record<SchemaType, yaml.Schema>> = {
  failsafe: yaml.FAILSAFE_SCHEMA,
  json: yaml.JSON_SCHEMA,
  core: yaml.CORE_SCHEMA,
  default: yaml.DEFAULT_SCHEMA,
};

function schemaNamed(name: SchemaType = "default"): yaml.Schema {
  const schema = SCHEMAS[name];
  if (!schema) throw new TypeError(`The YAML schema "${name}" is not available here`);
  return schema;
}

/**
 * Parse `content` as one YAML document: its value, or null for an empty document. Throws a
 * `SyntaxError` naming the first problem (and its line and column) on YAML that is not valid.
 *
 * @example
 * ```ts
 * parse("tags: [a, b]", { schema: "core" }); // { tags: ["a", "b"] }
 * ```
 */
export function parse(content: string, options: ParseOptions = {}): unknown {
  const schema = schemaNamed(options.schema);
  try {
    return yaml.load(content, {
      schema,
      json: options.allowDuplicateKeys ?? false,
      onWarning: options.onWarning,
    }) ?? null;
  } catch (error) {
    if (!(error instanceof yaml.YAMLException)) throw error;
    throw new SyntaxError((error as Error).message, { cause: error });
  }
}

/**
 * Write `data` as a YAML document.
 *
 * @example
 * ```ts
 * stringify(["a", "b"], { flowLevel: 0 }); // "[a, b]\n"
 * ```
 */
export function stringify(data: unknown, options: StringifyOptions = {}): string {
  return yaml.dump(data, {
    indent: options.indent,
    noArrayIndent: options.arrayIndent === false,
    skipInvalid: options.skipInvalid,
    flowLevel: options.flowLevel,
    schema: schemaNamed(options.schema),
    sortKeys: options.sortKeys,
    lineWidth: options.lineWidth,
    noRefs: options.useAnchors === false,
    noCompatMode: options.compatMode === false,
    condenseFlow: options.condenseFlow,
  });
}
