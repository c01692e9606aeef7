/**
 * Each command's help is generated from its declaration and cannot drift: every option it
 * declares has help and is named in its `--help`, and an option it does not declare is refused.
 */
import { assertEquals } from "@std/assert";
import { COMMANDS } from "../app/registry.ts";
import { COMMON_OPTIONS, helpText, parseCommand, UsageError } from "./args.ts";

for (const [name, entry] of Object.entries(COMMANDS)) {
  Deno.test(`git-kb ${name}: every declared option is in its help, an undeclared one is refused`, async () => {
    const { command, help } = await entry.load();
    assertEquals(help, helpText(command));
    assertEquals(help.startsWith(`Usage: git-kb ${name}`), true, help);
    const missing = Object.entries(command.options).filter(([option, spec]) =>
      spec.help === undefined || !new RegExp(`^  (-\\w, )?--${option}\\b`, "m").test(help)
    ).map(([option]) => option);
    assertEquals(missing, []);
    let refused: unknown;
    try {
      parseCommand(["--not-an-option-of-git-kb"], command.options, command);
    } catch (error) {
      refused = error;
    }
    assertEquals(refused instanceof UsageError, true, `git-kb ${name} took an undeclared option`);
    assertEquals((refused as UsageError).problems.slice(0, 1), [
      'unknown option "--not-an-option-of-git-kb"',
    ]);
  });
}

Deno.test("a command's help lists --kb unless it leaves it out, in one aligned column", () => {
  const options = {
    limit: { type: "string", value: "<n>", help: "at most n of them" },
    json: { type: "boolean", help: "print JSON" },
  } as const;
  const about = "Does a thing.";
  assertEquals(
    helpText({ usage: ["thing [options]", "thing --other"], about, options, notes: "Exit 0." }),
    `Usage: git-kb thing [options]
       git-kb thing --other

Does a thing.

Options:
  --limit <n>  at most n of them
  --json       print JSON
  --kb <dir>   ${COMMON_OPTIONS.kb.help}

Exit 0.`,
  );
  assertEquals(helpText({ usage: ["thing"], about, options, kb: false }).includes("--kb"), false);
  const long = { words: { type: "boolean", help: `${"word ".repeat(30)}end` } } as const;
  const wrapped = helpText({ usage: ["thing"], about, options: long, kb: false });
  for (const line of wrapped.split("\n")) assertEquals(line.length <= 80, true, line);
  assertEquals(wrapped.includes(`  --words  word word`), true, wrapped);
  assertEquals(wrapped.endsWith(`\n           word word end`), true, wrapped);
  assertEquals(
    helpText({ usage: ["thing"], about, options, kb: "yours" }).endsWith("--kb <dir>   yours"),
    true,
  );
});

Deno.test("--json names the fields it prints, in the help of each command that reports", async () => {
  const reporting = [
    "export",
    "get",
    "index",
    "stats",
    "eval",
    "selftest",
    "rm",
    "sync",
    "promote",
  ];
  const vague: string[] = [];
  for (const name of reporting) {
    const { command } = await COMMANDS[name as keyof typeof COMMANDS].load();
    const json = (command.options as Record<string, { help?: string }>).json;
    if (!/[{[]\w+/.test(json?.help ?? "")) vague.push(`${name}: ${json?.help}`);
  }
  assertEquals(vague, []);
});
