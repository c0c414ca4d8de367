import test from 'ava';
import { extractDocument } from './extract.js';

/* Markdown and plain-text files as uploads: Markdown split at its headings like HTML, text as one section. */

const encode = (value: string) => new TextEncoder().encode(value);

const returnsPolicy = `# Returns policy

You can return most items within **30 days** of delivery.

## How to return an item

1. Sign in and open *Orders*.
2. Choose **Return** next to the item.

### Refunds

Refunds reach your card within 5 working days.

## Items we cannot take back

| Item | Why |
| --- | --- |
| Earrings | Hygiene |
| Gift cards | Already redeemable |

<script>alert('not run')</script>
`;

test('a Markdown file: its first heading is the title, its h2s split it, its tables are rows', async (t) => {
  const document = await extractDocument(encode(returnsPolicy), { name: 'returns.md' });
  t.is(document.kind, 'markdown');
  t.is(document.title, 'Returns policy');
  t.deepEqual(document.sections, [
    { heading: null, text: 'You can return most items within 30 days of delivery.' },
    {
      heading: 'How to return an item',
      text: '1. Sign in and open Orders.\n2. Choose Return next to the item.\nRefunds\nRefunds reach your card within 5 working days.',
    },
    {
      heading: 'Items we cannot take back',
      // HTML in Markdown is text (`html: false`): shown as written, never markup.
      text: "Item | Why\nEarrings | Hygiene\nGift cards | Already redeemable\n<script>alert('not run')</script>",
    },
  ]);
});

test('a plain-text file is one section without a heading, every character kept', async (t) => {
  const document = await extractDocument(
    encode('\ufeffOpening hours\r\n\r\nMon–Fri 9:00–17:00   (closed on <holidays> & Sundays)\n'),
    {
      name: 'hours.txt',
    },
  );
  t.deepEqual(document, {
    kind: 'text',
    title: null,
    sections: [{ heading: null, text: 'Opening hours\nMon–Fri 9:00–17:00 (closed on <holidays> & Sundays)' }],
  });
});
