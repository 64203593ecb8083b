/**
 * The host names the proxy answers (its defence against DNS rebinding, as Vite's dev server's
 * `server.allowedHosts`): a page on a name its owner points at your server sends that name in
 * `Host`, and frameworks that build `request.url` from `Host` put it there too. Internal: not
 * exported from the package.
 */
import { SDKError } from '../errors.ts';

/** A `Host` value as the proxy compares it: `host` with its port (`app.example:8080`), `hostname` without. Lower case, no trailing dot. */
export interface ParsedHost {
  host: string;
  hostname: string;
}

/** A host name (letters, digits, `-`, `_`, dots) or an IP literal (`[::1]`), with an optional port; nothing else (no user, path or space). */
const HOST_SYNTAX = /^(?:[A-Za-z0-9_-]+(?:\.[A-Za-z0-9_-]+)*\.?|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/;

/** `value` (a `Host` header, or a URL's `host`) as compared, or undefined when it is not a plain `host[:port]`. */
export function parseHost(value: string): ParsedHost | undefined {
  if (!HOST_SYNTAX.test(value)) return undefined;
  let url: URL;
  try {
    url = new URL(`http://${value}`);
  } catch {
    return undefined;
  }
  const hostname = url.hostname.replace(/\.$/, '');
  return { hostname, host: url.port === '' ? hostname : `${hostname}:${url.port}` };
}

/** True for a loopback name (`localhost` and names under `.localhost`) and for an IP literal (which no rebinding page can be on). */
export function loopbackOrIp(hostname: string): boolean {
  if (hostname === 'localhost' || hostname.endsWith('.localhost')) return true;
  if (hostname.startsWith('[')) return true; // IPv6, as the URL parser accepted it
  return /^\d{1,3}(?:\.\d{1,3}){3}$/.test(hostname); // IPv4, as the URL parser wrote it (0x7f.1 is 127.0.0.1)
}

/**
 * The check of `allowedHosts` entries, as Vite's: a host name (`app.example.com`, any port), or a
 * name after a dot (`.example.com`: that name and every name under it).
 * @throws SDKError naming the entry that is neither.
 */
export function checkAllowedHosts(entries: readonly string[]): (hostname: string) => boolean {
  const names = entries.map((entry) => {
    const dot = typeof entry === 'string' && entry.startsWith('.');
    const parsed = typeof entry === 'string' ? parseHost(dot ? entry.slice(1) : entry) : undefined;
    if (parsed === undefined || parsed.host !== parsed.hostname)
      throw new SDKError(
        `allowedHosts must list host names without a port, such as "app.example.com" or ".example.com", got ${JSON.stringify(entry)}`,
      );
    return { name: parsed.hostname, subdomains: dot };
  });
  return (hostname) =>
    names.some(({ name, subdomains }) => hostname === name || (subdomains && hostname.endsWith(`.${name}`)));
}

/**
 * The proxy's host check: the message of the refusal (421) of a request whose `Host` header (or,
 * without `publicOrigin`, whose `request.url`) names a host it does not serve, or undefined.
 * - `allowedHosts: true`: every host is served.
 * - With `publicOrigin` (`publicUrls`): the hosts of those origins (with their ports) and the
 *   names `allowedHosts` lists. `request.url` is not checked: the Origin check compares with
 *   `publicOrigin` only.
 * - Without it: loopback names and IP literals (`loopbackOrIp`) and the names `allowedHosts` lists,
 *   in `Host` and in `request.url` (whose origin is then the proxy's own).
 * @throws SDKError at creation when an `allowedHosts` entry is not a host name.
 */
export function hostCheck(
  publicUrls: readonly URL[] | undefined,
  allowedHosts: readonly string[] | true | undefined,
): (host: string | null, url: URL) => string | undefined {
  if (allowedHosts === true) return () => undefined;
  const listed = allowedHosts === undefined ? () => false : checkAllowedHosts(allowedHosts);
  const served = (value: string): boolean => {
    const parsed = parseHost(value);
    if (parsed === undefined) return false;
    if (listed(parsed.hostname)) return true;
    if (publicUrls === undefined) return loopbackOrIp(parsed.hostname);
    // `app.example:443` is `https://app.example`: the port compared as the origin's scheme has it
    return publicUrls.some((u) => new URL(`${u.protocol}//${value}`).host === u.host);
  };
  return (host, url) => {
    if (host !== null && !served(host)) return refusedHostMessage(host, publicUrls !== undefined);
    if (publicUrls === undefined && !served(url.host)) return refusedHostMessage(url.host, false);
    return undefined;
  };
}

/** The longest part of a refused `Host` repeated in the error answer. */
const MAX_SHOWN_HOST_CHARS = 100;

/** The message of a refused host: which host, and how to allow it. */
export function refusedHostMessage(host: string, publicOriginSet: boolean): string {
  const shown = host.length > MAX_SHOWN_HOST_CHARS ? `${host.slice(0, MAX_SHOWN_HOST_CHARS)}…` : host;
  const name = parseHost(host)?.hostname;
  const allow = name === undefined ? '' : ` or allowedHosts: [${JSON.stringify(name)}]`;
  return publicOriginSet
    ? `Host ${shown} is not served by this proxy: it answers only the hosts of its publicOrigin (add the origin browsers use to publicOrigin${allow})`
    : `Host ${shown} is not served by this proxy: without publicOrigin it answers only localhost and IP addresses (a DNS-rebinding defence); set publicOrigin to the origin browsers use${allow}`;
}
