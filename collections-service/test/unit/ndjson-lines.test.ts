import { PayloadTooLargeError } from '@skills/common';
import { ndjsonLines } from '../../src/http/ndjson-lines';

async function collect(chunks: (string | Buffer)[], max = 1_000_000) {
  async function* source() {
    for (const c of chunks) yield typeof c === 'string' ? Buffer.from(c) : c;
  }
  const out: [number, string][] = [];
  for await (const line of ndjsonLines(source(), max, '1mb')) out.push([line.number, line.text]);
  return out;
}

describe('ndjsonLines', () => {
  it('numbers lines across chunk boundaries, keeps the last line without newline, strips CR', async () => {
    expect(await collect(['{"a":1}\n{"b"', ':2}\r\n\n', '{"c":3}'])).toEqual([
      [1, '{"a":1}'],
      [2, '{"b":2}'],
      [3, ''],
      [4, '{"c":3}'],
    ]);
  });

  it('keeps a multi-byte character split between two chunks', async () => {
    const bytes = Buffer.from('{"n":"é"}\n');
    const cut = bytes.indexOf(0xc3) + 1;
    expect(await collect([bytes.subarray(0, cut), bytes.subarray(cut)])).toEqual([[1, '{"n":"é"}']]);
  });

  it('stops with 413 once more than the limit has arrived', async () => {
    await expect(collect(['12345\n', '67890\n'], 8)).rejects.toBeInstanceOf(PayloadTooLargeError);
  });

  it('yields nothing for an empty body', async () => {
    expect(await collect([])).toEqual([]);
  });
});
