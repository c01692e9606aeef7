/**
 * `git-kb export` never damages the user's files, through the real CLI: what cannot be edited
 * safely (a damaged block, two blocks, a link out of the project, a FIFO, a hard-linked or
 * Latin-1 file, a folder that leads out) is left byte for byte as it was and named on one line
 * with what to do; what is edited keeps every byte outside the block and its mode.
 */
import { assert, assertEquals, assertMatch } from "@std/assert";
import { join } from "@std/path/posix/join";
import { BEGIN_MARKER, END_MARKER } from "../core/export/agent_files.ts";
import { makeKb, runCli, runCliSwappingAtLook, type RunResult, show } from "./helpers.ts";

const encoder = new TextEncoder();

/** Run export for `project` in `kb`'s environment, failing after 30 s instead of hanging. */
async function exportTo(
  kb: { env: Record<string, string> },
  project: string,
  ...args: string[]
): Promise<RunResult> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const hung = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error("export hung")), 30_000);
  });
  try {
    return await Promise.race([
      runCli(["export", "--dir", project, ...args], { env: kb.env }),
      hung,
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/** Assert export left `file` alone, byte for byte, and said why on one line naming it. */
async function assertLeftAlone(
  result: RunResult,
  file: string,
  before: Uint8Array,
  reason: RegExp,
): Promise<void> {
  assertEquals(result.code, 1, show(result));
  const line = result.stderr.split("\n").find((text) => text.includes("left alone"));
  assert(line, show(result));
  assert(line.includes(file), `the line names ${file}: ${line}`);
  assertMatch(line, reason);
  assertMatch(line, /then run git-kb export --dir /);
  const after = await Deno.readFile(file);
  assertEquals(new TextDecoder().decode(after), new TextDecoder().decode(before));
  assert(after.every((byte, index) => byte === before[index]) && after.length === before.length);
}

async function makeProject(root: string, name: string): Promise<string> {
  const project = join(root, name);
  await Deno.mkdir(project);
  return project;
}

Deno.test("export: a begin marker without its end marker is refused, run after run", async () => {
  await using kb = await makeKb();
  const project = await makeProject(kb.root, "project");
  const agents = join(project, "AGENTS.md");
  const text = `# Mine\n\n${BEGIN_MARKER}\nold block\n\n## After the block\nMy own words.\n`;
  await Deno.writeTextFile(agents, text);
  for (const run of [1, 2]) {
    const result = await exportTo(kb, project, "--to", "agents");
    await assertLeftAlone(result, agents, encoder.encode(text), /begin marker without an end/);
    assert(run);
  }
});

Deno.test("export: two blocks are refused, and --check fails on them", async () => {
  await using kb = await makeKb();
  const project = await makeProject(kb.root, "project");
  const agents = join(project, "AGENTS.md");
  await exportTo(kb, project, "--to", "agents");
  const one = await Deno.readTextFile(agents);
  // A merge kept the other branch's block too, with a rule revoked since.
  const doubled = `${one}\n${BEGIN_MARKER}\n### Revoked rule (kb-zzzzz)\n${END_MARKER}\n`;
  await Deno.writeTextFile(agents, doubled);
  const check = await exportTo(kb, project, "--to", "agents", "--check");
  await assertLeftAlone(check, agents, encoder.encode(doubled), /has 2 git-kb blocks/);
  const write = await exportTo(kb, project, "--to", "agents");
  await assertLeftAlone(write, agents, encoder.encode(doubled), /has 2 git-kb blocks/);
});

Deno.test("export: a CLAUDE.md linked out of the project is refused; one to AGENTS.md is followed", async () => {
  await using kb = await makeKb();
  const project = await makeProject(kb.root, "project");
  const gitconfig = join(kb.home, ".gitconfig");
  const secret = "[user]\n\tname = Me\n";
  await Deno.writeTextFile(gitconfig, secret);
  await Deno.symlink(gitconfig, join(project, "CLAUDE.md"));
  const result = await exportTo(kb, project, "--to", "claude");
  await assertLeftAlone(
    result,
    join(project, "CLAUDE.md"),
    encoder.encode(secret),
    /symbolic link/,
  );
  assertEquals(await Deno.readTextFile(gitconfig), secret);

  await Deno.remove(join(project, "CLAUDE.md"));
  await Deno.symlink("AGENTS.md", join(project, "CLAUDE.md"));
  const linked = await exportTo(kb, project, "--to", "claude");
  assertEquals(linked.code, 0, show(linked));
  assert((await Deno.lstat(join(project, "CLAUDE.md"))).isSymlink, "the link stays a link");
  assertMatch(await Deno.readTextFile(join(project, "AGENTS.md")), /git-kb:begin/);
});

Deno.test("export: a rules folder linked out of the project is refused", async () => {
  await using kb = await makeKb();
  const project = await makeProject(kb.root, "project");
  const outside = join(kb.root, "outside");
  await Deno.mkdir(outside);
  await Deno.mkdir(join(project, ".cursor"));
  await Deno.symlink(outside, join(project, ".cursor", "rules"));
  const result = await exportTo(kb, project, "--to", "cursor");
  assertEquals(result.code, 1, show(result));
  assertMatch(result.stderr, /git-kb\.mdc would be written into .*outside.*, outside the project/);
  assertEquals([...Deno.readDirSync(outside)].length, 0, "nothing written outside");
});

Deno.test("export: a FIFO is refused without hanging", async () => {
  await using kb = await makeKb();
  const project = await makeProject(kb.root, "project");
  const fifo = join(project, "CLAUDE.md");
  const made = await new Deno.Command("mkfifo", { args: [fifo] }).output();
  assertEquals(made.code, 0);
  const result = await exportTo(kb, project, "--to", "claude");
  assertEquals(result.code, 1, show(result));
  assertMatch(result.stderr, /CLAUDE\.md is a special file \(a FIFO/);
  assert((await Deno.lstat(fifo)).isFifo);
});

Deno.test("export: a Latin-1 file and a hard-linked file are left alone", async () => {
  await using kb = await makeKb();
  const project = await makeProject(kb.root, "project");
  const agents = join(project, "AGENTS.md");
  const latin1 = new Uint8Array([...encoder.encode("# Caf"), 0xe9, 0x0a]);
  await Deno.writeFile(agents, latin1);
  await assertLeftAlone(
    await exportTo(kb, project, "--to", "agents"),
    agents,
    latin1,
    /is not UTF-8 text.*iconv -f latin1/,
  );

  const mine = encoder.encode("# Shared notes\n");
  await Deno.writeFile(agents, mine);
  await Deno.link(agents, join(project, "notes.md"));
  await assertLeftAlone(
    await exportTo(kb, project, "--to", "agents"),
    agents,
    mine,
    /has 2 hard links/,
  );
  assertEquals((await Deno.stat(agents)).nlink, 2, "still linked");
});

Deno.test("export: a refusal through CLAUDE.md linked to AGENTS.md names AGENTS.md", async () => {
  await using kb = await makeKb();
  const project = await makeProject(kb.root, "project");
  const agents = join(project, "AGENTS.md");
  const mine = encoder.encode("# Shared notes\n");
  await Deno.writeFile(agents, mine);
  await Deno.symlink("AGENTS.md", join(project, "CLAUDE.md"));
  await Deno.link(agents, join(project, "notes.md"));
  const result = await exportTo(kb, project, "--to", "claude");
  await assertLeftAlone(result, agents, mine, /AGENTS\.md has 2 hard links/);
  // The command printed copies AGENTS.md; run on CLAUDE.md it would replace the link.
  assertMatch(result.stderr, /cp \S*AGENTS\.md/);
  assert((await Deno.lstat(join(project, "CLAUDE.md"))).isSymlink, "the link is kept");
});

Deno.test("export: every byte outside the block is kept, and the mode", async () => {
  await using kb = await makeKb();
  const project = await makeProject(kb.root, "project");
  const agents = join(project, "AGENTS.md");
  const head = "\uFEFF# Mine\r\nWindows lines.\r\n\r\n";
  const tail = "\r\n## After\r\nMore of mine, no final newline";
  await Deno.writeTextFile(agents, `${head}${BEGIN_MARKER}\nold\n${END_MARKER}\n${tail}`);
  await Deno.chmod(agents, 0o640);
  const result = await exportTo(kb, project, "--to", "agents");
  assertEquals(result.code, 0, show(result));
  const bytes = await Deno.readFile(agents);
  const text = new TextDecoder("utf-8", { ignoreBOM: true }).decode(bytes);
  assert(text.startsWith(`${head}${BEGIN_MARKER}\n`), JSON.stringify(text.slice(0, 60)));
  assert(text.endsWith(`${END_MARKER}\n${tail}`));
  assert(!text.includes("\nold\n"));
  assertEquals((await Deno.stat(agents)).mode! & 0o777, 0o640);
  assertEquals([...Deno.readDirSync(project)].map((item) => item.name).join(","), "AGENTS.md");
});

Deno.test("export: AGENTS.md swapped for a link between the look and the read is left alone, nothing read through it", async () => {
  await using kb = await makeKb();
  const project = await makeProject(kb.root, "project");
  const agents = join(project, "AGENTS.md");
  await Deno.writeTextFile(agents, "# Agents\n");
  const secret = join(kb.root, "secret.txt");
  await Deno.writeTextFile(secret, "PRIVATE KEY MATERIAL\n");
  // What anyone who can write the project folder could do between export's look and its read.
  const result = await runCliSwappingAtLook(
    ["export", "--dir", project, "--to", "agents"],
    kb.env,
    { file: agents, linkTo: secret, caller: "editableFile" },
  );
  assertEquals(result.code, 1, show(result));
  assertMatch(
    result.stderr,
    /left alone: .*AGENTS\.md was replaced .* while export read it; look at what is there now \(ls -l .*AGENTS\.md\)/,
  );
  assert((await Deno.lstat(agents)).isSymlink, "the link is left as it was");
  assertEquals(await Deno.readTextFile(secret), "PRIVATE KEY MATERIAL\n");
});
