import { execFileSync } from 'node:child_process';
import { log } from './output.js';

/**
 * The path of `command`, installing Debian's `packageName` first when the machine lacks it (the
 * package lists are refreshed only when the first attempt fails). Nothing the project needs is
 * installed by hand: a fresh machine gets it from here.
 */
export function ensureDebianCommand(command: string, packageName: string): string {
  const found = commandPath(command);
  if (found) return found;
  log(`${command} is missing: installing it from Debian (apt-get install ${packageName})`);
  const install = () => execFileSync('apt-get', ['install', '-y', '--no-install-recommends', packageName], { stdio: 'inherit' });
  try {
    install();
  } catch {
    execFileSync('apt-get', ['update'], { stdio: 'inherit' });
    install();
  }
  const installed = commandPath(command);
  if (!installed) throw new Error(`apt-get installed ${packageName} but ${command} is still not on the PATH`);
  return installed;
}

function commandPath(command: string): string | undefined {
  try {
    return execFileSync('sh', ['-c', `command -v ${command}`], { encoding: 'utf8' }).trim() || undefined;
  } catch {
    return undefined;
  }
}
