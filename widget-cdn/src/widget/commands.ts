import { ApiError, createChatApi } from './chat-api.js';
import { startChatWidget, type ChatWidget } from './chat-widget.js';
import { createWidgetEvents } from './events.js';
import { createLifetime, type Lifetime } from './lifetime.js';
import { readInitOptions, readOptionChanges, type WidgetOptions, type WidgetProblem } from './options.js';
import { locateChatApi } from './service-location.js';
import { listenForTriggers } from './triggers.js';

export interface CommandDeps {
  win: Window;
  /** Where widget.js was loaded from (`import.meta.url`): its server also says where the chat API is. */
  widgetUrl: string;
  version: string;
}

type Command = 'init' | 'update' | 'open' | 'close' | 'toggle' | 'show' | 'hide';

/**
 * `window.widget(command, ...args)`. `on` and `off` work at any time. Every other command needs
 * `init` first; while `init` (or an `update` that fetches a new locale) is under way, commands wait
 * and then run in order, or are dropped when `init` fails. `destroy` acts at once: it ends the
 * widget's lifetime (listeners, requests, streams, timers), removes its element and forgets the
 * handlers, after which `init` may start again.
 */
export function createCommandFunction({ win, widgetUrl, version }: CommandDeps): (command?: unknown, ...args: unknown[]) => void {
  const events = createWidgetEvents(win);
  /** The options of the widget running or starting; undefined before `init` and after `destroy`. */
  let options: WidgetOptions | undefined;
  let widget: ChatWidget | undefined;
  let lifetime: Lifetime | undefined;
  let busy = false;
  const waiting: Array<[Command, unknown[]]> = [];

  const commands: Record<Command, (arg?: unknown) => void> = {
    init,
    update,
    open: (arg) => widget!.open(openerOf(arg)),
    close: () => widget!.close(),
    toggle: (arg) => widget!.toggle(openerOf(arg)),
    show: () => widget!.show(),
    hide: () => widget!.hide(),
  };

  function call(command?: unknown, ...args: unknown[]): void {
    if (command === 'on' || command === 'off') return events[command](String(args[0]), args[1] as never);
    if (command === 'destroy') return destroy();
    if (typeof command !== 'string' || !Object.hasOwn(commands, command)) return warn(`unknown command "${String(command)}"`);
    if (busy) waiting.push([command as Command, args]);
    else run(command as Command, args);
  }

  function run(command: Command, args: unknown[]): void {
    if (command !== 'init' && !widget) return warn(`"${command}" was called before "init" and is ignored`);
    try {
      commands[command](...args);
    } catch (error) {
      console.error(`[widget] "${command}" failed:`, error);
    }
  }

  /** Runs the commands that waited, until one of them makes the widget busy again. */
  function settle(): void {
    busy = false;
    while (!busy && waiting.length) run(...waiting.shift()!);
  }

  function init(raw: unknown): void {
    if (widget) return warn('init was called again: the widget is already running (use "update", or "destroy" first)');
    const read = readInitOptions(raw);
    if ('problem' in read) return report(read.problem);
    start(read.options);
  }

  function start(next: WidgetOptions): void {
    const life = (lifetime = createLifetime());
    const fetch = win.fetch.bind(win);
    options = next;
    busy = true;
    locateChatApi(next.apiUrl, widgetUrl, fetch, life.signal)
      .then((apiUrl) => {
        const api = createChatApi({ apiUrl, operatorKey: next.operatorKey, fetch, signal: life.signal });
        return startChatWidget(next, { win, api, events, lifetime: life });
      })
      .then(
        (started) => {
          if (life !== lifetime) return started.remove();
          widget = started;
          events.attach(started.element);
          listenForTriggers(win.document, (command, opener) => call(command, { opener }), life.signal);
          events.emit('ready', { version, operatorId: started.operatorId, locale: started.locale });
          settle();
        },
        (error: unknown) => {
          if (life !== lifetime) return;
          teardown();
          options = undefined;
          waiting.length = 0;
          busy = false;
          report(initProblem(error, win.location.origin));
        },
      );
  }

  function update(raw: unknown): void {
    const changes = readOptionChanges(raw);
    const previous = options!;
    options = { ...previous, ...changes };
    if (
      (changes.operatorKey ?? previous.operatorKey) !== previous.operatorKey ||
      (changes.apiUrl ?? previous.apiUrl) !== previous.apiUrl
    ) {
      // Another operator or another service: nothing of the old conversation applies.
      teardown();
      return start(options);
    }
    const updating = widget!.update(changes);
    if (!updating) return;
    const life = lifetime;
    busy = true;
    updating.then(
      () => life === lifetime && settle(),
      (error: unknown) => {
        if (life !== lifetime) return;
        report(initProblem(error, win.location.origin), 'update');
        settle();
      },
    );
  }

  function destroy(): void {
    if (!options) warn('"destroy" was called, but the widget is not running');
    teardown();
    options = undefined;
    waiting.length = 0;
    busy = false;
    events.clear();
  }

  function teardown(): void {
    lifetime?.end();
    widget?.remove();
    events.attach(undefined);
    lifetime = widget = undefined;
  }

  function report(problem: WidgetProblem, during = 'init'): void {
    console.error(`[widget] ${during} failed: ${problem.message}`);
    events.emit('error', problem);
  }

  return call;
}

function openerOf(arg: unknown): Element | undefined {
  const opener = (arg as { opener?: unknown } | null)?.opener;
  return opener instanceof Element ? opener : undefined;
}

/** Why the configuration could not be had, in words that tell the page's developer what to fix. */
function initProblem(error: unknown, origin: string): WidgetProblem {
  if (!(error instanceof ApiError)) return { code: 'unexpected', message: String(error) };
  const { status, code, message } = error;
  if (status === 401) return { code, message: 'the chat service got no operator key (401).' };
  if (status === 403)
    return {
      code,
      message: `the operator key was rejected, or this site's origin (${origin}) is not in the operator's allowed domains (403).`,
    };
  return { code, message: status ? `the chat service answered ${status}: ${message}` : message };
}

function warn(message: string): void {
  console.warn(`[widget] ${message}`);
}
