// A proxy host process for proxy-bodies.test.ts's memory test: createProxyHandler (its defaults) behind
// createNodeProxyListener at /api/oxen, alone in its process, sampling its resident set every 5 ms.
// GET /__reset sets the peak to the resident set now; GET /__peak answers the peak since, in bytes.
// Env: PROXY_BASE_URL. Prints the proxy's origin on stdout once listening.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createProxyHandler } from '../../runtime/proxy/handler.ts';
import { createNodeProxyListener } from '../../runtime/node/index.ts';

const handler = createProxyHandler({
  apiKey: 'sk-memory-0123456789',
  baseUrl: process.env['PROXY_BASE_URL'],
  pathPrefix: '/api/oxen',
});
let peak = 0;
setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 5).unref();
const server = http.createServer();
server.listen(0, '127.0.0.1', () => {
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const proxy = createNodeProxyListener(handler, { origin });
  server.on('request', (req: http.IncomingMessage, res: http.ServerResponse) => {
    if (req.url === '/__reset') peak = process.memoryUsage().rss;
    if (req.url === '/__reset' || req.url === '/__peak') res.end(String(peak));
    else proxy(req, res);
  });
  process.stdout.write(`${origin}\n`);
});
