import { normalizeUrl } from './urls.js';

/**
 * Which pages a website connector may crawl, as a tenant writes it. `hosts`: exact hosts (`docs.example.com`, with
 * `:port` when not the default; `www.` is not folded: `example.com` and `www.example.com` are two sites). `include`
 * and `exclude`: path patterns in the style of robots.txt, matched against the normalized URL's path and query:
 * `*` is any run of characters, a final `$` anchors the end, anything else is a prefix (`/docs/`, `/blog/*.html$`,
 * `*?print=`). Exclude wins over include; an empty include means everything on the hosts.
 */
export interface ScopeRules {
  hosts: string[];
  include: string[];
  exclude: string[];
}

/** Why a URL is out of scope: not on the hosts (or not http(s)), excluded, or not included. */
export type OutOfScopeReason = 'host' | 'excluded' | 'not_included';

export interface Scope {
  inScope(url: string): boolean;
  /** Why the URL is out of scope, or undefined when it is in. */
  reason(url: string): OutOfScopeReason | undefined;
}

export const maxPatternLength = 200;
export const maxPatternsEach = 50;
export const maxHosts = 50;

/** A host as URLs carry it (lower case, punycode, default port dropped), or undefined when it is not a bare host. */
function normalizedHost(host: string): string | undefined {
  if (host === '' || /[\s/?#@\\]/.test(host)) return undefined;
  try {
    return new URL(`https://${host}`).host;
  } catch {
    return undefined;
  }
}

/** Why a list of patterns cannot be used, naming the list and the entry, or undefined. */
function patternsProblem(name: 'include' | 'exclude', patterns: string[]): string | undefined {
  if (patterns.length > maxPatternsEach) return `${name} may hold at most ${maxPatternsEach} patterns`;
  for (const [index, pattern] of patterns.entries()) {
    if (pattern.length === 0 || pattern.length > maxPatternLength) {
      return `${name}[${index}] must be 1 to ${maxPatternLength} characters`;
    }
    if (!pattern.startsWith('/') && !pattern.startsWith('*')) return `${name}[${index}] must start with / or *`;
    if (/[\u0000-\u0020\u007f]/.test(pattern)) return `${name}[${index}] must not contain spaces or control characters`;
  }
  return undefined;
}

/** Why these rules cannot be used (the API's 400 message), or undefined when they can. */
export function scopeRulesProblem(rules: ScopeRules): string | undefined {
  if (rules.hosts.length === 0) return 'hosts must name at least one host';
  if (rules.hosts.length > maxHosts) return `hosts may hold at most ${maxHosts} hosts`;
  const badHost = rules.hosts.findIndex((host) => normalizedHost(host) === undefined);
  if (badHost !== -1) return `hosts[${badHost}] must be a host name, with a port if any, and nothing else`;
  return patternsProblem('include', rules.include) ?? patternsProblem('exclude', rules.exclude);
}

/** `%c3%a9` and `%C3%A9` match alike; non-ASCII is matched as URLs carry it, in UTF-8 escapes. */
function encodedPattern(text: string): string {
  return text
    .replace(/[^\x00-\x7f]+/g, (run) => encodeURIComponent(run))
    .replace(/%[0-9a-f]{2}/gi, (escape) => escape.toUpperCase());
}

/**
 * A pattern compiled once into its literal pieces. Matching walks the pieces left to right, each at its first
 * occurrence (the leftmost placement leaves the most room for the rest, so it is the right one for `*`-only
 * patterns): at most pattern × path steps, never backtracking, so no pattern can make matching slow. No regular
 * expression is built from what a tenant writes.
 */
interface CompiledPattern {
  pieces: string[];
  anchored: boolean;
}

function compilePattern(pattern: string): CompiledPattern {
  const anchored = pattern.endsWith('$');
  const body = encodedPattern(anchored ? pattern.slice(0, -1) : pattern).replace(/\*+/g, '*');
  return { pieces: body.split('*'), anchored };
}

function matchesPattern({ pieces, anchored }: CompiledPattern, target: string): boolean {
  const first = pieces[0]!;
  if (!target.startsWith(first)) return false;
  if (pieces.length === 1) return !anchored || target.length === first.length;
  let position = first.length;
  for (const piece of pieces.slice(1, -1)) {
    const found = target.indexOf(piece, position);
    if (found === -1) return false;
    position = found + piece.length;
  }
  const last = pieces[pieces.length - 1]!;
  if (anchored) return target.length - last.length >= position && target.endsWith(last);
  return target.indexOf(last, position) !== -1;
}

/**
 * The scope of a crawl, compiled once. A URL is judged by its normalized form (`normalizeUrl`), so tracking
 * parameters and fragments never decide. Throws when the rules fail `scopeRulesProblem`: the API refuses them first.
 */
export function createScope(rules: ScopeRules): Scope {
  const problem = scopeRulesProblem(rules);
  if (problem !== undefined) throw new Error(`Invalid website scope: ${problem}`);
  const hosts = new Set(rules.hosts.map((host) => normalizedHost(host)!));
  const include = rules.include.map(compilePattern);
  const exclude = rules.exclude.map(compilePattern);

  function reason(url: string): OutOfScopeReason | undefined {
    const normalized = normalizeUrl(url);
    if (normalized === undefined) return 'host';
    const { host, pathname, search } = new URL(normalized);
    if (!hosts.has(host)) return 'host';
    const target = pathname + search;
    if (exclude.some((pattern) => matchesPattern(pattern, target))) return 'excluded';
    if (include.length > 0 && !include.some((pattern) => matchesPattern(pattern, target))) return 'not_included';
    return undefined;
  }

  return { inScope: (url) => reason(url) === undefined, reason };
}
