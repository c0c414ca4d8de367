export type TriggerCommand = 'open' | 'close' | 'toggle';

const TRIGGERS = '[data-widget-open],[data-widget-close],[data-widget-toggle]';

/**
 * Any element with `data-widget-open`, `data-widget-close` or `data-widget-toggle` runs that command
 * when clicked, with itself as the opener to return focus to. One delegated listener on the document
 * (capture, so a page handler that stops propagation cannot swallow it) serves elements added later.
 */
export function listenForTriggers(
  doc: Document,
  run: (command: TriggerCommand, opener: Element) => void,
  signal: AbortSignal,
): void {
  doc.addEventListener(
    'click',
    (event) => {
      const trigger = event.target instanceof Element ? event.target.closest(TRIGGERS) : null;
      if (!trigger) return;
      event.preventDefault();
      run(triggerCommand(trigger), trigger);
    },
    { capture: true, signal },
  );
}

function triggerCommand(trigger: Element): TriggerCommand {
  if (trigger.hasAttribute('data-widget-open')) return 'open';
  return trigger.hasAttribute('data-widget-close') ? 'close' : 'toggle';
}
