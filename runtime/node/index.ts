/**
 * `oxen-inference-sdk/node`: the parts of the SDK that need Node's APIs (they import `node:` modules;
 * also available in Deno and Bun), so the browser-safe entries `oxen-inference-sdk`, `/runtime` and
 * `/models/*` never import this one.
 */
export {
  createNodeProxyListener,
  type NodeIncomingMessage,
  type NodeProxyListenerOptions,
  type NodeRequestListener,
  type NodeServerResponse,
} from './proxy-adapter.ts';
export { saveOutput, type SaveOutputOptions, type SavedOutput } from './save-output.ts';
export { fileToDataUri } from './data-uri.ts';
export type { DataUriOptions } from '../inputs.ts';
