/**
 * Splits a streamed body into lines without holding the raw body: chunks are
 * decoded as they arrive (a multi-byte character split across chunks is kept
 * whole) and each complete line is yielded with its 1-based number. Stops
 * with 413 as soon as more than `maxBytes` have arrived.
 */
import { StringDecoder } from 'node:string_decoder';
import { PayloadTooLargeError } from '@skills/common';

export interface NumberedLine {
  number: number;
  text: string;
}

export async function* ndjsonLines(
  body: AsyncIterable<Buffer | string>,
  maxBytes: number,
  limitLabel: string,
): AsyncGenerator<NumberedLine> {
  const decoder = new StringDecoder('utf8');
  let received = 0;
  let pending = '';
  let number = 0;
  for await (const chunk of body) {
    const buffer = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    received += buffer.length;
    if (received > maxBytes) throw new PayloadTooLargeError('body.tooLarge', { limit: limitLabel });
    pending += decoder.write(buffer);
    let start = 0;
    for (let newline = pending.indexOf('\n'); newline !== -1; newline = pending.indexOf('\n', start)) {
      number += 1;
      yield { number, text: pending.slice(start, newline).replace(/\r$/, '') };
      start = newline + 1;
    }
    pending = pending.slice(start);
  }
  pending += decoder.end();
  if (pending.length > 0) yield { number: number + 1, text: pending.replace(/\r$/, '') };
}
