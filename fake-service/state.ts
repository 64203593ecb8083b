// Server state: the model snapshot, users and namespaces, credits, the clock and the served files.
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import type { IncomingMessage } from 'node:http';
import { randomUUID } from 'node:crypto';
import { HttpError, isObject } from './http.ts';

export interface ModelRecord {
  id: string;
  /** The stored file, byte for byte (served by GET /api/ai/models/{id}). */
  bytes: Buffer;
  data: Record<string, unknown>;
  /** `request_schema` or `json_request_schema`, whichever the file uses; null when absent or null. */
  schema: Record<string, unknown> | null;
  input: string[];
  output: string[];
  endpoint: string | undefined;
  /** A deployed fine-tune (ours: served under its `oxen:` slug to its owner namespace's users). */
  custom?: { owner: string; status: 'active' | 'inactive' };
}

/**
 * Load every *.json file of `dirs` as a model object; the id is the file name without `.json`. With
 * several directories, a later one's model replaces an earlier one's of the same id.
 */
export async function loadModels(dirs: string | readonly string[]): Promise<Map<string, ModelRecord>> {
  const models = new Map<string, ModelRecord>();
  for (const dir of typeof dirs === 'string' ? [dirs] : dirs)
    for (const [id, record] of await loadDir(dir)) models.set(id, record);
  return models;
}

async function loadDir(dir: string): Promise<Map<string, ModelRecord>> {
  const models = new Map<string, ModelRecord>();
  const names = (await readdir(dir)).filter((n) => n.endsWith('.json')).sort();
  await Promise.all(
    names.map(async (name) => {
      const bytes = await readFile(path.join(dir, name));
      let data: unknown;
      try {
        data = JSON.parse(bytes.toString('utf8'));
      } catch (e) {
        throw new Error(`local server: ${path.join(dir, name)} is not valid JSON: ${(e as Error).message}`, {
          cause: e,
        });
      }
      if (!isObject(data)) throw new Error(`local server: ${path.join(dir, name)} is not a JSON object`);
      const id = name.slice(0, -'.json'.length);
      const rawSchema = 'request_schema' in data ? data.request_schema : data.json_request_schema;
      const caps = isObject(data.capabilities) ? data.capabilities : {};
      const list = (v: unknown): string[] =>
        Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
      models.set(id, {
        id,
        bytes,
        data,
        schema: isObject(rawSchema) ? rawSchema : null,
        input: list(caps.input),
        output: list(caps.output),
        endpoint: typeof data.endpoint === 'string' ? data.endpoint : undefined,
      });
    }),
  );
  return models;
}

/** `image` / `video` when the model produces that media (capabilities first, else the endpoint), else null. */
export function mediaTypeOf(m: ModelRecord): 'image' | 'video' | null {
  if (m.output.length > 0) {
    if (m.output.includes('video')) return 'video';
    if (m.output.includes('image')) return 'image';
    return null;
  }
  if (m.endpoint?.startsWith('/videos/')) return 'video';
  if (m.endpoint?.startsWith('/images/')) return 'image';
  return null;
}

/** A chat model outputs text and is served at /chat/completions (when either fact is unknown, the other decides). */
export function isChatModel(m: ModelRecord): boolean {
  const textOut = m.output.length === 0 ? true : m.output.includes('text');
  const chatEndpoint = m.endpoint === undefined ? m.output.length > 0 : m.endpoint === '/chat/completions';
  return textOut && chatEndpoint;
}

export interface UserInfo {
  user: string;
  orgs: string[];
}

export class Accounts {
  private readonly byKey: Map<string, UserInfo>;
  private readonly credits = new Map<string, number>();

  /**
   * @param anyKey - the user every other non-empty key authenticates as (`LocalServerOptions.anyKey`);
   *   undefined: only the keys of `users` are accepted.
   */
  constructor(
    users: Record<string, { user: string; orgs?: string[] }>,
    credits: Record<string, number>,
    private readonly anyKey?: UserInfo,
  ) {
    this.byKey = new Map(Object.entries(users).map(([k, v]) => [k, { user: v.user, orgs: [...(v.orgs ?? [])] }]));
    for (const [ns, n] of Object.entries(credits)) this.credits.set(ns, n);
  }

  /**
   * `Authorization: Bearer <key>` of a known user (or any key, with `anyKey`), else 401. The 401 message is ours (not shown):
   * `Missing or invalid API key`. The key is never echoed or logged.
   */
  authenticate(req: IncomingMessage): UserInfo {
    const header = req.headers.authorization;
    const m = typeof header === 'string' ? /^Bearer\s+(.+)$/i.exec(header.trim()) : null;
    const key = m?.[1]?.trim();
    const user = key ? (this.byKey.get(key) ?? this.anyKey) : undefined;
    if (!user) throw new HttpError(401, 'Missing or invalid API key', { headers: { 'WWW-Authenticate': 'Bearer' } });
    return user;
  }

  canAccess(u: UserInfo, ns: string): boolean {
    return ns === u.user || u.orgs.includes(ns);
  }

  /**
   * The namespace to act in: `requested` (target_namespace / namespace query / path segment) or the user.
   * Another namespace -> 403 `User <user> is not allowed to act in namespace <ns>` (message ours).
   */
  namespaceFor(u: UserInfo, requested: unknown, field = 'target_namespace'): string {
    if (requested === undefined || requested === null || requested === '') return u.user;
    if (typeof requested !== 'string') throw new HttpError(400, `${field} must be a string`);
    if (!this.canAccess(u, requested))
      throw new HttpError(403, `User ${u.user} is not allowed to act in namespace ${requested}`);
    return requested;
  }

  balance(ns: string): number {
    return this.credits.get(ns) ?? 1000;
  }

  setCredits(ns: string, n: number): void {
    this.credits.set(ns, n);
  }

  /**
   * Check (and charge) `cost` credits. The balance must cover the cost and be positive (so a free chat call
   * with 0 credits still fails). 402 message: `Insufficient credits: namespace <ns> has <n> credits, <m> required`,
   * where m is the cost, or 1 for a free call (ours: a positive balance is required).
   */
  charge(ns: string, cost: number): void {
    const have = this.balance(ns);
    const required = cost > 0 ? cost : 1;
    if (have <= 0 || have < cost) {
      throw new HttpError(402, `Insufficient credits: namespace ${ns} has ${have} credits, ${required} required`);
    }
    if (cost > 0) this.credits.set(ns, have - cost);
  }
}

/** The injectable clock: the base clock (options.now or Date.now) plus an offset moved by advance(). */
export class Clock {
  private offset = 0;
  constructor(
    private readonly base: () => number,
    private readonly onAdvance: () => void,
  ) {}
  now(): number {
    return this.base() + this.offset;
  }
  seconds(): number {
    return Math.floor(this.now() / 1000);
  }
  advance(ms: number): void {
    this.offset += ms;
    this.onAdvance();
  }
}

/** A few fixed bytes per media type (a PNG signature / an ISO-BMFF `ftyp` box): enough for clients to download. */
export const FILE_BYTES: Record<'image' | 'video', Buffer> = {
  image: Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c489', 'hex'),
  video: Buffer.from('0000001866747970697336d00000000069736f6d6d703432', 'hex'),
};

/** Output files the server has "produced": GET /files/<namespace>/<id>.<ext> (no auth) serves them. */
export class FileStore {
  private readonly files = new Map<string, 'image' | 'video'>();
  constructor(private readonly baseUrl: () => string) {}
  create(ns: string, media: 'image' | 'video'): string {
    const p = `/files/${encodeURIComponent(ns)}/${randomUUID()}.${media === 'image' ? 'png' : 'mp4'}`;
    this.files.set(p, media);
    return this.baseUrl() + p;
  }
  get(p: string): 'image' | 'video' | undefined {
    return this.files.get(p);
  }
}
