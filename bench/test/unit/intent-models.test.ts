import { rng } from '../../src/catalog-generator';
import { nearest } from '../../src/intent-models';

describe('nearest (the model-alone ranking)', () => {
  it('returns the indexes of the highest dot products, best first, as a full sort would', () => {
    const next = rng(7);
    const unit = () => {
      const v = Float32Array.from({ length: 8 }, () => next() - 0.5);
      const n = Math.hypot(...v);
      return v.map((x) => x / n);
    };
    const vectors = Array.from({ length: 500 }, unit);
    for (let q = 0; q < 20; q++) {
      const query = unit();
      const dot = (v: Float32Array) => v.reduce((sum, x, i) => sum + x * (query[i] as number), 0);
      const sorted = vectors.map((v, i) => [i, dot(v)] as const).sort((a, b) => b[1] - a[1]);
      expect(nearest(query, vectors, 10)).toEqual(sorted.slice(0, 10).map(([i]) => i));
    }
  });
});
