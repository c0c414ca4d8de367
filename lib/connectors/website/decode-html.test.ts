import test from 'ava';
import { decodeHtml } from './decode-html.js';

const latin1 = (text: string) => Uint8Array.from(text, (char) => char.charCodeAt(0));

test("the Content-Type's charset decides", (t) => {
  t.is(decodeHtml(latin1('<p>Caf\xe9</p>'), 'text/html; charset=ISO-8859-1'), '<p>Café</p>');
});

test('without one, a meta charset in the first kilobyte decides', (t) => {
  t.is(decodeHtml(latin1('<meta charset="iso-8859-2"><p>\xb1</p>'), 'text/html'), '<meta charset="iso-8859-2"><p>ą</p>');
  t.is(
    decodeHtml(latin1('<meta http-equiv="Content-Type" content="text/html; charset=iso-8859-15"><p>\xa4</p>'), null),
    '<meta http-equiv="Content-Type" content="text/html; charset=iso-8859-15"><p>€</p>',
  );
});

test('a byte-order mark beats both; UTF-8 is the default, and an unknown label reads as UTF-8', (t) => {
  t.is(decodeHtml(new Uint8Array([0xef, 0xbb, 0xbf, 0x68, 0xc3, 0xa9]), 'text/html; charset=iso-8859-1'), 'hé');
  t.is(decodeHtml(new TextEncoder().encode('<p>Grüße</p>'), 'text/html'), '<p>Grüße</p>');
  t.is(decodeHtml(new TextEncoder().encode('<p>Grüße</p>'), 'text/html; charset=x-no-such-set'), '<p>Grüße</p>');
});
