/**
 * The k best of a stream under a comparator, in O(n log k) and O(k) memory:
 * a binary heap whose root is the worst kept element, so most candidates of
 * a broad query are refused with one comparison.
 *
 * Given `positions` (by element, as large as the largest element), the heap
 * also keeps each kept element's place, so an element offered again after
 * its key grew moves to its new place instead of being kept twice: the
 * one-word path raises a document's score when a later term gives it more.
 */
export class TopK {
  private readonly heap: number[] = [];

  /** `better(a, b)` is true when a ranks before b. */
  constructor(
    private readonly k: number,
    private readonly better: (a: number, b: number) => boolean,
    private readonly positions?: Int32Array,
  ) {}

  /** Offers `x`, new or (with positions) kept already and ranking better than when it was offered. */
  offer(x: number): void {
    const { heap, k, positions } = this;
    if (k <= 0) return;
    if (positions) {
      // a position left by an earlier use of the array is stale unless the heap holds x there
      const at = positions[x]!;
      if (at < heap.length && heap[at] === x) return this.down(at);
    }
    if (heap.length < k) {
      heap.push(x);
      this.up(heap.length - 1);
    } else if (this.better(x, heap[0]!)) {
      heap[0] = x;
      this.down(0);
    }
  }

  /** The worst of the k kept (what a newcomer must beat), once k are kept. */
  worst(): number | undefined {
    return this.heap.length === this.k ? this.heap[0] : undefined;
  }

  /** The kept elements, best first. */
  sorted(): number[] {
    return [...this.heap].sort((a, b) => (this.better(a, b) ? -1 : this.better(b, a) ? 1 : 0));
  }

  // The heap keeps the worst element at the root: a parent is never better than its children.
  private up(i: number): void {
    const { heap } = this;
    const x = heap[i]!;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!this.better(heap[parent]!, x)) break;
      this.put(heap[parent]!, i);
      i = parent;
    }
    this.put(x, i);
  }

  private down(i: number): void {
    const { heap } = this;
    const x = heap[i]!;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let at = i;
      if (l < heap.length && this.better(x, heap[l]!)) at = l;
      if (r < heap.length && this.better(at === i ? x : heap[at]!, heap[r]!)) at = r;
      if (at === i) break;
      this.put(heap[at]!, i);
      i = at;
    }
    this.put(x, i);
  }

  private put(x: number, i: number): void {
    this.heap[i] = x;
    if (this.positions) this.positions[x] = i;
  }
}
