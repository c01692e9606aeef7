import { assertEquals } from "@std/assert";
import { parseDivergence, pullStep, sessionSource, sessionWork } from "./session_start.ts";

Deno.test("sessionSource takes only the sources Claude Code sends", () => {
  for (const source of ["startup", "resume", "clear", "compact"]) {
    assertEquals(sessionSource({ source }), source);
  }
  for (const source of [undefined, null, 42, "Startup", "fork", "", ["startup"]]) {
    assertEquals(sessionSource({ source }), undefined, String(source));
  }
});

Deno.test("sessionWork: pull on startup and resume, the kernel on compact, nothing else", () => {
  assertEquals(
    (["startup", "resume", "clear", "compact", undefined] as const).map(sessionWork),
    ["pull", "pull", undefined, "kernel", undefined],
  );
});

Deno.test("pullStep fast-forwards only a branch that is behind and has nothing of its own", () => {
  assertEquals(pullStep({ ahead: 0, behind: 0 }), "up-to-date");
  assertEquals(pullStep({ ahead: 2, behind: 0 }), "ahead");
  assertEquals(pullStep({ ahead: 0, behind: 5 }), "fast-forward");
  assertEquals(pullStep({ ahead: 1, behind: 1 }), "diverged");
});

Deno.test("parseDivergence reads git's two counts and refuses anything else", () => {
  assertEquals(parseDivergence("3\t7\n"), { ahead: 3, behind: 7 });
  for (const text of ["", "3", "3 7 1", "a\tb", "-1\t2", "3.5\t1"]) {
    assertEquals(parseDivergence(text), undefined, JSON.stringify(text));
  }
});
