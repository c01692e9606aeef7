import { assertEquals } from "@std/assert";
import { fileURLToPath } from "node:url";
import { runProcess } from "../io/process.ts";
import { halfOf } from "./retrieval.ts";

const script = fileURLToPath(new URL("retrieval.ts", import.meta.url));

Deno.test("bench:retrieval without its data says where it looked and how to point it there", async () => {
  const missing = await Deno.makeTempDir({ prefix: "git-kb-no-bench-data-" });
  try {
    const result = await runProcess("deno", ["run", "-A", script, "--data", missing]);
    assertEquals(result.code, 2, result.stderr);
    assertEquals(
      result.stderr.includes(`No benchmark data at ${missing}/corpus.jsonl`),
      true,
      result.stderr,
    );
    assertEquals(result.stderr.includes("--data ../shared/bench"), true, result.stderr);
    assertEquals(/\n\s+at /.test(result.stderr), false, "no stack trace");
  } finally {
    await Deno.remove(missing, { recursive: true });
  }
});

Deno.test("halfOf: the same half every run, and both halves used", () => {
  assertEquals(halfOf("how do I list open ports"), halfOf("how do I list open ports"));
  const halves = new Set(["a", "b", "c", "d", "e", "f", "g", "h"].map(halfOf));
  assertEquals(halves.size, 2);
});
