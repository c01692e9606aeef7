/**
 * Helper the benchmark runs as a whole process: open (and with `--full`, rebuild) the index of
 * a knowledge base, then print the refresh report as one line of JSON.
 *
 * ```sh
 * deno run -q --allow-read --allow-write=$TMPDIR --allow-env=TMPDIR,TEMP,TMP \
 *   bench/_open_index.ts <kb-dir> [--full]
 * ```
 *
 * @module
 */
import { openIndex } from "../io/index/store.ts";

if (import.meta.main) {
  const [kbDir, ...rest] = Deno.args;
  if (!kbDir) {
    console.error("Usage: bench/_open_index.ts <kb-dir> [--full]");
    Deno.exit(2);
  }
  const { report } = await openIndex(kbDir, { full: rest.includes("--full") });
  console.log(JSON.stringify({ ...report, invalid: report.invalid.length }));
}
