import assert from "node:assert/strict";
import { isLauncherTarget, isOnPath, pathSetupLine, userBinDir } from "./command_link.ts";

Deno.test("the user's folder of commands is ~/.local/bin", () => {
  assert.equal(userBinDir("/home/ann"), "/home/ann/.local/bin");
});

Deno.test("a launcher target ends in bin/git-kb; anything else is the user's own", () => {
  assert.ok(isLauncherTarget("/src/git-kb/plugin/bin/git-kb"));
  assert.ok(isLauncherTarget("/h/.claude/plugins/cache/git-kb/git-kb/0.1.0/bin/git-kb"));
  assert.ok(isLauncherTarget("../../src/plugin/bin/git-kb"));
  assert.ok(!isLauncherTarget("/usr/local/lib/git-kb"));
  assert.ok(!isLauncherTarget("/opt/bin/git-kb-old"));
  assert.ok(!isLauncherTarget("/opt/mybin/git-kb"));
});

Deno.test("on PATH: an exact folder of the list, a trailing slash forgiven", () => {
  assert.ok(isOnPath("/h/.local/bin", "/usr/bin:/h/.local/bin/:/bin"));
  assert.ok(!isOnPath("/h/.local/bin", "/usr/bin:/h/.local/bin2"));
  assert.ok(!isOnPath("/h/.local/bin", undefined));
  assert.ok(!isOnPath("/h/.local/bin", ""));
  assert.ok(isOnPath("C:\\u\\bin", "C:\\x;C:\\u\\bin\\", ";"));
});

Deno.test("the PATH line goes where the user's shell reads it when a terminal opens", () => {
  const line = (file: string) => `echo 'export PATH="$HOME/.local/bin:$PATH"' >> ${file}`;
  assert.equal(pathSetupLine("/bin/zsh"), line("~/.zshrc"));
  assert.equal(pathSetupLine("/usr/local/bin/bash"), line("~/.bashrc"));
  assert.equal(pathSetupLine("/usr/bin/fish"), "fish_add_path $HOME/.local/bin");
  assert.equal(pathSetupLine("/bin/dash"), line("~/.profile"));
  assert.equal(pathSetupLine(undefined), line("~/.profile"));
});
