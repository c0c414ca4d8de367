import mammoth from 'mammoth';
import { corrupt, openDocxZip, type DocxZip } from './docx-zip.js';
import { htmlSections } from './html.js';
import { languageTag } from './language.js';
import type { DocumentLimits } from './limits.js';
import type { ExtractedDocument } from './types.js';

const mammothOptions = {
  // On top of mammoth's map (Heading 1–6 → h1–h6): the Title style is the document's title.
  styleMap: ["p[style-name='Title'] => h1:fresh"],
  // Images carry no text: an empty src keeps mammoth from reading and encoding each one.
  convertImage: mammoth.images.imgElement(() => Promise.resolve({ src: '' })),
};

/**
 * Reads a Word document: its archive checked (zip bombs, parts that lie about their size) before
 * mammoth inflates anything, then mammoth's HTML (headings, lists, tables) split like any HTML.
 */
export async function readDocx(bytes: Uint8Array, limits: DocumentLimits): Promise<ExtractedDocument> {
  const zip = await openDocxZip(bytes, limits);
  let html: string;
  try {
    ({ value: html } = await mammoth.convertToHtml(
      { buffer: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength) },
      mammothOptions,
    ));
  } catch (error) {
    throw corrupt(
      `it is not a Word document mammoth can read (${error instanceof Error ? error.message : String(error)})`,
      undefined,
      error,
    );
  }
  const language = await declaredLanguage(zip);
  return { kind: 'docx', ...htmlSections(html, { mainContent: false }), ...(language && { language }) };
}

/** The language the document's properties declare, else its default text language (`w:docDefaults`): both cheap, small parts. */
async function declaredLanguage(zip: DocxZip): Promise<string | undefined> {
  const properties = (await zip.read('docProps/core.xml'))?.toString('utf8');
  const styles = (await zip.read('word/styles.xml'))?.toString('utf8');
  return (
    languageTag(properties?.match(/<dc:language>([^<]*)<\/dc:language>/)?.[1]) ??
    languageTag(styles?.match(/<w:docDefaults>[\s\S]*?<w:lang\b[^>]*?\bw:val="([^"]*)"/)?.[1])
  );
}
