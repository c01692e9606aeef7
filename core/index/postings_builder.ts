/**
 * The postings of a full index build, appended to entry by entry and written out once, shard by
 * shard. The numbers sit in one growing `Int32Array`, in blocks chained per list, outside the
 * JavaScript heap: a build of thousands of entries makes millions of them, and as plain arrays
 * they were copied by every young-generation collection and again whenever an array outgrew its
 * storage. (An edit to a built index goes through the parsed shard maps instead: it touches few
 * lists.)
 *
 * @module
 */
import { shardOf } from "./format.ts";
import { keywordKey } from "./postings_file.ts";
import { layOut, type PostingsFiles } from "./postings_layout.ts";

/** Values in a list's first block; each later one holds as many as the list so far (capped). */
const FIRST_BLOCK = 8;
const MAX_BLOCK = 1 << 14;
/** A block is [next block's offset (0: none), capacity, …values]. */
const HEADER = 2;

/** Append-only lists of 32-bit integers, each under a string key, in one pooled buffer. */
class PooledLists {
  #keys: string[] = [];
  /** 4 MiB to start: pages the build never writes to are never touched, so cost nothing. */
  #data = new Int32Array(1 << 20);
  /** The next free offset in {@link #data}; 0 is never a block, so it can mean "none". */
  #free = 1;
  #head = new Int32Array(1 << 10);
  #tail = new Int32Array(1 << 10);
  /** Values written into each list's last block. */
  #fill = new Int32Array(1 << 10);
  #size = new Int32Array(1 << 10);

  /** A new, empty list under `key`; returns its number, for {@link push2} or {@link push4}. */
  create(key: string): number {
    const list = this.#keys.length;
    this.#keys.push(key);
    if (list === this.#head.length) {
      this.#head = grown(this.#head);
      this.#tail = grown(this.#tail);
      this.#fill = grown(this.#fill);
      this.#size = grown(this.#size);
    }
    const block = this.#block(FIRST_BLOCK);
    this.#head[list] = block;
    this.#tail[list] = block;
    return list;
  }

  #block(capacity: number): number {
    const offset = this.#free;
    const end = offset + HEADER + capacity;
    while (end > this.#data.length) this.#data = grown(this.#data);
    this.#data[offset] = 0;
    this.#data[offset + 1] = capacity;
    this.#free = end;
    return offset;
  }

  /**
   * Where the next `count` values of a list go, counted in. Every push to one list has the same
   * count, 2 or 4, so a push never straddles two blocks.
   */
  #room(list: number, count: number): number {
    let tail = this.#tail[list];
    let fill = this.#fill[list];
    if (fill === this.#data[tail + 1]) {
      const next = this.#block(Math.min(this.#size[list], MAX_BLOCK));
      this.#data[tail] = next;
      this.#tail[list] = tail = next;
      fill = 0;
    }
    this.#fill[list] = fill + count;
    this.#size[list] += count;
    return tail + HEADER + fill;
  }

  /** Append two numbers to a list. */
  push2(list: number, a: number, b: number): void {
    const at = this.#room(list, 2);
    const data = this.#data;
    data[at] = a;
    data[at + 1] = b;
  }

  /** Append four numbers to a list. */
  push4(list: number, a: number, b: number, c: number, d: number): void {
    const at = this.#room(list, 4);
    const data = this.#data;
    data[at] = a;
    data[at + 1] = b;
    data[at + 2] = c;
    data[at + 3] = d;
  }

  /** The files of a postings file holding `lists`, in that order (see `postings_file.ts`). */
  files(lists: readonly number[]): PostingsFiles {
    return layOut(lists.map((list) => [this.#keys[list], this.#numbers(list)] as const));
  }

  /** A list's numbers, gathered from its blocks. */
  #numbers(list: number): Int32Array {
    const numbers = new Int32Array(this.#size[list]);
    let at = 0;
    for (let block = this.#head[list]; block; block = this.#data[block]) {
      const used = block === this.#tail[list] ? this.#fill[list] : this.#data[block + 1];
      numbers.set(this.#data.subarray(block + HEADER, block + HEADER + used), at);
      at += used;
    }
    return numbers;
  }
}

/** A copy of `array` with room for three times as much again: fewer, if larger, copies. */
function grown(array: Int32Array<ArrayBuffer>): Int32Array<ArrayBuffer> {
  const larger = new Int32Array(array.length * 4);
  larger.set(array);
  return larger;
}

/** A term's two lists: its postings, and its keyword postings (-1 until it has any). */
interface TermLists {
  terms: number;
  keywords: number;
  shard: number;
}

/** The postings of a full build, by shard: `add` each entry's terms, then take each shard's text. */
export class BuildPostings {
  #lists = new PooledLists();
  #terms = new Map<string, TermLists>();
  #shards: { terms: number[]; keywords: number[] }[];

  constructor(shardCount: number) {
    this.#shards = Array.from({ length: shardCount }, () => ({ terms: [], keywords: [] }));
  }

  /**
   * Post entry `ord` under `term`, with its occurrences in [title, keywords, body]; a non-zero
   * `keyword` value also goes into the term's keyword postings.
   */
  add(term: string, ord: number, counts: readonly number[], keyword: number): void {
    let lists = this.#terms.get(term);
    if (!lists) {
      const shard = shardOf(term, this.#shards.length);
      lists = { terms: this.#lists.create(term), keywords: -1, shard };
      this.#terms.set(term, lists);
      this.#shards[shard].terms.push(lists.terms);
    }
    this.#lists.push4(lists.terms, ord, counts[0], counts[1], counts[2]);
    if (!keyword) return;
    if (lists.keywords < 0) {
      lists.keywords = this.#lists.create(keywordKey(term));
      this.#shards[lists.shard].keywords.push(lists.keywords);
    }
    this.#lists.push2(lists.keywords, ord, keyword);
  }

  /**
   * Each shard that holds postings, with its files: terms in the order first posted, their
   * keyword postings after them, as `formatShard` writes a shard.
   */
  forEachShard(visit: (shard: number, files: PostingsFiles) => void): void {
    this.#shards.forEach(({ terms, keywords }, shard) => {
      if (terms.length) visit(shard, this.#lists.files([...terms, ...keywords]));
    });
  }
}
