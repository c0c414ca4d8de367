import { readFileSync } from 'node:fs';

/** The service's version, as package.json states it. */
export const serviceVersion: string = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')).version;
