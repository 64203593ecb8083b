/**
 * `oxen-inference-sdk/node`: the Node.js-only parts of the SDK (they import `node:` modules, so the
 * browser-safe entries `oxen-inference-sdk`, `/runtime` and `/models/*` never import this one).
 */
export {
  createNodeProxyListener,
  type NodeIncomingMessage,
  type NodeProxyListenerOptions,
  type NodeRequestListener,
  type NodeServerResponse,
} from './proxy-adapter.ts';
