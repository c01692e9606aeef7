import { assertEquals } from "@std/assert";
import { parseShell } from "../../core/shell/words.ts";
import { fetchCommand } from "./pipeline.ts";

Deno.test("fetchCommand: every word of the fetch line is quoted, whatever it holds", () => {
  const dir = "/home/o'brien/my kb";
  const ids = ["kb-7q2mx", "team:kb-c0mw8", "kb-7q2mx;touch /tmp/x", "$(id)"];
  const [command, ...more] = parseShell(fetchCommand(dir)(ids));
  assertEquals(more, []);
  assertEquals(command.words.slice(-7), ["get", ...ids, "--kb", dir]);
});
