/**
 * A knowledge base whose `entries/` cannot be written: `add`, `edit` and `import` say so in a line
 * naming the folder (never a temp file's name), commit and write nothing, and keep what the user
 * typed. Root ignores permission bits, so as root the folder is made immutable instead (chattr).
 */
import { assert, assertEquals, assertMatch } from "@std/assert";
import { join } from "@std/path/posix/join";
import { git, makeKb, runCli, show, snapshot, writeFolder } from "./helpers.ts";

/** Make `folder` unwritable to this user (root too); returns what makes it writable again. */
async function lockFolder(folder: string): Promise<() => Promise<void>> {
  if (Deno.uid() !== 0) {
    await Deno.chmod(folder, 0o555);
    return () => Deno.chmod(folder, 0o755);
  }
  const chattr = (flag: string) => new Deno.Command("chattr", { args: [flag, folder] }).output();
  const locked = await chattr("+i");
  assert(locked.success, `chattr +i ${folder}: ${new TextDecoder().decode(locked.stderr)}`);
  return async () => void await chattr("-i");
}

const CANNOT_WRITE =
  /^git-kb (add|edit|import): cannot write in (\S+) \((Operation not permitted|Permission denied)\), so nothing was written or committed; make the folder writable/;

Deno.test("an unwritable entries folder: add, edit and import name it, write nothing, keep the text", async () => {
  await using kb = await makeKb();
  const entries = join(kb.dir, "entries");
  const vault = join(kb.root, "vault");
  await writeFolder(vault, { "note.md": "# Imported note\n\nSome words to import.\n" });
  const head = await git(kb.dir, "rev-parse", "HEAD");
  const before = await snapshot(kb.dir, [".git"]);
  const unlock = await lockFolder(entries);
  try {
    const typed = "Words typed on stdin that exist nowhere else.";
    const added = await runCli(
      ["add", "--title", "Locked out", "--type", "note", "--body-file", "-"],
      { env: kb.env, stdin: typed },
    );
    const edited = await runCli(["edit", "kb-2yb6n", "--add-tag", "x"], { env: kb.env });
    const imported = await runCli(["import", vault], { env: kb.env });
    for (
      const [result, command] of [[added, "add"], [edited, "edit"], [imported, "import"]] as const
    ) {
      assertEquals(result.code, 1, show(result));
      const match = CANNOT_WRITE.exec(result.stderr);
      assert(match, show(result));
      assertEquals([match[1], match[2]], [command, entries]);
      assert(!result.stderr.includes(".tmp"), `no temp file's name: ${show(result)}`);
      const next = Deno.uid() === 0 ? `ls -ld ${entries}` : `chmod u+w ${entries}`;
      assert(result.stderr.includes(next), show(result));
    }
    const draft = /kept in (\S+\.md)/.exec(added.stderr)?.[1];
    assert(draft, show(added));
    assertMatch(await Deno.readTextFile(draft), new RegExp(typed));
    assertMatch(added.stderr, /git-kb add --from-draft \S+\.md/);
  } finally {
    await unlock();
  }
  assertEquals(await git(kb.dir, "rev-parse", "HEAD"), head, "nothing was committed");
  assertEquals(await snapshot(kb.dir, [".git"]), before, "nothing was written");
  assertEquals(await git(kb.dir, "status", "--porcelain"), "");
});
