/**
 * Python's difflib.SequenceMatcher over sequences of strings (no junk function, autojunk on),
 * with lxml's InsensitiveSequenceMatcher variation, which ignores tiny equal blocks amid large
 * changes. Its opcodes are what the edit-history diff is built from, so they follow difflib's
 * choices exactly (longest match, leftmost on ties, popular elements of long sequences ignored).
 */
export type Opcode = ['equal' | 'replace' | 'delete' | 'insert', number, number, number, number];
type Block = [number, number, number];

export class SequenceMatcher {
  private readonly b2j = new Map<string, number[]>();

  constructor(
    private readonly a: readonly string[],
    private readonly b: readonly string[],
  ) {
    b.forEach((elt, i) => {
      const list = this.b2j.get(elt);
      if (list) list.push(i);
      else this.b2j.set(elt, [i]);
    });
    // difflib's autojunk: in sequences of 200 or more, elements making up over 1% are popular.
    if (b.length >= 200) {
      const ntest = Math.floor(b.length / 100) + 1;
      for (const [elt, idxs] of [...this.b2j]) if (idxs.length > ntest) this.b2j.delete(elt);
    }
  }

  findLongestMatch(alo: number, ahi: number, blo: number, bhi: number): Block {
    const { a, b } = this;
    let [besti, bestj, bestsize] = [alo, blo, 0];
    let j2len = new Map<number, number>();
    for (let i = alo; i < ahi; i++) {
      const next = new Map<number, number>();
      for (const j of this.b2j.get(a[i]) ?? []) {
        if (j < blo) continue;
        if (j >= bhi) break;
        const k = (j2len.get(j - 1) ?? 0) + 1;
        next.set(j, k);
        if (k > bestsize) [besti, bestj, bestsize] = [i - k + 1, j - k + 1, k];
      }
      j2len = next;
    }
    // There is no junk: the match extends over equal elements on both sides, popular ones included.
    while (besti > alo && bestj > blo && a[besti - 1] === b[bestj - 1]) [besti, bestj, bestsize] = [besti - 1, bestj - 1, bestsize + 1];
    while (besti + bestsize < ahi && bestj + bestsize < bhi && a[besti + bestsize] === b[bestj + bestsize]) bestsize += 1;
    return [besti, bestj, bestsize];
  }

  /** difflib's get_matching_blocks: sorted, adjacent blocks merged, ending with (len a, len b, 0). */
  matchingBlocks(): Block[] {
    const [la, lb] = [this.a.length, this.b.length];
    const queue: [number, number, number, number][] = [[0, la, 0, lb]];
    const blocks: Block[] = [];
    while (queue.length > 0) {
      const [alo, ahi, blo, bhi] = queue.pop()!;
      const x = this.findLongestMatch(alo, ahi, blo, bhi);
      const [i, j, k] = x;
      if (k > 0) {
        blocks.push(x);
        if (alo < i && blo < j) queue.push([alo, i, blo, j]);
        if (i + k < ahi && j + k < bhi) queue.push([i + k, ahi, j + k, bhi]);
      }
    }
    blocks.sort((x, y) => x[0] - y[0] || x[1] - y[1] || x[2] - y[2]);
    const merged: Block[] = [];
    let [i1, j1, k1] = [0, 0, 0];
    for (const [i2, j2, k2] of blocks) {
      if (i1 + k1 === i2 && j1 + k1 === j2) k1 += k2;
      else {
        if (k1 > 0) merged.push([i1, j1, k1]);
        [i1, j1, k1] = [i2, j2, k2];
      }
    }
    if (k1 > 0) merged.push([i1, j1, k1]);
    merged.push([la, lb, 0]);
    // lxml's InsensitiveSequenceMatcher: equal runs of up to min(2, len(b)/4) elements do not count.
    const threshold = Math.min(2, lb / 4);
    return merged.filter((m) => m[2] > threshold || m[2] === 0);
  }

  opcodes(): Opcode[] {
    let [i, j] = [0, 0];
    const out: Opcode[] = [];
    for (const [ai, bj, size] of this.matchingBlocks()) {
      const tag = i < ai && j < bj ? 'replace' : i < ai ? 'delete' : j < bj ? 'insert' : null;
      if (tag) out.push([tag, i, ai, j, bj]);
      [i, j] = [ai + size, bj + size];
      if (size > 0) out.push(['equal', ai, i, bj, j]);
    }
    return out;
  }
}
