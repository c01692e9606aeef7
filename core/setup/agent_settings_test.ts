import { assert, assertEquals, assertMatch, assertThrows } from "@std/assert";
import {
  absoluteLauncher,
  agentEvent,
  agentsRule,
  agentsRuleLauncher,
  desiredHooks,
  detectIndent,
  enablesOurPlugin,
  escapeDoubleQuoted,
  findOurHooks,
  formatSettings,
  type HookAgent,
  mergeHooks,
  ourVerb,
  parseSettings,
  type PluginHooks,
  removeHooks,
  sameJson,
  type Settings,
  SettingsShapeError,
} from "./agent_settings.ts";
import { unifiedDiff } from "../text/unified_diff.ts";
import pluginHooks from "../../plugin/hooks/hooks.json" with { type: "json" };

const PLUGIN: PluginHooks = {
  hooks: {
    UserPromptSubmit: [{
      hooks: [{
        type: "command",
        command: '"${CLAUDE_PLUGIN_ROOT}/bin/git-kb" hook prompt',
        timeout: 10,
      }],
    }],
    PreToolUse: [{
      matcher: "Write|Edit|Bash",
      hooks: [{
        type: "command",
        command: '"${CLAUDE_PLUGIN_ROOT}/bin/git-kb" hook judge',
        timeout: 60,
      }],
    }],
  },
};

const LAUNCHER = "/opt/kb/plugin/bin/git-kb";
const OLD = "/old/checkout/plugin/bin/git-kb";
const PROMPT = `"${LAUNCHER}" hook prompt`;
const JUDGE = `"${LAUNCHER}" hook judge`;
const OTHER = { type: "command", command: "~/bin/notify.sh", timeout: 5 };

function wanted(agent: HookAgent = "claude", launcher = LAUNCHER) {
  return desiredHooks(PLUGIN, agent, launcher);
}

/** Claude Code settings holding our two hooks at `launcher`, as setup writes them. */
function installed(launcher = LAUNCHER): Settings {
  return mergeHooks({}, wanted("claude", launcher));
}

Deno.test("absoluteLauncher reads the launcher's path as sh would, when it is absolute", () => {
  const cases: [string, string | undefined][] = [
    [PROMPT, LAUNCHER],
    ["'/home/me/my kb/plugin/bin/git-kb' hook augment", "/home/me/my kb/plugin/bin/git-kb"],
    // The SessionStart hooks setup writes run the launcher through exec.
    [`exec ${PROMPT.replace("prompt", "session")}`, LAUNCHER],
    ["exec", undefined],
    ['"/home/o\\"b/\\$HOME/git-kb" hook prompt', '/home/o"b/$HOME/git-kb'],
    ['"${CLAUDE_PLUGIN_ROOT}/bin/git-kb" hook prompt', undefined],
    ["git-kb hook prompt", undefined],
    ["./plugin/bin/git-kb hook prompt", undefined],
    ["", undefined],
  ];
  for (const [command, launcher] of cases) {
    assertEquals(absoluteLauncher(command), launcher, command);
  }
});

Deno.test("ourVerb recognises a git-kb launcher running a hook, wherever it lives", () => {
  const cases: [string, string | undefined][] = [
    [PROMPT, "prompt"],
    [`"${OLD}" hook judge`, "judge"],
    ['"${CLAUDE_PLUGIN_ROOT}/bin/git-kb" hook prompt', "prompt"],
    ["git-kb hook prompt", "prompt"],
    ["'/home/me/my kb/plugin/bin/git-kb' hook augment", "augment"],
    ["C:\\kb\\plugin\\bin\\git-kb.cmd hook prompt", "prompt"],
    ['"/a \\"b\\"/git-kb" hook prompt', "prompt"],
    ["git-kb search foo", undefined],
    ["/usr/bin/my-git-kb hook prompt", undefined],
    ["/usr/bin/git-kb-old hook prompt", undefined],
    ["git-kb hook", undefined],
    ["prettier --write", undefined],
  ];
  for (const [command, verb] of cases) assertEquals(ourVerb(command), verb, command);
});

Deno.test("escapeDoubleQuoted escapes what a POSIX shell expands inside double quotes", () => {
  assertEquals(escapeDoubleQuoted("/plain/path"), "/plain/path");
  assertEquals(escapeDoubleQuoted('/a "b" $HOME `x` \\'), '/a \\"b\\" \\$HOME \\`x\\` \\\\');
});

Deno.test("agentEvent: Claude takes every event, Codex and Gemini the prompt hook only", () => {
  assertEquals(agentEvent("claude", "PreToolUse"), "PreToolUse");
  assertEquals(agentEvent("codex", "UserPromptSubmit"), "UserPromptSubmit");
  assertEquals(agentEvent("codex", "PreToolUse"), undefined);
  assertEquals(agentEvent("gemini", "UserPromptSubmit"), "BeforeAgent");
  assertEquals(agentEvent("gemini", "PreToolUse"), undefined);
});

Deno.test("desiredHooks swaps in the launcher path and converts per agent", () => {
  assertEquals(wanted("claude"), {
    UserPromptSubmit: [{ hooks: [{ type: "command", command: PROMPT, timeout: 10 }] }],
    PreToolUse: [{
      matcher: "Write|Edit|Bash",
      hooks: [{ type: "command", command: JUDGE, timeout: 60 }],
    }],
  });
  assertEquals(wanted("codex"), {
    UserPromptSubmit: [{ hooks: [{ type: "command", command: PROMPT, timeout: 10 }] }],
  });
  assertEquals(wanted("gemini"), {
    BeforeAgent: [{
      hooks: [{ name: "git-kb-prompt", type: "command", command: PROMPT, timeout: 10_000 }],
    }],
  });
  const odd = wanted("claude", '/home/me/"kb"/$x/git-kb');
  assertEquals(
    odd.UserPromptSubmit[0].hooks[0].command,
    '"/home/me/\\"kb\\"/\\$x/git-kb" hook prompt',
  );
  assert(!JSON.stringify(wanted("claude")).includes("CLAUDE_PLUGIN_ROOT"));
});

Deno.test("desiredHooks refuses a plugin hook that does not run the plugin launcher", () => {
  const broken: PluginHooks = {
    hooks: { UserPromptSubmit: [{ hooks: [{ type: "command", command: "echo hi" }] }] },
  };
  assertThrows(() => desiredHooks(broken, "claude", LAUNCHER), SettingsShapeError);
});

Deno.test("the shipped plugin hooks.json converts for every hook agent", () => {
  const plugin = pluginHooks as PluginHooks;
  const claude = desiredHooks(plugin, "claude", LAUNCHER);
  assertEquals(Object.keys(claude), Object.keys(plugin.hooks));
  assertEquals(
    [...new Set(findOurHooks(mergeHooks({}, claude)).map((hook) => hook.verb))].sort(),
    [
      "capture",
      "compact",
      "fetch",
      "judge",
      "prompt",
      "receipts",
      "search",
      "session",
      "subagent",
      "watch",
    ],
  );
  assertEquals(
    mergeHooks({}, claude),
    { hooks: claude },
    "every handler, in the plugin's groups",
  );
  assertEquals(Object.keys(desiredHooks(plugin, "codex", LAUNCHER)), ["UserPromptSubmit"]);
  assertEquals(Object.keys(desiredHooks(plugin, "gemini", LAUNCHER)), ["BeforeAgent"]);
});

Deno.test("mergeHooks keeps one entry per verb and if rule, and upgrades a layout without if", () => {
  const claude = desiredHooks(pluginHooks as PluginHooks, "claude", LAUNCHER);
  const judge = claude.PreToolUse[0].hooks[0];
  const search = claude.PreToolUse[1].hooks[0];
  const before: Settings = {
    hooks: {
      PreToolUse: [
        { matcher: "Write|Edit|MultiEdit|NotebookEdit|Bash", hooks: [judge] },
        { matcher: "Grep|Glob|Bash", hooks: [search] },
      ],
    },
  };
  const merged = mergeHooks(before, claude);
  assertEquals(merged, { hooks: claude });
  assertEquals(mergeHooks(merged, claude), merged, "a second merge changes nothing");
  assertEquals(
    findOurHooks(merged).filter((hook) => hook.verb === "judge").length,
    claude.PreToolUse.flatMap((group) => group.hooks).filter((hook) =>
      hook.command === judge.command
    )
      .length,
  );
});

Deno.test("parseSettings: empty is {}, JSON objects parse, the rest is refused", () => {
  assertEquals(parseSettings(""), {});
  assertEquals(parseSettings(" \n"), {});
  assertEquals(parseSettings('{"model":"opus"}'), { model: "opus" });
  assertThrows(() => parseSettings('{"a": 1,}'), SyntaxError);
  assertThrows(() => parseSettings('// comment\n{"a": 1}'), SyntaxError);
  for (const text of ["[]", "null", '"x"', "3"]) {
    assertThrows(() => parseSettings(text), SettingsShapeError, undefined, text);
  }
});

Deno.test("mergeHooks", async (t) => {
  const userGroup = { hooks: [OTHER] };
  const bashGroup = { matcher: "Bash", hooks: [{ type: "command", command: "lint-bash" }] };
  const cases: { name: string; before: Settings; expected: Settings }[] = [
    {
      name: "an empty file gets our groups",
      before: {},
      expected: { hooks: wanted() },
    },
    {
      name: "other keys, events, groups and hooks are kept; ours are appended",
      before: {
        model: "opus",
        permissions: { allow: ["Bash(ls)"] },
        hooks: { Stop: [userGroup], UserPromptSubmit: [userGroup], PreToolUse: [bashGroup] },
        env: { A: "1" },
      },
      expected: {
        model: "opus",
        permissions: { allow: ["Bash(ls)"] },
        hooks: {
          Stop: [userGroup],
          UserPromptSubmit: [userGroup, ...wanted().UserPromptSubmit],
          PreToolUse: [bashGroup, ...wanted().PreToolUse],
        },
        env: { A: "1" },
      },
    },
    {
      name: "ours with an old launcher path are replaced in place, not duplicated",
      before: {
        hooks: {
          UserPromptSubmit: [
            { hooks: [OTHER, { type: "command", command: `"${OLD}" hook prompt`, timeout: 3 }] },
            userGroup,
          ],
          PreToolUse: wanted("claude", OLD).PreToolUse,
        },
      },
      expected: {
        hooks: {
          UserPromptSubmit: [
            { hooks: [OTHER, { type: "command", command: PROMPT, timeout: 10 }] },
            userGroup,
          ],
          PreToolUse: wanted().PreToolUse,
        },
      },
    },
    {
      name: "a group of ours alone takes the new matcher; extra copies go",
      before: {
        hooks: {
          PreToolUse: [
            { matcher: "Write", hooks: [{ type: "command", command: `"${OLD}" hook judge` }] },
            bashGroup,
            { matcher: "Edit", hooks: [{ type: "command", command: JUDGE }, OTHER] },
          ],
          UserPromptSubmit: wanted().UserPromptSubmit,
        },
      },
      expected: {
        hooks: {
          PreToolUse: [...wanted().PreToolUse, bashGroup, { matcher: "Edit", hooks: [OTHER] }],
          UserPromptSubmit: wanted().UserPromptSubmit,
        },
      },
    },
    {
      name: "ours in a shared group with another matcher moves to a group of its own",
      before: {
        hooks: {
          PreToolUse: [{ matcher: "Bash", hooks: [OTHER, { type: "command", command: JUDGE }] }],
          UserPromptSubmit: wanted().UserPromptSubmit,
        },
      },
      expected: {
        hooks: {
          PreToolUse: [{ matcher: "Bash", hooks: [OTHER] }, ...wanted().PreToolUse],
          UserPromptSubmit: wanted().UserPromptSubmit,
        },
      },
    },
    {
      name: "ours under an event the agent does not get is taken out",
      before: {
        hooks: {
          PostToolUse: [{ hooks: [{ type: "command", command: JUDGE }] }],
          Stop: [{ hooks: [{ type: "command", command: PROMPT }, OTHER] }],
        },
      },
      expected: { hooks: { Stop: [{ hooks: [OTHER] }], ...wanted() } },
    },
    {
      name: "non-event values under hooks are left alone (Gemini's hooks.enabled)",
      before: { hooks: { enabled: true, disabled: ["x"] } },
      expected: { hooks: { enabled: true, disabled: ["x"], ...wanted() } },
    },
  ];
  for (const { name, before, expected } of cases) {
    await t.step(name, () => {
      const snapshot = structuredClone(before);
      const after = mergeHooks(before, wanted());
      assertEquals(after, expected);
      assertEquals(before, snapshot, "the input is not changed");
      assert(sameJson(mergeHooks(after, wanted()), after), "a second merge changes nothing");
    });
  }
});

Deno.test("mergeHooks keeps an equal hook object as it was, key order included", () => {
  const reordered = {
    hooks: {
      UserPromptSubmit: [{ hooks: [{ timeout: 10, command: PROMPT, type: "command" }] }],
      PreToolUse: wanted().PreToolUse,
    },
  };
  const after = mergeHooks(reordered, wanted());
  assertEquals(JSON.stringify(after), JSON.stringify(reordered));
});

Deno.test("mergeHooks and removeHooks refuse shapes they cannot edit, naming the key", () => {
  const bad: [Settings, RegExp][] = [
    [{ hooks: [] }, /"hooks" is a list/],
    [{ hooks: "x" }, /"hooks" is a string/],
    [{ hooks: { UserPromptSubmit: { hooks: [] } } }, /"hooks.UserPromptSubmit" is an object/],
    [{ hooks: { PreToolUse: null } }, /"hooks.PreToolUse" is null/],
  ];
  for (const [settings, message] of bad) {
    assertMatch(String(assertThrows(() => mergeHooks(settings, wanted()))), message);
  }
  assertThrows(() => removeHooks({ hooks: 7 }), Error, '"hooks" is a number');
});

Deno.test("mergeHooks skips malformed groups and hooks it does not own", () => {
  const odd = { hooks: { UserPromptSubmit: ["note", { matcher: "x" }, { hooks: [42, null] }] } };
  const after = mergeHooks(odd, wanted());
  assertEquals(after.hooks, {
    UserPromptSubmit: [
      "note",
      { matcher: "x" },
      { hooks: [42, null] },
      ...wanted().UserPromptSubmit,
    ],
    PreToolUse: wanted().PreToolUse,
  });
});

Deno.test("removeHooks", async (t) => {
  const cases: { name: string; before: Settings; expected: Settings }[] = [
    { name: "nothing of ours: unchanged", before: { a: 1 }, expected: { a: 1 } },
    { name: "only ours: the hooks key goes", before: { a: 1, ...installed() }, expected: { a: 1 } },
    {
      name: "ours at any path go; other hooks, groups and events stay",
      before: {
        hooks: {
          UserPromptSubmit: [
            { hooks: [OTHER, { type: "command", command: `"${OLD}" hook prompt` }] },
          ],
          PreToolUse: wanted().PreToolUse,
          Stop: [],
        },
        model: "opus",
      },
      expected: { hooks: { UserPromptSubmit: [{ hooks: [OTHER] }], Stop: [] }, model: "opus" },
    },
    {
      name: "Gemini's non-event keys stay",
      before: { hooks: { enabled: true, ...wanted("gemini") } },
      expected: { hooks: { enabled: true } },
    },
  ];
  for (const { name, before, expected } of cases) {
    await t.step(name, () => {
      assertEquals(removeHooks(before), expected);
      assertEquals(findOurHooks(removeHooks(before)), []);
    });
  }
});

Deno.test("findOurHooks lists event, verb and command in file order", () => {
  assertEquals(findOurHooks(installed()), [
    { event: "UserPromptSubmit", verb: "prompt", command: PROMPT },
    { event: "PreToolUse", verb: "judge", command: JUDGE },
  ]);
  assertEquals(findOurHooks({ hooks: { enabled: true, X: [1, { hooks: "no" }] } }), []);
});

Deno.test("sameJson ignores key order only", () => {
  assert(sameJson({ a: 1, b: { c: [1, 2] } }, { b: { c: [1, 2] }, a: 1 }));
  assert(!sameJson({ a: [1, 2] }, { a: [2, 1] }));
  assert(!sameJson({ a: 1 }, { a: 1, b: undefined }));
  assert(!sameJson([], {}));
  assert(!sameJson(null, {}));
});

Deno.test("formatSettings keeps the file's indentation and ends with a newline", () => {
  assertEquals(detectIndent('{\n    "a": 1\n}'), "    ");
  assertEquals(detectIndent('{\n\t"a": 1\n}'), "\t");
  assertEquals(detectIndent('{"a":1}'), "  ");
  assertEquals(
    formatSettings({ a: [1] }, '{\n    "x": 0\n}'),
    '{\n    "a": [\n        1\n    ]\n}\n',
  );
  assertEquals(formatSettings({}), "{}\n");
});

Deno.test("the diff of a settings change applied to the old text gives the new one", () => {
  const labels = { from: "old", to: "new" };
  const before = JSON.stringify({ model: "opus", hooks: { Stop: [] } }, null, 2);
  const after = formatSettings(mergeHooks(JSON.parse(before), wanted()), before);
  const diff = unifiedDiff(before, after, { ...labels, context: 1_000 });
  const body = diff.split("\n").slice(3).filter((line) => line !== "");
  assertEquals(
    body.filter((line) => !line.startsWith("+")).map((line) => line.slice(1)),
    before.split("\n"),
  );
  assertEquals(
    body.filter((line) => !line.startsWith("-")).map((line) => line.slice(1)),
    after.trimEnd().split("\n"),
  );
});

Deno.test("agentsRule tells the agent to run context first, with the quoted launcher", () => {
  const rule = agentsRule("/home/me/kb tools/git-kb");
  assertMatch(rule, /"\/home\/me\/kb tools\/git-kb" context "<the task in a few words>"/);
  assertMatch(rule, /"\/home\/me\/kb tools\/git-kb" get <id>/);
  assertMatch(rule, /^## Knowledge base \(git-kb\)/);
});

Deno.test("enablesOurPlugin: a git-kb plugin switched on, from any marketplace", () => {
  assert(enablesOurPlugin({ enabledPlugins: { "git-kb@git-kb": true } }));
  assert(enablesOurPlugin({ enabledPlugins: { "other@x": true, "git-kb@team-market": true } }));
  for (
    const settings of [
      {},
      { enabledPlugins: { "git-kb@git-kb": false } },
      { enabledPlugins: { "my-git-kb@x": true, "git-kb": true } },
      { enabledPlugins: ["git-kb@git-kb"] },
      { enabledPlugins: "git-kb@git-kb" },
    ]
  ) {
    assertEquals(enablesOurPlugin(settings as Settings), false, JSON.stringify(settings));
  }
});

Deno.test("agentsRuleLauncher: the launcher of the rule setup prints, of a bare git-kb, or none", () => {
  assertEquals(agentsRuleLauncher(agentsRule('/opt/my "kb"/git-kb')), '/opt/my "kb"/git-kb');
  assertEquals(agentsRuleLauncher('Run `git-kb context "task"` first.'), "git-kb");
  assertEquals(agentsRuleLauncher("Use git-kb to remember things; give context."), undefined);
});
