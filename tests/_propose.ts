/**
 * A test's stand-in for a producer of proposals (the end-of-session capture): reads a JSON array
 * of proposals on stdin, writes them with `propose` into the knowledge base `KB_DIR`, and prints
 * the outcomes as JSON. Run as a real subprocess, so two of them can race.
 *
 * @module
 */
import { propose } from "../io/proposals/store.ts";

const proposals = JSON.parse(await new Response(Deno.stdin.readable).text());
console.log(JSON.stringify(await propose(Deno.env.get("KB_DIR")!, proposals)));
