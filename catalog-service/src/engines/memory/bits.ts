/**
 * Bit sets over the ordinals (bit `doc & 31` of word `doc >>> 5`), and the
 * bit tricks the index uses on 32-bit words.
 */

/** Sets bit `doc`, growing the set by half when it is too short; returns the set (a new one when it grew). */
export function setBit(bits: Uint32Array, doc: number): Uint32Array {
  const word = doc >>> 5;
  let out = bits;
  if (word >= bits.length) {
    out = new Uint32Array(Math.max(word + 1, Math.ceil(bits.length * 1.5), 64));
    out.set(bits);
  }
  out[word]! |= 1 << (doc & 31);
  return out;
}

/** Clears bit `doc` (a set that ends before it holds it clear already). */
export function clearBit(bits: Uint32Array, doc: number): void {
  if (doc >>> 5 < bits.length) bits[doc >>> 5]! &= ~(1 << (doc & 31));
}

/** The bit of PostingList.oneWordNames for a one-word name or slug of `length` letters (0: none). */
export function lengthBit(length: number): number {
  return length === 0 ? 0 : 1 << Math.min(length, 31);
}

/** The bits of PostingList.oneWordNames for lengths `low` to `high`. */
export function lengthBits(low: number, high: number): number {
  let bits = 0;
  for (let n = Math.max(low, 1); n <= Math.min(high, 31); n++) bits |= 1 << n;
  return bits;
}

/** The number of set bits in a 32-bit word. */
export function popcount(word: number): number {
  let v = word - ((word >>> 1) & 0x55555555);
  v = (v & 0x33333333) + ((v >>> 2) & 0x33333333);
  return (Math.imul((v + (v >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24) as number;
}

/** The index of the lowest set bit of a non-zero 32-bit word. */
export function lowestBit(word: number): number {
  return 31 - Math.clz32(word & -word);
}
