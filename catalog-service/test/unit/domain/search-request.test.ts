import { skillsPageBody, toSkillsPage } from '../../../src/domain/search-request';
import type { SearchQuery, SearchResult } from '../../../src/engines/search-engine';
import { MemoryIndex } from '../../../src/engines/memory/memory-index';
import { itemState } from '../../support/engines/engine-items';

describe('skillsPageBody', () => {
  const query: SearchQuery = { q: 'lint', page: 1, limit: 2, sort: 'relevance' };

  it('sends the memory index’s serialised items byte for byte as the generic serialiser would', () => {
    const index = new MemoryIndex();
    index.apply([
      itemState({ name: 'Lint One', description: 'Quotes " and \\ backslashes, émojis 🚀', tags: ['a', 'b'] }),
      itemState({ name: 'Lint Two' }),
      itemState({ name: 'Lint Three' }),
    ]);
    const result = index.search(query);
    expect(result.itemsJson).toBeDefined();
    const { itemsJson: _ignored, ...plain } = result;
    expect(skillsPageBody(query, result)).toBe(JSON.stringify({ data: toSkillsPage(query, plain) }));
    expect(JSON.parse(skillsPageBody(query, result)).data.pagination).toEqual({
      page: 1,
      limit: 2,
      total: 3,
      totalPages: 2,
      hasMore: true,
    });
  });

  it('serialises the items itself when the engine has no JSON of them', () => {
    const result: SearchResult = { items: [], total: 0 };
    expect(skillsPageBody(query, result)).toBe(
      '{"data":{"skills":[],"pagination":{"page":1,"limit":2,"total":0,"totalPages":0,"hasMore":false},"search":{"mode":"lexical"}}}',
    );
  });
});
