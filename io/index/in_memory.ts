/**
 * The index of a knowledge base built in memory from its entry files, never written: what a read
 * command falls back to when the cache takes no write (a read-only cache, as in an agent's
 * sandbox). A full build on every run, so slower than the cached index, and the same answers.
 *
 * @module
 */
import { IndexEditor } from "../../core/index/editor.ts";
import { type Manifest, shardCountFor } from "../../core/index/format.ts";
import { IndexReader } from "../../core/index/reader.ts";
import { scanEntries } from "../kb.ts";
import { analyzeFile } from "./analyze.ts";
import { MANIFEST, type OpenIndex } from "./store.ts";

/** Build the index of `kbDir`'s entry files in memory, as a full build on disk would. */
export function indexInMemory(kbDir: string): OpenIndex {
  const started = performance.now();
  const files = scanEntries(kbDir);
  const editor = IndexEditor.create(kbDir, shardCountFor(files.size), () => undefined);
  editor.takeIn(
    [...files].map(([path, stat]) => ({ path, ...stat })),
    (path) => analyzeFile(kbDir, path),
  );
  const built = editor.changedFiles(new Date().toISOString(), {
    entriesMtime: 0,
    head: "",
    gitIndexMtime: 0,
  });
  const manifest = built.get(MANIFEST) as Manifest;
  return {
    reader: new IndexReader(manifest, (name) => built.get(name)),
    report: {
      mode: "full",
      added: manifest.docCount,
      changed: 0,
      removed: 0,
      docCount: manifest.docCount,
      invalid: manifest.invalid,
      ms: performance.now() - started,
    },
  };
}
