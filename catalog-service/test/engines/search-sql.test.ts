import { buildSearchStatement, RANK_CANDIDATES, toPrefixTsQuery } from '../../src/engines/postgres/search-sql';

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

describe('bounded relevance ranking', () => {
  const q = { q: 'kafka', page: 1, limit: 20, sort: 'relevance' as const };

  it('ranks only the newest RANK_CANDIDATES matches on pages inside them', () => {
    const stmt = buildSearchStatement(q, 'fts');
    expect(stmt.rows).toContain(`LIMIT ${RANK_CANDIDATES}`);
    expect(stmt.rows).not.toContain('UNION ALL');
    expect(stmt.bind).toEqual(['kafka:*', 20, 0]);
  });

  it('continues with the other matches newest first on pages past them', () => {
    const stmt = buildSearchStatement({ ...q, page: RANK_CANDIDATES / 20 + 1 }, 'fts');
    expect(stmt.rows).toContain(`LIMIT 20 OFFSET ${RANK_CANDIDATES}) AS rest`);
    expect(stmt.bind).toEqual(['kafka:*', 20, RANK_CANDIDATES]);
  });
});
