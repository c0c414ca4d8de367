// Elements that would start a new line inside a cell.
const CELL_BLOCKS = 'p, div, br, li, dt, dd, pre, blockquote';
// A cell holding these, or this much text, is a page laid out in a table, not a cell of data: left as it is.
const LAYOUT = 'h1, h2, h3, h4, h5, h6, table';
const MAX_CELL_CHARACTERS = 500;

/**
 * Makes each table cell one line of text. The normalizer writes a table row as "a | b", but a cell
 * holding paragraphs (every cell mammoth makes from Word, many a CMS's) would break the row into
 * lines of their own, the separators stranded between them. Each block in such a cell is followed by
 * a space, and the cell becomes its text with whitespace collapsed.
 */
export function flattenTableCells(content: Element): void {
  for (const cell of Array.from(content.querySelectorAll('td, th'))) {
    if (!cell.querySelector(CELL_BLOCKS) || cell.querySelector(LAYOUT) || cell.textContent!.length > MAX_CELL_CHARACTERS)
      continue;
    for (const block of Array.from(cell.querySelectorAll(CELL_BLOCKS))) block.after(' ');
    cell.textContent = cell.textContent!.replace(/\s+/g, ' ').trim();
  }
}
