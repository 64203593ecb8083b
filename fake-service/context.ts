// Types shared by the server's modules (kept here to avoid import cycles with index.ts).
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { HandlerResult } from './http.ts';
import type { Accounts, Clock, FileStore, ModelRecord, UserInfo } from './state.ts';
import type { EventHub } from './sse.ts';
import type { ParamValidator } from './validate.ts';
import type { GenerationQueue } from './queue.ts';
import type { FineTuneStore } from './routes-finetunes.ts';

export interface ServerCtx {
  /** The snapshot's models, and the fine-tunes deployed since (`custom` set). */
  models: Map<string, ModelRecord>;
  accounts: Accounts;
  clock: Clock;
  hub: EventHub;
  files: FileStore;
  validator: ParamValidator;
  queue: GenerationQueue;
  fineTunes: FineTuneStore;
  costPerGeneration: number;
  unrelatedEvents: boolean;
  /** How long a fine-tune's run takes, in milliseconds of the server's clock. */
  fineTuneMs: number;
}

export interface RequestCtx {
  req: IncomingMessage;
  res: ServerResponse;
  method: string;
  /** Path without the query string, as received (percent-encoded). */
  path: string;
  query: URLSearchParams;
  /** The authenticated user (routes with `auth: false` get a placeholder and must not use it). */
  user: UserInfo;
  /** The JSON object body (read once, cached). */
  body(): Promise<Record<string, unknown>>;
  /** Set to 200 by a streaming handler as soon as it has written its headers. */
  markStatus(status: number): void;
}

/** A route's handler: `params` are the path parameters, percent-decoded, in the order of the path. */
export type Handler = (s: ServerCtx, r: RequestCtx, params: string[]) => Promise<HandlerResult> | HandlerResult;

export interface Route {
  method: string;
  /** Matched against the raw path; capture groups are percent-decoded and passed as params. */
  pattern: RegExp;
  auth?: boolean; // default true
  handler: Handler;
}
