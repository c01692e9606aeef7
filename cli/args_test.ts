import { assert, assertEquals, assertMatch, assertThrows } from "@std/assert";
import { oneOf, parseCommand, positiveInt, UsageError, wholeNumberFrom } from "./args.ts";

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
  assertEquals(values, { limit: "3", tag: ["git", "ci/cd"], json: true, help: true });
  assertEquals(positionals, ["rotate token", "-", "x"]);
});

Deno.test("parseCommand takes everything after -- as positionals, and values that look like flags", () => {
  const { values, positionals } = parseCommand(["--limit", "--json", "--", "--tag", "-x"], OPTIONS);
  assertEquals(values, { limit: "--json" });
  assertEquals(positionals, ["--tag", "-x"]);
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
    const error = assertThrows(() => parseCommand([...args], OPTIONS), UsageError);
    assert(message.test(error.message));
  }
});

Deno.test("an unknown option where a command takes arguments says how to give one that starts with a dash", () => {
  const takes = { positionals: { name: "<folder>", min: 1 } };
  const error = assertThrows(() => parseCommand(["-notes"], OPTIONS, takes), UsageError);
  assertEquals(error.problems, [
    'unknown option "-notes"; an argument that starts with a dash goes after --: -- -notes',
    "missing <folder>",
  ]);
  const quoted = assertThrows(() => parseCommand(["-my notes"], OPTIONS, takes), UsageError);
  assertMatch(quoted.problems[0], /goes after --: -- '-my notes'$/);
  const none = assertThrows(
    () => parseCommand(["-notes"], OPTIONS, { positionals: { name: "<id>", max: 0 } }),
    UsageError,
  );
  assertEquals(none.problems, ['unknown option "-notes"']);
  assertThrows(() => parseCommand(["--limt"], OPTIONS, takes), UsageError, "did you mean --limit?");
  for (const option of ["--bogus", "-x"]) {
    const typo = assertThrows(() => parseCommand([option, "a"], OPTIONS, takes), UsageError);
    assertEquals(typo.problems, [`unknown option "${option}"`]);
  }
});

Deno.test("positiveInt accepts whole numbers from 1 and names the option otherwise", () => {
  assertEquals(positiveInt(undefined, "limit", 10), 10);
  assertEquals(positiveInt("7", "limit", 10), 7);
  for (const bad of ["0", "-1", "1.5", "x", ""]) {
    assertThrows(() => positiveInt(bad, "limit", 10), Error, "--limit takes a whole number");
  }
});

Deno.test("parseCommand reports every mistake of a call at once", () => {
  const error = assertThrows(() =>
    parseCommand(["--bogus", "--json=yes", "-x", "stray", "--limit"], OPTIONS, {
      positionals: { name: "<id>", max: 0 },
    })
  );
  assert(error instanceof UsageError);
  assertEquals(error.problems, [
    'unknown option "--bogus"',
    "--json takes no value",
    'unknown option "-x"',
    "--limit needs a value",
    'unexpected argument "stray"',
  ]);
});

Deno.test("parseCommand checks positionals against the command's shape", () => {
  const one = { positionals: { name: "<id>", min: 1, max: 1 } };
  assertEquals(parseCommand(["kb-aaaaa"], OPTIONS, one).positionals, ["kb-aaaaa"]);
  assertMatch(String(assertThrows(() => parseCommand([], OPTIONS, one))), /: missing <id>$/);
  assertMatch(
    String(assertThrows(() => parseCommand(["a", "b", "c"], OPTIONS, one))),
    /: unexpected arguments "b", "c"$/,
  );
  assertMatch(
    String(
      assertThrows(() =>
        parseCommand(["a"], OPTIONS, { positionals: { name: "<query>", min: 2 } })
      ),
    ),
    /missing <query>: give at least 2/,
  );
  assertEquals(parseCommand(["a", "b"], OPTIONS).positionals, ["a", "b"], "no shape: any");
});

Deno.test("parseCommand: required options, value checks and a near option's name", () => {
  const options = {
    title: { type: "string", required: true },
    limit: { type: "string", check: wholeNumberFrom(1) },
    type: { type: "string", check: oneOf(["rule", "note"], "type") },
  } as const;
  const error = assertThrows(() =>
    parseCommand(["--limit", "0", "--type", "recipe", "--titel", "x"], options)
  );
  assert(error instanceof UsageError);
  assertEquals(error.problems, [
    '--limit takes a whole number of at least 1, not "0"',
    '--type "recipe" is not a type; use one of rule, note',
    'unknown option "--titel"; did you mean --title?',
    "--title is required",
  ]);
  assertEquals(parseCommand(["--title", "T", "--limit", "2"], options).values, {
    title: "T",
    limit: "2",
  });
});

Deno.test("a blank --kb is refused, not read as no --kb (which would reach another knowledge base)", () => {
  for (const args of [["--kb", ""], ["--kb=  "]]) {
    const error = assertThrows(() => parseCommand(args, OPTIONS), UsageError);
    assertEquals(error.problems, [
      "--kb needs a folder, and the value given is blank (a variable not set?)",
    ]);
  }
  assertEquals(parseCommand(["--kb", "kb"], OPTIONS).values, { kb: "kb" });
});
