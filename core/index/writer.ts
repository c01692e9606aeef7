/**
 * The last step of every index write: the files an edit or a build changed, encoded and sealed
 * with their sizes and checksums in the manifest, which a reader checks before it trusts a file
 * (`checkFile` in `reader.ts`; spec/index-format.md, "What a reader checks"). The files' contents
 * come from `editor.ts`; moving them to disk is io/index/refresh.ts.
 *
 * @module
 */
import { bytesChecksum } from "../hash.ts";
import type { Manifest } from "./format.ts";

/** An index file's contents as bytes: text as UTF-8, bytes as they are, anything else as JSON. */
export function encodeIndexFile(value: unknown): Uint8Array {
  if (value instanceof Uint8Array) return value;
  return new TextEncoder().encode(typeof value === "string" ? value : JSON.stringify(value));
}

/**
 * Index files as they are written: each encoded, its size and checksum recorded in the
 * manifest (which keeps those of files left as they were), the manifest last.
 */
export function sealFiles(changed: Map<string, unknown>): Map<string, Uint8Array> {
  const manifest = changed.get("manifest.json") as Manifest;
  const sealed = new Map<string, Uint8Array>();
  for (const [name, value] of changed) {
    if (name === "manifest.json") continue;
    const bytes = encodeIndexFile(value);
    manifest.sums[name] = [bytes.length, bytesChecksum(bytes)];
    sealed.set(name, bytes);
  }
  sealed.set("manifest.json", encodeIndexFile(manifest));
  return sealed;
}
