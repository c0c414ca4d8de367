/*
 * The widget's icons, drawn with createElementNS: SVG built like any other element, never parsed
 * from a string. Filled icons take the text colour; `stroke` ones are outlines (see styles.ts).
 */

const SVG = 'http://www.w3.org/2000/svg';

function icon(name: string, path: string, stroke = false): SVGSVGElement {
  const svg = document.createElementNS(SVG, 'svg');
  svg.setAttribute('viewBox', '0 0 24 24');
  svg.setAttribute('aria-hidden', 'true');
  svg.setAttribute('data-icon', name);
  if (stroke) svg.setAttribute('data-stroke', '');
  const shape = document.createElementNS(SVG, 'path');
  shape.setAttribute('d', path);
  svg.append(shape);
  return svg;
}

export const chatIcon = () =>
  icon(
    'chat',
    'M12 3C6.5 3 2 6.8 2 11.5c0 2.5 1.3 4.8 3.4 6.3L4.6 21.3l4.2-2.1c1 .3 2.1.4 3.2.4 5.5 0 10-3.8 10-8.5S17.5 3 12 3z',
  );
export const chevronIcon = () => icon('chevron', 'M6 9l6 6 6-6', true);
export const closeIcon = () => icon('close', 'M6 6l12 12M18 6 6 18', true);
export const sendIcon = () =>
  icon('send', 'M3.5 20.3 21 12.8a.9.9 0 0 0 0-1.6L3.5 3.7a.6.6 0 0 0-.8.7L4.9 11l8.1 1-8.1 1-2.2 6.6a.6.6 0 0 0 .8.7z');
export const listIcon = () => icon('list', 'M4 6h16M4 12h16M4 18h10', true);
/** A thumb up; turned over by the stylesheet for "not helpful". */
export const thumbIcon = () =>
  icon('thumb', 'M7 10v10H3V10h4zm0 0 4-7c1.5 0 2.5 1 2.3 2.6L13 9h5.5a2 2 0 0 1 2 2.4l-1.3 7A2 2 0 0 1 17.2 20H7', true);
