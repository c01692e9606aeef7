import { deepStrictEqual, throws } from "node:assert";
import { parseCommand, positiveInt, UsageError } from "./args.ts";

const OPTIONS = {
  limit: { type: "string" },
  tag: { type: "string", multiple: true },
  json: { type: "boolean" },
} as const;

Deno.test("parseCommand reads long options, inline values, repeats, aliases and positionals", () => {
  const { values, positionals } = parseCommand(
    ["rotate token", "--limit", "3", "--tag=git", "--tag", "ci/cd", "--json", "-h", "-", "x"],
    OPTIONS,
  );
  deepStrictEqual(values, { limit: "3", tag: ["git", "ci/cd"], json: true, help: true });
  deepStrictEqual(positionals, ["rotate token", "-", "x"]);
});

Deno.test("parseCommand takes everything after -- as positionals, and values that look like flags", () => {
  const { values, positionals } = parseCommand(["--limit", "--json", "--", "--tag", "-x"], OPTIONS);
  deepStrictEqual(values, { limit: "--json" });
  deepStrictEqual(positionals, ["--tag", "-x"]);
});

Deno.test("parseCommand rejects unknown options, missing values and values on flags", () => {
  for (
    const [args, message] of [
      [["--bogus"], /unknown option "--bogus"/],
      [["--bogus=1"], /unknown option "--bogus"/],
      [["-x"], /unknown option "-x"/],
      [["--limit"], /--limit needs a value/],
      [["--json=yes"], /--json takes no value/],
      [["--constructor"], /unknown option/],
    ] as const
  ) {
    throws(() => parseCommand([...args], OPTIONS), (error) => {
      return error instanceof UsageError && message.test(error.message);
    });
  }
});

Deno.test("positiveInt accepts whole numbers from 1 and names the option otherwise", () => {
  deepStrictEqual(positiveInt(undefined, "limit", 10), 10);
  deepStrictEqual(positiveInt("7", "limit", 10), 7);
  for (const bad of ["0", "-1", "1.5", "x", ""]) {
    throws(() => positiveInt(bad, "limit", 10), /--limit takes a whole number/);
  }
});
