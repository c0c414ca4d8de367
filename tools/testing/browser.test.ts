import test from 'ava';
import { launchChromium } from './browser.js';

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

test('closing ends the Chromium process', async (t) => {
  const chromium = await launchChromium();
  const page = await (await chromium.browser.newContext()).newPage();
  await page.setContent('<p>shop</p>');
  await chromium.close();
  t.false(alive(chromium.process.pid!));
});

test('a Chromium that does not answer the close is killed, so the test process can exit', async (t) => {
  const chromium = await launchChromium();
  const pid = chromium.process.pid!;
  process.kill(pid, 'SIGSTOP');
  const exited = new Promise((resolve) => chromium.process.once('exit', (_code, signal) => resolve(signal)));
  await chromium.close();
  t.is(await exited, 'SIGKILL');
  t.false(alive(pid));
});
