import { assertEquals } from "@std/assert";
import { findingsSummary } from "./finding.ts";

Deno.test("findingsSummary names each check that failed, then each that only warned, once", () => {
  assertEquals(
    findingsSummary([{ findings: [{ level: "ok", check: "git", message: "ok" }] }]),
    undefined,
  );
  assertEquals(
    findingsSummary([
      { findings: [{ level: "warn", check: "agent", message: "a" }] },
      {
        findings: [
          { level: "warn", check: "entries", message: "b" },
          { level: "error", check: "cache", message: "c" },
          { level: "error", check: "entries", message: "d" },
          { level: "error", check: "cache", message: "e" },
        ],
      },
    ]),
    {
      level: "error",
      check: "doctor",
      message: "failed: cache, entries; warned: agent; each is named above with what to do",
    },
  );
  assertEquals(
    findingsSummary([{ name: "team", findings: [{ level: "warn", check: "git", message: "x" }] }]),
    {
      level: "warn",
      check: "doctor",
      message: "warned: team: git; each is named above with what to do",
    },
  );
});
