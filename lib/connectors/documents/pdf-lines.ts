/*
 * A PDF page has no paragraphs, only runs of text placed on it: a word, part of a line, or a whole
 * line, each at its position. pdf.js marks where it saw a line end (`hasEOL`). Runs become visual lines
 * (by `hasEOL` and by the baseline moving), and consecutive lines become one paragraph while they
 * read on: same font size, no more space between them than half a line (pdfminer's default
 * `line_margin`), not a list item, the previous line not a short one ending a sentence. The normalizer then treats each paragraph as a block, as it would an
 * HTML <p>, instead of a line per visual line or, worse, per run.
 */

/** What is read of a pdf.js `TextItem`. */
export interface TextRun {
  str: string;
  hasEOL: boolean;
  /** [a, b, c, d, x, y]: the run's position is (x, y), its baseline y. */
  transform: number[];
  width: number;
  height: number;
}

interface Line {
  text: string;
  left: number;
  right: number;
  baseline: number;
  size: number;
}

// Lines further apart than this many times the font size (baseline to baseline) are different paragraphs.
const LINE_MARGIN = 1.5;
// A gap between runs wider than this part of the font size is a space the PDF did not write.
const WORD_GAP = 0.15;
// A line starting with a bullet or a number is a list item: a paragraph of its own.
const LIST_ITEM = /^\s*(?:[•●◦▪‣∙·*–-]|\d{1,3}[.)]|[a-z][.)])\s/u;
const SENTENCE_END = /[.!?:;]["'”’)]?$/u;

/** A page's text: one paragraph per line. */
export function pageText(runs: TextRun[]): string {
  return paragraphs(visualLines(runs)).join('\n');
}

function visualLines(runs: TextRun[]): Line[] {
  const lines: Line[] = [];
  let line: Line | undefined;
  for (const run of runs) {
    const [left = 0, baseline = 0] = run.transform.slice(4);
    const size = run.height || Math.abs(run.transform[3] ?? 0) || 1;
    if (line && Math.abs(baseline - line.baseline) > Math.min(size, line.size) / 2) {
      lines.push(line);
      line = undefined;
    }
    if (run.str !== '') {
      if (!line) {
        line = { text: run.str, left, right: left + run.width, baseline, size };
      } else {
        const spaced = left - line.right > WORD_GAP * size && !/\s$/.test(line.text) && !/^\s/.test(run.str);
        line.text += (spaced ? ' ' : '') + run.str;
        line.right = left + run.width;
        line.size = Math.max(line.size, size);
      }
    }
    if (run.hasEOL && line) {
      lines.push(line);
      line = undefined;
    }
  }
  if (line) lines.push(line);
  return lines.filter((candidate) => candidate.text.trim() !== '');
}

function paragraphs(lines: Line[]): string[] {
  const texts: string[] = [];
  let previous: Line | undefined;
  let width = 0;
  for (const line of lines) {
    if (previous && readsOn(previous, line, width)) {
      texts[texts.length - 1] = joinLines(texts.at(-1)!, line.text);
      width = Math.max(width, line.right - line.left);
    } else {
      texts.push(line.text.trim());
      width = line.right - line.left;
    }
    previous = line;
  }
  return texts;
}

function readsOn(previous: Line, line: Line, paragraphWidth: number): boolean {
  const drop = previous.baseline - line.baseline;
  const shortEnd = previous.right - previous.left < 0.8 * paragraphWidth && SENTENCE_END.test(previous.text.trim());
  return sameSize(previous, line) && drop > 0 && drop <= LINE_MARGIN * line.size && !LIST_ITEM.test(line.text) && !shortEnd;
}

function sameSize(a: Line, b: Line): boolean {
  return Math.abs(a.size - b.size) <= 0.1 * Math.max(a.size, b.size);
}

/**
 * A word hyphenated at the line's end ("dis-" then "tributions") is joined whole. A compound broken at
 * its own hyphen ("well-" then "known") loses it; justified text breaks far more words than compounds.
 */
function joinLines(paragraph: string, line: string): string {
  const next = line.trim();
  return /\p{L}-$/u.test(paragraph) && /^\p{Ll}/u.test(next) ? paragraph.slice(0, -1) + next : `${paragraph} ${next}`;
}
