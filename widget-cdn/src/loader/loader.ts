/*
 * The deferred loader: a classic script of well under a kilobyte, with no imports. It lets the page
 * call `window.widget(...)` at once (the calls wait in a queue) and fetches the widget itself only
 * when it is wanted: on the first click on a trigger, after `data-idle` milliseconds, or at once with
 * `data-preload="eager"`. It loads the widget of its own release, pinned and hash-checked, so a
 * loader from `/latest/` never runs a widget it was not published with.
 *
 * Its state is on the root element, `data-widget-loader`: idle → loading → loaded (back to idle
 * when loading fails, so that the next trigger tries again).
 */
((win: Window, doc: Document) => {
  const script = doc.currentScript as HTMLScriptElement;
  const root = doc.documentElement;
  const widgetUrl = new URL('../' + __WIDGET_VERSION__ + '/widget.js', script.src).href;
  let timer: number | undefined;
  let loading = false;

  const setState = (state: string) => root.setAttribute('data-widget-loader', state);

  /** Until the widget handles them itself: a trigger queues its command and starts the loading. */
  const onClick = (event: Event) => {
    const trigger = (event.target as Element).closest?.('[data-widget-open],[data-widget-close],[data-widget-toggle]');
    if (!trigger) return;
    event.preventDefault();
    const command = trigger.hasAttribute('data-widget-open')
      ? 'open'
      : trigger.hasAttribute('data-widget-close')
        ? 'close'
        : 'toggle';
    win.widget!(command, { opener: trigger });
    load();
  };

  const load = () => {
    if (loading) return;
    loading = true;
    setState('loading');
    const element = doc.createElement('script');
    element.type = 'module';
    element.src = widgetUrl;
    element.integrity = __WIDGET_INTEGRITY__;
    element.crossOrigin = 'anonymous';
    // A module script's load event comes after it has run: the widget has taken over the queue and the triggers.
    element.onload = () => {
      setState('loaded');
      doc.removeEventListener('click', onClick, true);
      clearTimeout(timer);
    };
    element.onerror = () => {
      loading = false;
      element.remove();
      setState('idle');
      console.error('[widget] could not load ' + widgetUrl);
    };
    doc.head.appendChild(element);
  };

  win.widget =
    win.widget ||
    function () {
      (win.widget!.q = win.widget!.q || []).push(arguments);
    };
  setState('idle');
  doc.addEventListener('click', onClick, true);

  const idle = script.getAttribute('data-idle');
  if (script.getAttribute('data-preload') === 'eager') load();
  else if (idle) timer = setTimeout(load, +idle || 0);
})(window, document);
