/**
 * The README as a manual of what runs: its first screen gives exactly the two commands a new
 * user runs (the demo and every test), CI runs that test command as written, and every command it
 * shows names a task, a git-kb command and options that exist, and every file it links is there.
 */
import { assert, assertEquals, assertMatch } from "@std/assert";
import { join } from "@std/path/posix/join";
import { COMMANDS } from "../app/registry.ts";
import { COMMON_OPTIONS } from "../cli/args.ts";
import denoJson from "../deno.json" with { type: "json" };
import { ROOT } from "./helpers.ts";

const README = await Deno.readTextFile(join(ROOT, "README.md"));

/** The commands of each fenced `sh` block, a `\`-continued line joined, comments cut. */
function shellCommands(markdown: string): string[][] {
  const blocks = [...markdown.matchAll(/^```sh\n([\s\S]*?)^```$/gm)].map((match) => match[1]);
  return blocks.map((block) =>
    block.replaceAll("\\\n", " ").split("\n")
      .map((line) => line.replace(/\s+#.*$/, "").trim())
      .filter(Boolean)
  );
}

/** The words of a command line, quotes taken off (no command here needs more than that). */
function wordsOf(line: string): string[] {
  return [...line.matchAll(/"([^"]*)"|'([^']*)'|(\S+)/g)].map((m) => m[1] ?? m[2] ?? m[3]);
}

Deno.test("the first screen: exactly the demo and the test command, and CI runs that test command", async () => {
  const [first] = shellCommands(README);
  assertEquals(first, ["./deno task demo", "./deno task test"]);
  const firstScreen = README.split("\n").slice(0, 25).join("\n");
  assert(firstScreen.includes("./deno task demo"), "the demo is on the first screen");
  const ci = await Deno.readTextFile(join(ROOT, ".ci", "run"));
  assertMatch(ci, /for task in test test:e2e; do/);
  assertMatch(ci, /NO_COLOR=1 \.\/deno task "\$task"/);
  assertMatch(ci, /echo "\$\{passed\} passed, \$\{failed\} failed"/);
});

Deno.test("every task the README names is a deno.json task", () => {
  const tasks = new Set(Object.keys(denoJson.tasks));
  const named = [...README.matchAll(/(?:\.\/)?deno task ([\w:-]+)/g)].map((match) => match[1]);
  assert(named.length >= 5, named.join(" "));
  for (const task of named) assert(tasks.has(task), `deno task ${task} is not a task`);
});

Deno.test("every git-kb command the README shows is a command, with options it declares", async () => {
  const lines = shellCommands(README).flat()
    .filter((line) => line.startsWith("git-kb ") || line.startsWith("./deno task "));
  assert(lines.length >= 15, lines.join("\n"));
  for (const line of lines) {
    const words = wordsOf(line);
    const [name, ...args] = words[0] === "git-kb" ? words.slice(1) : words.slice(2);
    if (!(name in COMMANDS)) {
      assert(name in denoJson.tasks, `${line}: ${name} is neither a command nor a task`);
      continue;
    }
    const { command } = await COMMANDS[name as keyof typeof COMMANDS].load();
    const known = new Set([...Object.keys(command.options), ...Object.keys(COMMON_OPTIONS)]);
    for (const word of args.filter((arg) => arg.startsWith("--"))) {
      const option = word.slice(2).split("=")[0];
      assert(known.has(option), `${line}: ${name} has no --${option}`);
    }
  }
});

Deno.test("every file the README links to exists", async () => {
  const links = [...README.matchAll(/\]\(([^)#:]+)(?:#[^)]*)?\)/g)].map((match) => match[1]);
  assert(links.length >= 5, links.join(" "));
  for (const link of links) {
    assert(await Deno.stat(join(ROOT, link)).then(() => true, () => false), link);
  }
});
