import { buildSearchStatement, toPrefixTsQuery } from '../../src/engines/postgres/search-sql';

describe('toPrefixTsQuery', () => {
  it('requires every term and matches the last one as a prefix', () => {
    expect(toPrefixTsQuery('Kafka Conn')).toBe('kafka & conn:*');
  });

  it('keeps only letters and digits, so no tsquery operator gets through', () => {
    expect(toPrefixTsQuery("a&b | !c:* 'd' <-> (e)")).toBe('a & b & c & d & e:*');
    expect(toPrefixTsQuery('élan Übersetzer 3d')).toBe('élan & übersetzer & 3d:*');
    expect(toPrefixTsQuery('&&& ***')).toBeUndefined();
  });

  it('uses at most eight terms', () => {
    expect(toPrefixTsQuery('a b c d e f g h i j')).toBe('a & b & c & d & e & f & g & h:*');
  });
});

describe('buildSearchStatement', () => {
  it('binds every user value instead of writing it into the SQL', () => {
    const stmt = buildSearchStatement({ q: "x'; DROP TABLE t; --", category: "c'", type: 'skill', page: 3, limit: 10, sort: 'relevance' }, 'fts+typo');
    expect(stmt.rows).not.toContain('DROP');
    expect(stmt.count).not.toContain('DROP');
    expect(stmt.bind).toEqual(['x & drop & table & t:*', "x'; drop table t; --", "c'", 'skill', 10, 20]);
    expect(stmt.countBind).toEqual(stmt.bind.slice(0, 4));
  });
});
