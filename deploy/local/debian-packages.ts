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
  installDebianPackage(packageName);
  const installed = commandPath(command);
  if (!installed) throw new Error(`apt-get installed ${packageName} but ${command} is still not on the PATH`);
  return installed;
}

/** Debian's own interpreter: a pyenv or virtualenv `python3` earlier on the PATH does not see Debian's Python packages. */
export const debianPython = '/usr/bin/python3';

/**
 * Debian's Python (`debianPython`) able to import `module`, installing Debian's `packageName` first
 * when it cannot (which brings the interpreter too, if the machine has none).
 */
export function ensureDebianPythonModule(module: string, packageName: string): string {
  if (canImport(module)) return debianPython;
  log(`${debianPython} cannot import ${module}: installing it from Debian (apt-get install ${packageName})`);
  installDebianPackage(packageName);
  if (!canImport(module)) throw new Error(`apt-get installed ${packageName} but ${debianPython} still cannot import ${module}`);
  return debianPython;
}

function installDebianPackage(packageName: string): void {
  const install = () => execFileSync('apt-get', ['install', '-y', '--no-install-recommends', packageName], { stdio: 'inherit' });
  try {
    install();
  } catch {
    execFileSync('apt-get', ['update'], { stdio: 'inherit' });
    install();
  }
}

function commandPath(command: string): string | undefined {
  try {
    return execFileSync('sh', ['-c', `command -v ${command}`], { encoding: 'utf8' }).trim() || undefined;
  } catch {
    return undefined;
  }
}

function canImport(module: string): boolean {
  try {
    execFileSync(debianPython, ['-c', `import ${module}`], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}
