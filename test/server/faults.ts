// Fault injection: checked for every request before auth and routing.

export interface Fault {
  method?: string; // default: any
  path: string | RegExp; // string = exact path (without query) or prefix ending in '*'
  kind: '429' | '500' | '503' | 'reset' | 'slow-body' | 'hang' | 'invalid-json' | '404' | '500-after-enqueue';
  times?: number; // how many matching requests it applies to; default 1; Infinity allowed
  retryAfterSeconds?: number; // for 429/503: the Retry-After header value (seconds)
  delayMs?: number; // for slow-body: delay between the headers+first half and the rest of the body; for hang: never answers (until close)
}

export interface FaultController {
  add(f: Fault): void;
  clear(): void;
}

interface Armed {
  fault: Fault;
  left: number;
}

export function pathMatches(pattern: string | RegExp, path: string): boolean {
  if (pattern instanceof RegExp) {
    pattern.lastIndex = 0;
    return pattern.test(path);
  }
  if (pattern.endsWith('*')) return path.startsWith(pattern.slice(0, -1));
  return path === pattern;
}

export class Faults implements FaultController {
  private armed: Armed[] = [];

  add(f: Fault): void {
    const times = f.times ?? 1;
    if (!(times > 0)) return;
    this.armed.push({ fault: { ...f }, left: times });
  }

  clear(): void {
    this.armed = [];
  }

  /** The first armed fault matching this request (in the order added), consumed once; undefined if none. */
  take(method: string, path: string): Fault | undefined {
    const i = this.armed.findIndex(
      (a) => (a.fault.method === undefined || a.fault.method.toUpperCase() === method.toUpperCase()) && pathMatches(a.fault.path, path),
    );
    if (i < 0) return undefined;
    const a = this.armed[i]!;
    a.left -= 1;
    if (a.left <= 0) this.armed.splice(i, 1);
    return a.fault;
  }
}
