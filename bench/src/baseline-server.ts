/**
 * The baseline of every ratio: node:http answering a fixed JSON body the size
 * of a real search response, nothing else. What one Node process on this
 * machine can serve at best; the services cannot beat it.
 */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';

const body = readFileSync(process.env.BODY_FILE ?? '', 'utf8');
const length = String(Buffer.byteLength(body));
const server = createServer((_req, res) => {
  res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': length });
  res.end(body);
});
server.keepAliveTimeout = 10_000;
server.listen(Number(process.env.PORT ?? 0), '127.0.0.1');
process.on('SIGTERM', () => server.close(() => process.exit(0)));
