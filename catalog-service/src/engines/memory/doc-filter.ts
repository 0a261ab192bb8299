import type { SearchQuery } from '../search-engine';
import type { DocumentStore } from './document-store';
import type { PostingList } from './postings';
import { tokenize } from '../../domain/text-analysis';

/**
 * A query's filters: category and type as codes (two integer comparisons per
 * document), tags checked on the document's own list. Every word of a tag is
 * an index term too, so the shortest posting list among them holds every
 * tagged document: `driver`, the candidates of a browse by tag.
 */
export class DocFilter {
  /** no category, type nor tag: every document passes */
  readonly none: boolean;
  /** a category, type or tag word no document ever had: nothing can match */
  readonly impossible: boolean;
  readonly driver: PostingList | undefined;
  /** no tags: the category and type masks (mask()) are the whole filter */
  readonly byCodesOnly: boolean;
  private readonly category: number;
  private readonly type: number;
  private readonly tags: readonly string[];
  private readonly categoryBits: Uint32Array | undefined;
  private readonly typeBits: Uint32Array | undefined;

  constructor(
    private readonly store: DocumentStore,
    query: SearchQuery,
  ) {
    const category = query.category === undefined ? -1 : store.codeOf(`c:${query.category}`);
    const type = query.type === undefined ? -1 : store.codeOf(`t:${query.type}`);
    this.tags = query.tags ?? [];
    let driver: PostingList | undefined;
    let unknownTagWord = false;
    for (const word of this.tags.flatMap((tag) => tokenize(tag))) {
      const id = store.dictionary.idOf(word);
      const list = id === undefined ? undefined : store.postings[id];
      if (!list) unknownTagWord = true;
      else if (!driver || list.length < driver.length) driver = list;
    }
    this.driver = driver;
    this.impossible = category === undefined || type === undefined || unknownTagWord;
    this.category = category ?? -1;
    this.type = type ?? -1;
    this.none = query.category === undefined && query.type === undefined && this.tags.length === 0;
    this.byCodesOnly = this.tags.length === 0;
    this.categoryBits = this.category >= 0 ? store.codeBits(this.category) : undefined;
    this.typeBits = this.type >= 0 ? store.codeBits(this.type) : undefined;
  }

  /** The documents of 32-bit word `w` (ordinals 32w to 32w + 31) in the filter's category and type (tags aside). */
  mask(w: number): number {
    let mask = -1;
    if (this.categoryBits) mask &= w < this.categoryBits.length ? this.categoryBits[w]! : 0;
    if (this.typeBits) mask &= w < this.typeBits.length ? this.typeBits[w]! : 0;
    return mask;
  }

  /** Whether a live document passes every filter. */
  passes(doc: number): boolean {
    if (this.category >= 0 && this.store.categoryCodes[doc] !== this.category) return false;
    if (this.type >= 0 && this.store.typeCodes[doc] !== this.type) return false;
    if (this.tags.length === 0) return true;
    const held = this.store.columns.tags(doc);
    return this.tags.every((tag) => held.includes(tag));
  }
}
