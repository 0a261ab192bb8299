import { embeddingTextOf } from '../../../src/domain/item-text';

describe('embeddingTextOf (what a model is given of an item)', () => {
  it('gives a model the name and the summary of an item, or the name alone', () => {
    expect(embeddingTextOf({ name: 'Cavy', description: 'An integration test framework for React Native.' })).toBe(
      'Cavy: An integration test framework for React Native.',
    );
    expect(embeddingTextOf({ name: 'Cavy', description: '' })).toBe('Cavy');
  });
});
