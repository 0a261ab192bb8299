/**
 * The k best of a stream under a comparator, in O(n log k) and O(k) memory:
 * a binary heap whose root is the worst kept element, so most candidates of
 * a broad query are refused with one comparison.
 */
export class TopK {
  private readonly heap: number[] = [];

  /** `better(a, b)` is true when a ranks before b. */
  constructor(
    private readonly k: number,
    private readonly better: (a: number, b: number) => boolean,
  ) {}

  offer(x: number): void {
    const { heap, k } = this;
    if (k <= 0) return;
    if (heap.length < k) {
      heap.push(x);
      this.up(heap.length - 1);
    } else if (this.better(x, heap[0] as number)) {
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
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!this.better(heap[parent] as number, heap[i] as number)) break;
      [heap[parent], heap[i]] = [heap[i] as number, heap[parent] as number];
      i = parent;
    }
  }

  private down(i: number): void {
    const { heap } = this;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let worst = i;
      if (l < heap.length && this.better(heap[worst] as number, heap[l] as number)) worst = l;
      if (r < heap.length && this.better(heap[worst] as number, heap[r] as number)) worst = r;
      if (worst === i) return;
      [heap[worst], heap[i]] = [heap[i] as number, heap[worst] as number];
      i = worst;
    }
  }
}
