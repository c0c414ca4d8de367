/**
 * Release names: `v<major>.<minor>.<patch>`, the folder name of a published release and the path
 * segment that pins it. Compared as semantic versions, never as strings (`v1.10.0` is newer than
 * `v1.9.0`).
 */

const versionInput = /^v?(\d+)\.(\d+)\.(\d+)$/;
const releaseName = /^v\d+\.\d+\.\d+$/;

export class InvalidVersionError extends Error {
  constructor(input: string) {
    super(`"${input}" is not a release version: write <major>.<minor>.<patch>, for example 1.0.1, without leading zeros.`);
    this.name = 'InvalidVersionError';
  }
}

/**
 * `1.2.3` or `v1.2.3` → `v1.2.3`. Leading zeros are refused, so that `v1.02.0` and `v1.2.0` can never
 * be two folders of the same version.
 */
export function toReleaseName(input: string): string {
  const parts = versionInput.exec(input)?.slice(1);
  if (!parts || parts.some((part) => part.length > 1 && part.startsWith('0'))) throw new InvalidVersionError(input);
  return `v${parts.join('.')}`;
}

/** Whether a folder name (or path segment) names a release. */
export function isReleaseName(name: string): boolean {
  return releaseName.test(name);
}

/** Orders release names by semantic version, for `Array.prototype.sort`. */
export function compareReleaseNames(a: string, b: string): number {
  const left = a.slice(1).split('.');
  const right = b.slice(1).split('.');
  for (let index = 0; index < 3; index++) {
    const order = compareDigits(left[index] ?? '0', right[index] ?? '0');
    if (order !== 0) return order;
  }
  return 0;
}

/** Numeric order of two digit strings of any length (no precision lost to floating point). */
function compareDigits(a: string, b: string): number {
  const x = a.replace(/^0+(?=\d)/, '');
  const y = b.replace(/^0+(?=\d)/, '');
  return x.length - y.length || (x < y ? -1 : x > y ? 1 : 0);
}
