import test from 'ava';
import { DocumentError } from './errors.js';
import { extractDocument } from './extract.js';
import { defaultDocumentLimits } from './limits.js';

/* What every document goes through whatever its kind: the limits, the kind's reader, a document without text. */

const encode = (value: string) => new TextEncoder().encode(value);

test('the default limits: 25 MiB, 1,000 pages, 2,000,000 characters', (t) => {
  t.deepEqual(defaultDocumentLimits, { maxBytes: 25 * 1024 * 1024, maxPages: 1000, maxCharacters: 2_000_000 });
});

test('a file over the size limit is refused before anything else, naming the limit', async (t) => {
  const limits = { ...defaultDocumentLimits, maxBytes: 1024 * 1024 };
  const error = await t.throwsAsync(extractDocument(new Uint8Array(1024 * 1024 + 1), { name: 'huge.pdf', limits }), {
    instanceOf: DocumentError,
  });
  t.is(error.code, 'too_large');
  t.is(error.message, 'The file is 1 MiB (1,048,577 bytes), more than the limit of 1 MiB (maxBytes).');
  t.deepEqual(error.limit, { name: 'maxBytes', value: 1024 * 1024 });
});

test('text over the character limit is refused, counted over all sections', async (t) => {
  const markdown = encode(`# Guide\n\n## One\n\n${'a'.repeat(60)}\n\n## Two\n\n${'b'.repeat(60)}\n`);
  const limits = { ...defaultDocumentLimits, maxCharacters: 100 };
  const error = await t.throwsAsync(extractDocument(markdown, { name: 'guide.md', limits }), { instanceOf: DocumentError });
  t.is(error.code, 'too_much_text');
  t.deepEqual(error.limit, { name: 'maxCharacters', value: 100 });
  t.is((await extractDocument(markdown, { name: 'guide.md', limits: { ...limits, maxCharacters: 120 } })).sections.length, 2);
});

test('a document without text is refused', async (t) => {
  for (const empty of ['', ' \n\t\n', '<!doctype html><html><body><script>track()</script></body></html>']) {
    const error = await t.throwsAsync(extractDocument(encode(empty)), { instanceOf: DocumentError });
    t.is(error.code, 'no_text');
    t.is(error.message, 'The document has no text to read.');
  }
});

test('an HTML file is read for its main content, without what only a crawler needs', async (t) => {
  const page = `<!doctype html><html lang="fr"><head><title>Livraison | Boutique</title></head><body>
    <nav><a href="/">Accueil</a> <a href="/panier">Panier</a></nav>
    <article><h1>Livraison</h1><p>Nous livrons en France métropolitaine sous trois jours ouvrés, et en Belgique sous cinq jours.
      Les frais de port sont offerts dès 50 euros d'achat.</p>
    <h2 id="suivi">Suivi</h2><p>Un lien de suivi vous est envoyé par e-mail dès l'expédition de votre commande.</p></article>
  </body></html>`;
  const document = await extractDocument(encode(page), { name: 'livraison.html', contentType: 'text/html' });
  t.deepEqual(document, {
    kind: 'html',
    title: 'Livraison',
    language: 'fr',
    sections: [
      {
        heading: null,
        text: "Nous livrons en France métropolitaine sous trois jours ouvrés, et en Belgique sous cinq jours. Les frais de port sont offerts dès 50 euros d'achat.",
      },
      {
        heading: 'Suivi',
        anchor: 'suivi',
        text: "Un lien de suivi vous est envoyé par e-mail dès l'expédition de votre commande.",
      },
    ],
  });
});
