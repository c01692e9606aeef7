import { assert, assertEquals } from "@std/assert";
import { parseShell } from "../core/shell/words.ts";
import { commandProse } from "../core/judge/prose.ts";
import { commandPhrases } from "../core/search_augment/commands.ts";
import { HOOKS_JSON } from "../build/plugin.ts";
import { PLUGIN_HOOKS, pluginHooksJson } from "./plugin_hooks.ts";
import { HOOKS } from "./registry.ts";

Deno.test("plugin/hooks/hooks.json is what app/plugin_hooks.ts declares (`deno task build`)", () => {
  assertEquals(Deno.readTextFileSync(HOOKS_JSON), pluginHooksJson());
});

/**
 * Whether Claude Code would start `verb` for the Bash `command`, as its rule matching reads a
 * pattern (2.1.197): `*` is any text, the rest literal, matched against the whole of each
 * subcommand's words joined by a space. Subcommands come from core/shell/words.ts here.
 */
function starts(verb: string, command: string): boolean {
  const rules = PLUGIN_HOOKS.find((hook) => hook.verb === verb)?.bash ?? [];
  const patterns = rules.map((rule) =>
    new RegExp(
      `^${rule.split("*").map((part) => part.replace(/[.+?^${}()|[\]\\]/g, "\\$&")).join(".*")}$`,
      "s",
    )
  );
  return parseShell(command).some(({ words }) =>
    patterns.some((pattern) => pattern.test(words.join(" ")))
  );
}

const PROSE = "Explain why the retry loop backs off before the third attempt, not after it";

Deno.test("the judge starts for every Bash command it reads prose from", () => {
  const commands = [
    `git commit -m '${PROSE}'`,
    `git -C repo commit -am '${PROSE}'`,
    `git add -A && sudo git commit -m '${PROSE}'`,
    `gh pr create --title 'Retry' --body '${PROSE}'`,
    `gh issue comment 12 --body '${PROSE}'`,
    `glab mr note 3 --message '${PROSE}'`,
    `glab issue create --title 'Retry' --description '${PROSE}'`,
  ];
  for (const command of commands) {
    assert(commandProse(command).length, `the judge reads ${command}`);
    assert(starts("judge", command), command);
  }
});

Deno.test("the search augment starts for every Bash search it reads phrases from", () => {
  const commands = [
    "rg -n rotateToken src",
    "grep -rn 'revoke_key' .",
    "ls | egrep 'rotate token'",
    "git grep -n rotateToken",
    "find . -name '*rotate_token*'",
    "git ls-files | xargs grep -l rotateToken",
    "LC_ALL=C /usr/bin/grep -r rotateToken .",
  ];
  for (const command of commands) {
    assert(commandPhrases(command).length, `the augment reads ${command}`);
    assert(starts("search", command), command);
  }
});

Deno.test("an everyday Bash command starts no git-kb hook", () => {
  const everyday = ["ls -la", "git status", "git diff HEAD~1", "deno task test", "cat README.md"];
  for (const command of everyday) {
    for (const { verb } of PLUGIN_HOOKS) assert(!starts(verb, command), `${verb}: ${command}`);
  }
});

Deno.test("SessionStart: the pull and the freshness watch run in the background; the kernel rules (compact) and the one-time welcome (startup) in the foreground", () => {
  const groups = JSON.parse(pluginHooksJson()).hooks.SessionStart;
  assertEquals(groups, [
    {
      matcher: "startup|resume",
      hooks: [{
        type: "command",
        command: 'exec "${CLAUDE_PLUGIN_ROOT}/bin/git-kb" hook session',
        timeout: 30,
        async: true,
      }],
    },
    {
      matcher: "startup|resume|clear",
      hooks: [{
        type: "command",
        command: 'exec "${CLAUDE_PLUGIN_ROOT}/bin/git-kb" hook watch',
        timeout: 43_200,
        async: true,
      }],
    },
    {
      matcher: "startup|compact",
      hooks: [{
        type: "command",
        command: '"${CLAUDE_PLUGIN_ROOT}/bin/git-kb" hook compact',
        timeout: 10,
      }],
    },
  ]);
  assertEquals(HOOKS.session.profile, "pull", "only the pull runs git");
  assertEquals(HOOKS.compact.profile, "read", "restoring the kernel rules reads the index only");
  assertEquals(
    HOOKS.watch.profile,
    "handoff",
    "the watch reads the knowledge base, writes the cache, and at the session's end may start " +
      "the capture worker",
  );
});
