/**
 * What the index serves of each document, as columns by ordinal rather than
 * an object per item: at 1,000,000 items an object with its fourteen fields,
 * tag array and date string cost ~0.3 KB each over the text itself. The
 * numbers (update time, downloads) and the category and type codes live in
 * the document store's typed arrays; the strings live here, and the values
 * that repeat across items (tag lists, publishers, licences) are kept once.
 * An item is built back as an object when a page first serves it
 * (DocumentStore.item keeps the last ones served).
 */
import type { ItemDetails } from '@skills/common';

/** The details besides downloads (a typed array of the store), for an item that has any. */
type LinkDetails = Omit<ItemDetails, 'downloads'>;

// Shared lists are not frozen: a frozen array's slice() (every page copies its items' tags) is ~30 times slower.
const NO_TAGS: readonly string[] = [];
const NO_LINKS: Readonly<LinkDetails> = Object.freeze({
  publisher: null,
  version: null,
  license: null,
  repositoryUrl: null,
  homepageUrl: null,
});

/** What a document serves besides the store's numbers and codes. */
export interface ServedText {
  name: string;
  slug: string;
  description: string;
  tags: readonly string[];
  details: ItemDetails;
  /** ItemTrust.latestVersion */
  latestVersion: string | null;
}

export class ItemColumns {
  /** kept after a document dies: the name order compares dead ordinals until it sweeps them out */
  readonly names: string[] = [];
  readonly slugs: string[] = [];
  private readonly descriptions: Array<string | undefined> = [];
  private readonly tagLists: Array<readonly string[] | undefined> = [];
  private readonly linkDetails: Array<LinkDetails | undefined> = [];
  private readonly latestVersions: Array<string | null | undefined> = [];
  /**
   * one copy of each tag list and of each publisher and licence: they repeat
   * across a catalog. Kept for the index's life (a rebuild starts afresh).
   */
  private readonly sharedTagLists = new Map<string, readonly string[]>();
  private readonly sharedStrings = new Map<string, string>();

  set(doc: number, text: ServedText): void {
    this.names[doc] = text.name;
    this.slugs[doc] = text.slug;
    this.descriptions[doc] = text.description;
    this.tagLists[doc] = this.shareTags(text.tags);
    const { publisher, version, license, repositoryUrl, homepageUrl } = text.details;
    const none =
      publisher === null && version === null && license === null && repositoryUrl === null && homepageUrl === null;
    this.linkDetails[doc] = none
      ? undefined
      : { publisher: this.share(publisher), version, license: this.share(license), repositoryUrl, homepageUrl };
    this.latestVersions[doc] = this.share(text.latestVersion);
  }

  /** Lets go of what only a live document needs (name and slug stay: see `names`). */
  clear(doc: number): void {
    this.descriptions[doc] = undefined;
    this.tagLists[doc] = undefined;
    this.linkDetails[doc] = undefined;
    this.latestVersions[doc] = undefined;
  }

  latestVersion(doc: number): string | null {
    return this.latestVersions[doc] ?? null;
  }

  description(doc: number): string {
    return this.descriptions[doc] ?? '';
  }

  /** The document's tags, shared with other documents: never to be changed. */
  tags(doc: number): readonly string[] {
    return this.tagLists[doc] ?? NO_TAGS;
  }

  /** The details other than downloads, in the order the API serves them. */
  linksOf(doc: number): Readonly<LinkDetails> {
    return this.linkDetails[doc] ?? NO_LINKS;
  }

  private shareTags(tags: readonly string[]): readonly string[] {
    if (tags.length === 0) return NO_TAGS;
    const key = JSON.stringify(tags);
    let shared = this.sharedTagLists.get(key);
    if (shared === undefined) this.sharedTagLists.set(key, (shared = tags.map((tag) => this.share(tag) as string)));
    return shared;
  }

  private share(value: string | null): string | null {
    if (value === null) return null;
    let shared = this.sharedStrings.get(value);
    if (shared === undefined) this.sharedStrings.set(value, (shared = value));
    return shared;
  }
}
