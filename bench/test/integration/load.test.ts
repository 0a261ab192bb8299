import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { runLoad } from '../../src/load';

describe('a measured run', () => {
  let server: Server;
  let url: string;
  beforeAll(async () => {
    let n = 0;
    // every third answer is shed, every seventh refused as bad input
    server = createServer((_req, res) => {
      n += 1;
      res.statusCode = n % 3 === 0 ? 503 : n % 7 === 0 ? 400 : 200;
      res.end('{}');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('says which answers its errors were, by status code', async () => {
    const lines: string[] = [];
    const phase = {
      scenario: 'probe',
      url,
      requests: [{ setup: () => ({ method: 'GET' as const, path: '/', headers: {} }) }],
    };
    const result = await runLoad(() => phase, {
      connections: 2,
      durationSec: 1,
      warmupSec: 0,
      progress: (text) => lines.push(text),
    });
    const shed = result.errorStatuses?.['503'] ?? 0;
    const refused = result.errorStatuses?.['400'] ?? 0;
    expect(shed).toBeGreaterThan(0);
    expect(refused).toBeGreaterThan(0);
    expect(result.errors).toBe(shed + refused);
    expect(Object.keys(result.errorStatuses ?? {}).sort()).toEqual(['400', '503']);
    expect(lines.at(-1)).toMatch(new RegExp(`${result.errors} errors \\(.*${shed} × 503`));
  });
});
