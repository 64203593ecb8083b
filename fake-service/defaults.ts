// The local server's defaults, in one place: startServer (index.ts) applies them, the command line's help (cli.ts) prints them.

/** Defaults of `LocalServerOptions` that the command line also offers. Times in milliseconds. */
export const SERVER_DEFAULTS = {
  /** 0: a port the system picks (the host is always 127.0.0.1). */
  port: 0,
  /** How long the queue worker takes for a generation. */
  workerDelayMs: 50,
  /** The event stream's keep-alive comment interval. */
  keepAliveMs: 15_000,
  /** The share of queued generations that fail (0 to 1). */
  failureRate: 0,
  /** 0: open event streams are never dropped. */
  dropStreamsMs: 0,
  queueMode: 'today',
} as const;
