import type { SearchQuery } from '../search-engine';
import type { DocumentStore } from './document-store';
import type { PostingList } from './postings';
import { tokenize } from '../../domain/text-analysis';
import { policyCheckOf, type PolicyCheck } from './policy-check';
import { accepts, acceptedClasses, EVERY_CLASS, TRUST_CLASS_COUNT } from './trust-classes';

/**
 * A query's filters: category and type as codes (two integer comparisons per
 * document), trust as the set of trust classes accepted (one shift per
 * document: trust-classes.ts), tags checked on the document's own list.
 * Every word of a tag is an index term too, so the shortest posting list
 * among them holds every tagged document: `driver`, the candidates of a
 * browse by tag. A trust filter that refuses no live document is no filter:
 * a catalog where nothing is suspicious searches its default as before.
 * A workspace policy's own filters are checked per document (policy-check.ts).
 */
export class DocFilter {
  /** no category, type, tag, policy nor trust filter that refuses a live document: every document passes */
  readonly none: boolean;
  /** a category, type or tag word no document ever had: nothing can match */
  readonly impossible: boolean;
  readonly driver: PostingList | undefined;
  /** no tags nor policy: the category and type masks (mask()) are the whole filter */
  readonly byCodesOnly: boolean;
  private readonly category: number;
  private readonly type: number;
  private readonly tags: readonly string[];
  private readonly policy: PolicyCheck | undefined;
  private readonly categoryBits: Uint32Array | undefined;
  private readonly typeBits: Uint32Array | undefined;
  /** the trust classes accepted (EVERY_CLASS when the filter refuses no live document) */
  readonly trust: number;
  /** the bit sets of the accepted classes, when some live document is refused */
  private readonly trustBits: Uint32Array[] | undefined;

  constructor(
    private readonly store: DocumentStore,
    query: SearchQuery,
  ) {
    const category = query.category === undefined ? -1 : store.codeOf(`c:${query.category}`);
    const type = query.type === undefined ? -1 : store.codeOf(`t:${query.type}`);
    this.tags = query.tags ?? [];
    this.policy = query.policy ? policyCheckOf(store.columns, query.policy) : undefined;
    let driver: PostingList | undefined;
    let unknownTagWord = false;
    for (const word of this.tags.flatMap((tag) => tokenize(tag))) {
      const id = store.dictionary.idOf(word);
      const list = id === undefined ? undefined : store.postings[id];
      if (!list) unknownTagWord = true;
      else if (!driver || list.length < driver.length) driver = list;
    }
    this.driver = driver;
    const accepted = acceptedClasses(query);
    let refusesLive = false;
    let acceptsLive = false;
    for (let c = 0; c < TRUST_CLASS_COUNT; c++) {
      if (store.classLive[c]! === 0) continue;
      if (accepts(accepted, c)) acceptsLive = true;
      else refusesLive = true;
    }
    this.trust = refusesLive ? accepted : EVERY_CLASS;
    this.trustBits = refusesLive
      ? [...Array(TRUST_CLASS_COUNT).keys()].filter((c) => accepts(accepted, c)).map((c) => store.classBits(c))
      : undefined;
    this.impossible = category === undefined || type === undefined || unknownTagWord || (refusesLive && !acceptsLive);
    this.category = category ?? -1;
    this.type = type ?? -1;
    this.none =
      query.category === undefined &&
      query.type === undefined &&
      this.tags.length === 0 &&
      !this.policy &&
      !refusesLive;
    this.byCodesOnly = this.tags.length === 0 && !this.policy;
    this.categoryBits = this.category >= 0 ? store.codeBits(this.category) : undefined;
    this.typeBits = this.type >= 0 ? store.codeBits(this.type) : undefined;
  }

  /** The documents of 32-bit word `w` (ordinals 32w to 32w + 31) in the filter's category, type and trust (tags and policy aside). */
  mask(w: number): number {
    let mask = -1;
    if (this.categoryBits) mask &= w < this.categoryBits.length ? this.categoryBits[w]! : 0;
    if (this.typeBits) mask &= w < this.typeBits.length ? this.typeBits[w]! : 0;
    if (this.trustBits) {
      let trusted = 0;
      for (const bits of this.trustBits) trusted |= w < bits.length ? bits[w]! : 0;
      mask &= trusted;
    }
    return mask;
  }

  /** Whether a live document passes every filter. */
  passes(doc: number): boolean {
    if (this.category >= 0 && this.store.categoryCodes[doc] !== this.category) return false;
    if (this.type >= 0 && this.store.typeCodes[doc] !== this.type) return false;
    if (this.trustBits && !accepts(this.trust, this.store.trustClasses[doc]!)) return false;
    if (this.policy && !this.policy(doc)) return false;
    if (this.tags.length === 0) return true;
    const held = this.store.columns.tags(doc);
    return this.tags.every((tag) => held.includes(tag));
  }
}
