import { ifNoneMatchHits, strongEtag } from '../../src/http/proxy/conditional';

describe('conditional requests', () => {
  const etag = strongEtag(Buffer.from('{"data":1}'));

  it('tags equal bodies alike and different bodies differently, as a strong quoted tag', () => {
    expect(etag).toMatch(/^"[A-Za-z0-9_-]{32}"$/);
    expect(strongEtag(Buffer.from('{"data":1}'))).toBe(etag);
    expect(strongEtag(Buffer.from('{"data":2}'))).not.toBe(etag);
  });

  it('matches If-None-Match by weak comparison: the tag, W/ form, lists and *', () => {
    expect(ifNoneMatchHits(etag, etag)).toBe(true);
    expect(ifNoneMatchHits(`W/${etag}`, etag)).toBe(true);
    expect(ifNoneMatchHits(`"other", W/"x",${etag}`, etag)).toBe(true);
    expect(ifNoneMatchHits('*', etag)).toBe(true);
    expect(ifNoneMatchHits('"other", "x,y"', etag)).toBe(false);
    expect(ifNoneMatchHits(etag.slice(1, -1), etag)).toBe(false); // unquoted is not an entity tag
    expect(ifNoneMatchHits(undefined, etag)).toBe(false);
  });
});
