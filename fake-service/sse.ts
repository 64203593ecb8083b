// GET /api/events: per-user Server-Sent Events streams, keep-alive comments, no buffering.
import type { ServerResponse } from 'node:http';

interface Stream {
  res: ServerResponse;
  keepAlive: NodeJS.Timeout;
}

/** Wire form of one event: `event: <name>`, one `data:` line per line of data, blank line. */
export function formatEvent(event: string, data: unknown): string {
  const text = typeof data === 'string' ? data : JSON.stringify(data);
  const lines = text.split(/\r\n|\r|\n/).map((l) => `data: ${l}`);
  return `event: ${event}\n${lines.join('\n')}\n\n`;
}

export class EventHub {
  private readonly streams = new Map<string, Set<Stream>>();

  constructor(private readonly keepAliveMs: number) {}

  /** Take over `res` as an event stream for `user`: headers flushed at once, keep-alive timer, cleanup on close. */
  open(user: string, res: ServerResponse): void {
    res.writeHead(200, {
      'Content-Type': 'text/event-stream',
      'Cache-Control': 'no-cache',
      Connection: 'keep-alive',
      'X-Accel-Buffering': 'no',
    });
    res.flushHeaders();
    res.socket?.setNoDelay(true);
    // `: keep-alive` when nothing else was written for keepAliveMs: the timer is re-armed by every write.
    const keepAlive = setTimeout(function tick() {
      if (!res.writableEnded && !res.destroyed) res.write(': keep-alive\n\n');
      keepAlive.refresh();
    }, this.keepAliveMs);
    const stream: Stream = { res, keepAlive };
    let set = this.streams.get(user);
    if (!set) this.streams.set(user, (set = new Set()));
    set.add(stream);
    const cleanup = (): void => {
      clearTimeout(keepAlive);
      const s = this.streams.get(user);
      s?.delete(stream);
      if (s && s.size === 0) this.streams.delete(user);
    };
    res.on('close', cleanup);
    res.on('error', cleanup);
  }

  /** Push an event to every open stream of `user`; lost when none is open (no buffering). String data is sent raw. */
  emit(user: string, event: string, data: unknown): number {
    const set = this.streams.get(user);
    if (!set) return 0;
    const frame = formatEvent(event, data);
    let n = 0;
    for (const s of set) {
      if (s.res.writableEnded || s.res.destroyed) continue;
      s.res.write(frame);
      s.keepAlive.refresh();
      n++;
    }
    return n;
  }

  openCount(user?: string): number {
    if (user !== undefined) return this.streams.get(user)?.size ?? 0;
    let n = 0;
    for (const s of this.streams.values()) n += s.size;
    return n;
  }

  /** Destroy every open stream's socket abruptly (a mid-flight drop: no final chunk, the client sees an error). */
  dropAll(): void {
    for (const set of [...this.streams.values()]) {
      for (const s of [...set]) {
        clearTimeout(s.keepAlive);
        s.res.socket?.destroy();
        s.res.destroy();
      }
    }
    this.streams.clear();
  }
}
