import type { Contact } from './chat-types.js';

/** The `init` options, checked and normalised. */
export interface WidgetOptions {
  operatorKey: string;
  locale?: string;
  contact?: Contact;
  /** A visitor identity token signed by the site's server, or a function giving a fresh one each time it is called. */
  identityToken?: IdentityTokenSource;
  showLauncher: boolean;
  panelId?: string;
  /** Our extension: where the chat API is, instead of the widget file server's service.json. */
  apiUrl?: string;
}

export type IdentityTokenSource = string | (() => string | Promise<string>);

export type OptionChanges = Partial<WidgetOptions>;

/** Something the page got wrong, reported as an `error` event and in the console. */
export interface WidgetProblem {
  code: string;
  message: string;
}

/**
 * The `init` options, or the problem that stops the widget: a missing operator key, or one that is
 * not an operator key at all (an API key pasted by mistake would be a secret on a public page).
 * Other fields of the wrong type are left out with a console warning.
 */
export function readInitOptions(raw: unknown): { options: WidgetOptions } | { problem: WidgetProblem } {
  const given = isObject(raw) ? raw : {};
  const operatorKey = typeof given.operatorKey === 'string' ? given.operatorKey.trim() : '';
  if (!operatorKey)
    return {
      problem: {
        code: 'missing_operator_key',
        message: 'the operatorKey option is missing: pass the public operator key (it starts with op_) to init.',
      },
    };
  if (!operatorKey.startsWith('op_'))
    return {
      problem: {
        code: 'invalid_operator_key',
        message: 'the operatorKey option does not start with op_: pass the public operator key, never an API key.',
      },
    };
  const changes = readOptionChanges(given);
  return { options: { ...changes, operatorKey, showLauncher: changes.showLauncher ?? true } };
}

/** The options `update` may change, each checked like `init`'s; unknown or invalid ones are warned about and left out. */
export function readOptionChanges(raw: unknown): OptionChanges {
  if (!isObject(raw)) {
    warn('options must be an object');
    return {};
  }
  const changes: OptionChanges = {};
  for (const [name, value] of Object.entries(raw)) {
    const accepted = readOption(name, value);
    if (accepted === undefined) warn(`the option ${name} is ${name in readers ? 'invalid' : 'unknown'} and was ignored`);
    else Object.assign(changes, { [name]: accepted });
  }
  return changes;
}

const text = (value: unknown) => (typeof value === 'string' && value.trim() ? value.trim() : undefined);

const readers: Record<keyof WidgetOptions, (value: unknown) => unknown> = {
  operatorKey: (value) => (text(value)?.startsWith('op_') ? text(value) : undefined),
  locale: text,
  showLauncher: (value) => (typeof value === 'boolean' ? value : undefined),
  panelId: text,
  identityToken: (value) => (typeof value === 'function' ? value : text(value)),
  apiUrl: (value) => text(value)?.replace(/\/+$/, '') || undefined,
  contact: (value) => {
    if (!isObject(value)) return undefined;
    const contact: Contact = {};
    for (const field of ['userId', 'email', 'name'] as const) if (text(value[field])) contact[field] = text(value[field]);
    return contact;
  },
};

function readOption(name: string, value: unknown): unknown {
  return Object.hasOwn(readers, name) ? readers[name as keyof WidgetOptions](value) : undefined;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

function warn(message: string): void {
  console.warn(`[widget] ${message}`);
}
