import type { PDFDocumentProxy } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { plainLine } from './plain-text.js';

/** A bookmark of the PDF's outline and the page it points to. */
export interface OutlineEntry {
  title: string;
  /** 1-based. */
  page: number;
}

type OutlineItem = NonNullable<Awaited<ReturnType<PDFDocumentProxy['getOutline']>>>[number];

/**
 * The outline's entries (bookmarks, nested ones included) in the outline's order, each with the page
 * its destination is on. Entries without a page (a link to a web address, a destination that does not
 * resolve) are left out: they cannot name a page.
 */
export async function outlineEntries(pdf: PDFDocumentProxy): Promise<OutlineEntry[]> {
  const flat = (items: OutlineItem[]): OutlineItem[] => items.flatMap((item) => [item, ...flat(item.items ?? [])]);
  const entries = await Promise.all(
    flat((await pdf.getOutline()) ?? []).map(async (item) => ({
      title: plainLine(item.title),
      page: await pageOf(pdf, item.dest),
    })),
  );
  return entries.filter((entry): entry is OutlineEntry => entry.page !== undefined && entry.title !== '');
}

/** The page a destination is on: a named destination is looked up, then its page reference (or page index) resolved. */
async function pageOf(pdf: PDFDocumentProxy, dest: OutlineItem['dest']): Promise<number | undefined> {
  try {
    const explicit = typeof dest === 'string' ? await pdf.getDestination(dest) : dest;
    const target: unknown = explicit?.[0];
    if (Number.isInteger(target)) return (target as number) + 1;
    return target && typeof target === 'object'
      ? (await pdf.getPageIndex(target as Parameters<PDFDocumentProxy['getPageIndex']>[0])) + 1
      : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The heading of a page: the entry that covers it. That is the first entry starting on the page, else
 * the last one that started before it (a chapter runs on until the next bookmark); null before the first.
 */
export function headingOfPage(entries: OutlineEntry[], page: number): string | null {
  const startingHere = entries.find((entry) => entry.page === page);
  if (startingHere) return startingHere.title;
  // The last to start: on the highest page before this one, the latest in the outline's order there.
  const before = entries.filter((entry) => entry.page < page);
  const lastPage = Math.max(...before.map((entry) => entry.page));
  return before.findLast((entry) => entry.page === lastPage)?.title ?? null;
}
