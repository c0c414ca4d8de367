type Attributes = Record<string, string | true | undefined>;

/**
 * Builds an element from its attributes and children. Strings become text nodes, never markup: the
 * widget has no path from a string to HTML, which is what keeps whatever a message holds inert.
 */
export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attributes: Attributes = {},
  ...children: Array<Node | string>
): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes))
    if (value !== undefined) element.setAttribute(name, value === true ? '' : value);
  element.append(...children);
  return element;
}

/** A link that opens outside the page, without handing it a reference or a referrer. */
export function link(href: string, children: Array<Node | string>, attributes: Attributes = {}): HTMLAnchorElement {
  return h('a', { ...attributes, href, target: '_blank', rel: 'noopener noreferrer nofollow' }, ...children);
}
