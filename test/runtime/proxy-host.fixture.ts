// A proxy host process for proxy-hardening.test.ts: createProxyHandler behind the real Node adapter
// (createNodeProxyListener), with Node's default handling of unhandled rejections (the process exits
// with code 1). Env: PROXY_KEY, PROXY_BASE_URL. Prints the proxy's origin on stdout once listening.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createProxyHandler } from '../../runtime/proxy/handler.ts';
import { createNodeProxyListener } from '../../runtime/node/index.ts';

const handler = createProxyHandler({
  apiKey: process.env['PROXY_KEY'],
  baseUrl: process.env['PROXY_BASE_URL'],
  pathPrefix: '/api/oxen',
  authorize: (request) => {
    if (request.headers.get('x-throw') !== null) throw new Error('authorize exploded');
    return true;
  },
});
const server = http.createServer();
server.listen(0, '127.0.0.1', () => {
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  server.on('request', createNodeProxyListener(handler, { origin }));
  process.stdout.write(`${origin}\n`);
});
