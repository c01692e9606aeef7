import { assert, assertEquals } from "@std/assert";
import { commandProse, extractProse, isProse, type ProsePiece } from "./prose.ts";

const BAD =
  "This release adds blazing fast, seamless search that makes finding entries effortless.";
const BODY = "Users kept landing on the old token note instead of the howto that replaced it.";

type Case = [name: string, tool: string, input: unknown, expected: ProsePiece[]];

function check(cases: Case[]): void {
  for (const [name, tool, input, expected] of cases) {
    assertEquals(extractProse(tool, input), expected, name);
  }
}

const bash = (command: string): Record<string, unknown> => ({ command, description: BAD });

Deno.test("isProse: sentences are prose; ids, slugs, enums, URLs, paths and hashes are not", () => {
  const prose = [
    BAD,
    "Subject line: what the change does, imperative, under about 60 characters in all.",
    "这是一个很长的中文句子，用来检查没有空格的文字也能被当作散文来判断是否违反了规则。规则写在知识库里，每次调用时读取，不保存第二份副本，所以修改规则后立即生效。",
  ];
  const notProse = [
    "Short sentence, well under the limit.",
    "kb-k1rn0-no-marketing-adjectives-in-commit-messages-and-pr-text-and-more",
    "https://github.com/owner/repo/pull/1234/files?diff=split&w=1#diff-0123456789abcdef",
    "/home/user/projects/git-kb/core/prose.ts /home/user/projects/git-kb/core/judge.ts",
    "0123456789abcdef0123456789abcdef01234567 89abcdef0123456789abcdef0123456789abcdef",
    "STATUS_IN_PROGRESS STATUS_DONE STATUS_BLOCKED STATUS_CANCELLED STATUS_WONT_FIX",
    "a.ts b.ts c.ts d.ts e.ts f.ts g.ts h.ts i.ts j.ts k.ts l.ts m.ts n.ts o.ts p.ts",
  ];
  for (const text of prose) assert(isProse(text), text);
  for (const text of notProse) assert(!isProse(text), text);
});

Deno.test("extractProse: file tools give prose files whole and code files' comments", () => {
  const code = [
    "#!/usr/bin/env -S deno run",
    "/**",
    ` * ${BAD}`,
    " * @module",
    " */",
    'const label = "ok";',
    `throw new Error("No knowledge base is configured: run git-kb init to set one up first.");`,
    "const robustRetryLogicWithBlazingFastBackoff = computeTheSeamlessDelay(attempt, 3);",
    "// A line comment that is long enough to be judged when it is",
    "// joined with the next line, as one comment block.",
  ].join("\n");
  check([
    ["Write markdown", "Write", { file_path: "/w/docs/notes.md", content: BAD }, [
      { source: "notes.md", text: BAD },
    ]],
    ["Write markdown with much code", "Write", {
      file_path: "/w/README.md",
      content: `${BAD}\n\n\`\`\`sh\n${"x1 = run(y2, 3) + 4;\n".repeat(30)}\`\`\`\n`,
    }, [{
      source: "README.md",
      text: `${BAD}\n\n\`\`\`sh\n${"x1 = run(y2, 3) + 4;\n".repeat(30)}\`\`\`\n`,
    }]],
    ["Write a table of numbers", "Write", {
      file_path: "/w/results.md",
      content: "| run | ms |\n|---|---|\n" + "| 1 | 35 |\n".repeat(20),
    }, []],
    ["Write short", "Write", { file_path: "/w/notes.md", content: "Blazing fast." }, []],
    ["Write extensionless text", "Write", { file_path: "/w/CHANGELOG", content: BAD }, [
      { source: "CHANGELOG", text: BAD },
    ]],
    ["Write code", "Write", { file_path: "/w/src/a.ts", content: code }, [
      { source: "comment in a.ts", text: `${BAD}\n@module` },
      {
        source: "string in a.ts",
        text: "No knowledge base is configured: run git-kb init to set one up first.",
      },
      {
        source: "comment in a.ts",
        text: "A line comment that is long enough to be judged when it is\n" +
          "joined with the next line, as one comment block.",
      },
    ]],
    ["Write script with a shebang", "Write", {
      file_path: "/w/bin/release",
      content: `#!/bin/sh\n# ${BAD}\nexec deno run main.ts\n`,
    }, [{ source: "comment in release", text: BAD }]],
    ["Write data", "Write", { file_path: "/w/data.csv", content: `${BAD}\n${BAD}` }, []],
    ["Write without content", "Write", { file_path: "/w/notes.md" }, []],
    ["Edit", "Edit", { file_path: "/w/a.md", old_string: "x", new_string: BAD }, [
      { source: "a.md", text: BAD },
    ]],
    ["Edit: only new_string counts", "Edit", {
      file_path: "/w/a.md",
      old_string: BAD,
      new_string: "Fast.",
    }, []],
    ["MultiEdit", "MultiEdit", {
      file_path: "/w/a.md",
      edits: [{ old_string: "a", new_string: BAD }, { old_string: "b", new_string: "c" }, {
        old_string: "d",
        new_string: BODY,
      }],
    }, [{ source: "a.md", text: BAD }, { source: "a.md", text: BODY }]],
    ["NotebookEdit markdown", "NotebookEdit", {
      notebook_path: "/w/n.ipynb",
      new_source: BAD,
      cell_type: "markdown",
    }, [{ source: "n.ipynb", text: BAD }]],
    ["NotebookEdit code", "NotebookEdit", {
      notebook_path: "/w/n.ipynb",
      new_source: `# ${BAD}\nresult = seamless_blazing_fast_effortless_function_name(1, 2, 3, 4)`,
      cell_type: "code",
    }, [{ source: "comment in n.ipynb", text: BAD }]],
    ["NotebookEdit delete", "NotebookEdit", {
      notebook_path: "/w/n.ipynb",
      new_source: BAD,
      edit_mode: "delete",
    }, []],
  ]);
});

Deno.test("extractProse: Bash gives commit messages only", () => {
  const commit = (text: string): ProsePiece[] => [{ source: "commit message", text }];
  const heredoc = `git add -A && git commit -m "$(cat <<'EOF'
Skip superseded entries in search results

${BODY}

Co-Authored-By: Claude <noreply@anthropic.com>
EOF
)"`;
  check([
    ["-m", "Bash", bash(`git commit -m "${BAD}"`), commit(BAD)],
    ["--message=", "Bash", bash(`git commit --message='${BAD}'`), commit(BAD)],
    ["--message", "Bash", bash(`git commit --message "${BAD}"`), commit(BAD)],
    ["-am", "Bash", bash(`git commit -am "${BAD}"`), commit(BAD)],
    ["-vam attached", "Bash", bash(`git commit -vam"${BAD}"`), commit(BAD)],
    [
      "several -m",
      "Bash",
      bash(`git commit -m "Skip superseded entries" -m "${BODY}"`),
      commit(
        `Skip superseded entries\n\n${BODY}`,
      ),
    ],
    [
      "git options",
      "Bash",
      bash(`git -C /repo -c user.name=x --no-pager commit -S -m "${BAD}"`),
      commit(BAD),
    ],
    [
      "env prefix",
      "Bash",
      bash(`GIT_AUTHOR_NAME=x env -i git commit --amend -m "${BAD}"`),
      commit(BAD),
    ],
    [
      "in a chain",
      "Bash",
      bash(`cd /repo && git add . && git commit -q -m '${BAD}' && git push`),
      commit(BAD),
    ],
    [
      "heredoc",
      "Bash",
      bash(heredoc),
      commit(
        `Skip superseded entries in search results\n\n${BODY}\n\nCo-Authored-By: Claude <noreply@anthropic.com>`,
      ),
    ],
    [
      "-F - with a here-document",
      "Bash",
      bash(`git commit -F - <<'MSG'\n${BAD}\nMSG`),
      commit(BAD),
    ],
    ["--file=- with a here-string", "Bash", bash(`git commit --file=- <<< "${BAD}"`), commit(BAD)],
    ["-F file is not read", "Bash", bash(`git commit -F message.txt`), []],
    ["editor", "Bash", bash(`git commit --amend --no-edit`), []],
    ["short subject", "Bash", bash(`git commit -m "Blazing fast search"`), []],
    ["not a commit", "Bash", bash(`git log -m --format="${BAD}"`), []],
    ["-m after --", "Bash", bash(`git commit -- -m "${BAD}"`), []],
    ["quoted, not run", "Bash", bash(`echo "git commit -m '${BAD}'"`), []],
    ["other commands", "Bash", bash(`npm test && deno fmt --check && echo "${BAD}"`), []],
    ["no command", "Bash", {}, []],
  ]);
});

Deno.test("extractProse: Bash gives gh and glab titles and bodies", () => {
  const heredocBody = `gh pr create --title "Skip superseded entries" --body "$(cat <<'EOF'
## Summary
${BAD}
EOF
)"`;
  check([
    [
      "gh pr create",
      "Bash",
      bash(`gh pr create --title "Skip superseded entries" --body "${BODY}"`),
      [
        { source: "gh pr create title", text: "Skip superseded entries" },
        { source: "gh pr create body", text: BODY },
      ],
    ],
    ["gh pr create heredoc", "Bash", bash(heredocBody), [
      { source: "gh pr create title", text: "Skip superseded entries" },
      { source: "gh pr create body", text: `## Summary\n${BAD}` },
    ]],
    ["gh pr edit short flags", "Bash", bash(`gh pr edit 12 -t "Skip entries" -b '${BODY}'`), [
      { source: "gh pr edit title", text: "Skip entries" },
      { source: "gh pr edit body", text: BODY },
    ]],
    ["gh pr comment --body=", "Bash", bash(`gh pr comment 12 --body="${BAD}"`), [
      { source: "gh pr comment body", text: BAD },
    ]],
    [
      "gh pr comment --body-file -",
      "Bash",
      bash(`gh pr comment 12 --body-file - <<'EOF'\n${BAD}\nEOF`),
      [
        { source: "gh pr comment body", text: BAD },
      ],
    ],
    ["gh issue create", "Bash", bash(`gh issue create -R o/r --title "${BAD}" --label bug`), [
      { source: "gh issue create title", text: BAD },
    ]],
    ["gh issue comment", "Bash", bash(`gh issue comment 7 -b "${BAD}"`), [
      { source: "gh issue comment body", text: BAD },
    ]],
    ["gh --body-file path is not read", "Bash", bash(`gh pr create -t "Title" -F body.md`), []],
    [
      "gh short title and body",
      "Bash",
      bash(`gh pr create --title "Blazing fast search" --body "Yes."`),
      [],
    ],
    ["gh pr view", "Bash", bash(`gh pr view 12 --comments`), []],
    ["glab mr create", "Bash", bash(`glab mr create -t "Skip superseded entries" -d "${BODY}"`), [
      { source: "glab mr create title", text: "Skip superseded entries" },
      { source: "glab mr create description", text: BODY },
    ]],
    ["glab mr note", "Bash", bash(`glab mr note 5 --message="${BAD}"`), [
      { source: "glab mr note message", text: BAD },
    ]],
    ["glab mr note -m", "Bash", bash(`glab mr note 5 -m "${BAD}"`), [
      { source: "glab mr note message", text: BAD },
    ]],
  ]);
});

Deno.test("extractProse: other tools give every prose string field; excluded tools none", () => {
  check([
    ["MCP comment", "mcp__github__add_issue_comment", {
      owner: "octo",
      repo: "kb",
      issue_number: 3,
      body: BAD,
    }, [{ source: "mcp__github__add_issue_comment tool_input.body", text: BAD }]],
    ["nested review comments", "mcp__gitlab__create_review", {
      merge_request_id: "!12",
      event: "COMMENT",
      summary: BODY,
      comments: [{ path: "a.ts", line: 3, body: BAD }, { path: "b.ts", line: 9, body: "Nit." }],
      url: `https://example.test/${"x".repeat(80)} with words in the query string here`,
    }, [
      { source: "mcp__gitlab__create_review tool_input.summary", text: BODY },
      { source: "mcp__gitlab__create_review tool_input.comments[0].body", text: BAD },
    ]],
    ["ids and enums only", "CreateTicket", {
      id: "0123456789abcdef0123456789abcdef01234567",
      state: "IN_PROGRESS_WAITING_FOR_REVIEW_BY_THE_ASSIGNED_OWNER_TEAM",
    }, []],
    ["Read", "Read", { file_path: "/w/a.md", prompt: BAD }, []],
    ["WebFetch", "WebFetch", { url: "https://example.test", prompt: BAD }, []],
    ["TodoWrite", "TodoWrite", { todos: [{ content: BAD, status: "pending" }] }, []],
    ["Task", "Task", { description: "x", prompt: BAD }, []],
    ["no input", "mcp__x__y", null, []],
  ]);
});

Deno.test("commandProse: each command line is judged on its own messages", () => {
  assertEquals(
    commandProse(`git commit -m "${BAD}"; gh pr comment 1 --body "${BODY}"`),
    [{ source: "commit message", text: BAD }, { source: "gh pr comment body", text: BODY }],
  );
});
