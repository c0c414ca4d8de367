/**
 * The operator's allowed-domain patterns, as the published interface defines them:
 *  - `example.com`: exactly that host, on any scheme;
 *  - `*.example.com`: any subdomain of it at any depth, not the domain itself;
 *  - `https://app.example.com`: that scheme and host only.
 * A port in a pattern (`http://localhost:5173`, `example.com:8443`) must match too; without one,
 * a scheme-less pattern allows any port and a pattern with a scheme allows that scheme's default
 * port. Hosts compare case-insensitively in their ASCII (punycode) form, as browsers send them.
 * An empty list allows every origin; otherwise a request without an `Origin` is refused.
 * (The admin schema `allowedDomainPattern` checks the patterns' shape when they are saved.)
 */
export function isOriginAllowed(origin: string | undefined, patterns: readonly string[]): boolean {
  if (patterns.length === 0) return true;
  const url = parseUrl(origin ?? '');
  if (!url || !/^https?:$/.test(url.protocol)) return false;
  return patterns.some((pattern) => matches(url, pattern.trim()));
}

interface Pattern {
  /** `https:`, or null for any scheme. */
  protocol: string | null;
  hostname: string;
  subdomainsOnly: boolean;
  /** The port to require, '' for the scheme's default, or null for any. */
  port: string | null;
}

function matches(origin: URL, text: string): boolean {
  const pattern = parsePattern(text);
  if (!pattern) return false;
  if (pattern.protocol !== null && pattern.protocol !== origin.protocol) return false;
  if (pattern.port !== null && pattern.port !== origin.port) return false;
  return pattern.subdomainsOnly ? origin.hostname.endsWith(`.${pattern.hostname}`) : origin.hostname === pattern.hostname;
}

function parsePattern(text: string): Pattern | null {
  const [, scheme, wildcard, rest] = /^(?:(https?):\/\/)?(\*\.)?(.+?)\/?$/i.exec(text) ?? [];
  if (!rest) return null;
  // The URL parser normalises the host (case, punycode) and the port (a default port becomes '').
  const url = parseUrl(`${scheme ?? 'http'}://${rest}`);
  if (!url || url.pathname !== '/' || url.username || url.search || url.hash) return null;
  const portGiven = /:\d+$/.test(rest);
  return {
    protocol: scheme ? `${scheme.toLowerCase()}:` : null,
    hostname: url.hostname,
    subdomainsOnly: wildcard !== undefined,
    port: portGiven ? url.port : scheme ? '' : null,
  };
}

function parseUrl(text: string): URL | null {
  try {
    return new URL(text);
  } catch {
    return null;
  }
}
