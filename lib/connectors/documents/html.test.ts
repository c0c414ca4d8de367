import test from 'ava';
import { htmlSections, readHtml } from './html.js';

/*
 * A web page as the crawler reads it: what it may follow and index, and its main content in sections,
 * without the site's chrome. The pages are written the way sites and DocBook write them.
 */

const supportPage = `<!DOCTYPE html>
<html lang="en-GB">
<head>
  <meta charset="utf-8">
  <title>Installing the P-200 pump | Acme Support</title>
  <base href="https://support.acme.example/docs/">
  <link rel="stylesheet" href="/assets/site.css">
  <link rel="canonical" href="/docs/pump-install">
  <meta name="robots" content="noindex">
  <script>window.dataLayer = window.dataLayer || []; dataLayer.push({ page: 'pump-install' });</script>
  <style>.cookie-banner { position: fixed; bottom: 0; }</style>
</head>
<body>
  <header class="site-header">
    <a class="logo" href="/">Acme Support</a>
    <nav aria-label="Main">
      <ul>
        <li><a href="../products/">Products</a></li>
        <li><a href="contact.html#form">Contact us</a></li>
        <li><a href="https://social.example/acme" rel="nofollow noopener">Follow us</a></li>
        <li><a href="javascript:void(0)">Menu</a></li>
      </ul>
    </nav>
  </header>
  <div id="cookie-banner" class="cookie-banner">
    We use cookies to improve your experience on our website. <button type="button">Accept all cookies</button>
  </div>
  <main>
    <article>
      <h1>Installing the P-200 pump</h1>
      <p>This guide explains how to install the Acme P-200 circulation pump in a domestic heating system.
        Read it completely before you start and keep it with the pump. The installation must be carried out by a
        qualified heating engineer.</p>
      <h2 id="tools">Tools you need</h2>
      <p>You need a spanner, a flat screwdriver, PTFE tape and a bucket to catch the water that runs out when you
        open the pipes. A torch helps in dark airing cupboards.</p>
      <table>
        <thead><tr><th>Tool</th><th>Size</th></tr></thead>
        <tbody>
          <tr><td>Spanner</td><td>17 mm</td></tr>
          <tr><td><p>Screwdriver</p></td><td><p>Flat,</p><p>5 mm</p></td></tr>
        </tbody>
      </table>
      <a name="mounting"></a>
      <h2>Mounting the pump</h2>
      <p>Close the isolation valves on both sides of the old pump. Open a tap to relieve the pressure, undo the
        unions and remove the old pump. Fit the new one with the arrow on its body pointing the way the water flows.</p>
      <h3>Orientation</h3>
      <p>The motor shaft must be horizontal. Never install the pump with its terminal box facing down: condensation
        would damage the electronics over time.</p>
      <div class="section"><div class="titlepage"><div><div><h2 class="title" style="clear: both"><a id="wiring"></a>3. Wiring the pump</h2></div></div></div>
        <p>Switch off the mains at the fuse box before you open the terminal box. Connect live to L, neutral to N
          and earth to the earth terminal, with 0.75 mm² heat-resistant flexible cable.</p>
      </div>
      <div class="section" id="commissioning"><div class="titlepage"><h2>Commissioning</h2></div>
        <p>Open the valves, bleed the air through the vent screw and switch on. Speed setting II suits most houses;
          see <a href="speeds.html">speed settings</a> and the <a href="/docs/faq#noise">noise FAQ</a>.</p>
      </div>
    </article>
  </main>
  <aside class="related"><h2>Related articles</h2><ul><li><a href="boiler.html">Boiler basics</a></li></ul></aside>
  <footer class="site-footer">
    <p>© 2024 Acme Ltd · <a href="/privacy">Privacy</a> · <a href="mailto:help@acme.example">Email us</a> · <a href="speeds.html">Speeds</a></p>
  </footer>
  <script src="/assets/analytics.js"></script>
</body>
</html>`;

test('a support page: links, canonical and robots from the whole page; its main content in h2 sections', (t) => {
  const page = readHtml(supportPage, { mainContent: true, url: 'https://support.acme.example/docs/pump-install?ref=menu' });

  t.is(page.kind, 'html');
  t.is(page.title, 'Installing the P-200 pump');
  t.is(page.language, 'en-gb');
  t.deepEqual(page.links, [
    'https://support.acme.example/',
    'https://support.acme.example/products/',
    'https://support.acme.example/docs/contact.html',
    'https://support.acme.example/docs/speeds.html',
    'https://support.acme.example/docs/faq',
    'https://support.acme.example/docs/boiler.html',
    'https://support.acme.example/privacy',
  ]);
  t.is(page.canonical, 'https://support.acme.example/docs/pump-install');
  t.deepEqual(page.robots, { noindex: true, nofollow: false });
  t.deepEqual(page.sections, [
    {
      heading: null,
      text:
        'This guide explains how to install the Acme P-200 circulation pump in a domestic heating system. Read it completely ' +
        'before you start and keep it with the pump. The installation must be carried out by a qualified heating engineer.',
    },
    {
      heading: 'Tools you need',
      anchor: 'tools',
      text: [
        'You need a spanner, a flat screwdriver, PTFE tape and a bucket to catch the water that runs out when you open the pipes. A torch helps in dark airing cupboards.',
        'Tool | Size',
        'Spanner | 17 mm',
        'Screwdriver | Flat, 5 mm',
      ].join('\n'),
    },
    {
      heading: 'Mounting the pump',
      anchor: 'mounting',
      text: [
        'Close the isolation valves on both sides of the old pump. Open a tap to relieve the pressure, undo the unions and remove the old pump. Fit the new one with the arrow on its body pointing the way the water flows.',
        'Orientation',
        'The motor shaft must be horizontal. Never install the pump with its terminal box facing down: condensation would damage the electronics over time.',
      ].join('\n'),
    },
    {
      heading: '3. Wiring the pump',
      anchor: 'wiring',
      text: 'Switch off the mains at the fuse box before you open the terminal box. Connect live to L, neutral to N and earth to the earth terminal, with 0.75 mm² heat-resistant flexible cable.',
    },
    {
      heading: 'Commissioning',
      anchor: 'commissioning',
      text: 'Open the valves, bleed the air through the vent screw and switch on. Speed setting II suits most houses; see speed settings and the noise FAQ.',
    },
  ]);
  const text = page.sections.map((section) => section.text).join('\n');
  for (const chrome of ['Acme Support', 'Products', 'cookies', 'Related articles', 'Privacy', 'dataLayer', 'position: fixed']) {
    t.false(text.includes(chrome), chrome);
  }
});

test('without main content extraction the whole body is read, chrome included', (t) => {
  const page = readHtml(supportPage, { mainContent: false });
  t.is(page.title, 'Installing the P-200 pump');
  t.true(page.sections[0]!.text.startsWith('Acme Support\n- Products'));
  t.true(page.sections[0]!.text.includes('We use cookies'));
  t.deepEqual(
    page.sections.map((section) => section.heading),
    [null, 'Tools you need', 'Mounting the pump', '3. Wiring the pump', 'Commissioning', 'Related articles'],
  );
  t.false(page.sections.some((section) => section.text.includes('dataLayer')));
});

// A chapter of a DocBook manual as its XSL stylesheets write it (the Debian FAQ's layout).
const docbookChapter = `<?xml version="1.0" encoding="UTF-8" standalone="no"?>
<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Transitional//EN" "http://www.w3.org/TR/xhtml1/DTD/xhtml1-transitional.dtd"><html xmlns="http://www.w3.org/1999/xhtml"><head><meta http-equiv="Content-Type" content="text/html; charset=UTF-8" /><title>Chapter 3. Choosing a Debian distribution</title><link rel="stylesheet" type="text/css" href="debian.css" /><meta name="generator" content="DocBook XSL Stylesheets Vsnapshot" /><link rel="home" href="index.en.html" title="The Debian GNU/Linux FAQ" /><link rel="prev" href="getting-debian.en.html" title="Chapter 2. Getting and installing Debian GNU/Linux" /></head><body><div class="navheader"><table width="100%" summary="Navigation header"><tr><th colspan="3" align="center">Chapter 3. Choosing a Debian distribution</th></tr><tr><td width="20%" align="left"><a accesskey="p" href="getting-debian.en.html"><img src="images/prev.png" alt="Prev" /></a> </td><th width="60%" align="center"> </th><td width="20%" align="right"> <a accesskey="n" href="compatibility.en.html"><img src="images/next.png" alt="Next" /></a></td></tr></table><hr /></div><div class="chapter"><div class="titlepage"><div><div><h1 class="title"><a id="choosing"></a>Chapter 3. Choosing a Debian distribution</h1></div></div></div><div class="toc"><p><strong>Table of Contents</strong></p><dl class="toc"><dt><span class="section"><a href="choosing.en.html#s3.1">3.1. Which Debian distribution (stable/testing/unstable) is better suited to me?</a></span></dt><dt><span class="section"><a href="choosing.en.html#s3.2">3.2. But what about Knoppix, Linux Mint, Ubuntu, and others?</a></span></dt></dl></div><p>
There are many different Debian distributions. Choosing the proper Debian
distribution is an important decision. This section covers some information
useful for users who want to make the choice best suited for their system and
also answers possible questions that might arise during the process.
</p><div class="section"><div class="titlepage"><div><div><h2 class="title" style="clear: both"><a id="s3.1"></a>3.1. Which Debian distribution (stable/testing/unstable) is better suited to me?</h2></div></div></div><p>
The answer is a bit complicated. It really depends on what you intend to do.
One solution would be to ask a friend that runs Debian. But that does not
mean that you cannot make the decision on your own. In fact, you should be
able to decide once you complete reading this chapter.
</p><div class="section"><div class="titlepage"><div><div><h3 class="title"><a id="s3.1.1"></a>3.1.1. You asked me to install stable, but on my laptop everything is slow</h3></div></div></div><p>
Stable ships older versions of software, which have been tested for a long
time and receive security fixes. If you need newer drivers for your hardware,
consider the backports archive before you switch to testing.
</p></div></div><div class="section"><div class="titlepage"><div><div><h2 class="title" style="clear: both"><a id="s3.2"></a>3.2. But what about Knoppix, Linux Mint, Ubuntu, and others?</h2></div></div></div><p>
They are not Debian; they are Debian based. Though there are many
similarities and commonalities between them, there are also crucial
differences. All these distributions have their own merits and are suited to
some specific set of users.
</p></div></div><div class="navfooter"><hr /><table width="100%" summary="Navigation footer"><tr><td width="40%" align="left"><a accesskey="p" href="getting-debian.en.html">Prev</a> </td><td width="20%" align="center"> </td><td width="40%" align="right"> <a accesskey="n" href="compatibility.en.html">Next</a></td></tr><tr><td width="40%" align="left" valign="top">Chapter 2. Getting and installing Debian GNU/Linux </td><td width="20%" align="center"><a accesskey="h" href="index.en.html">Home</a></td><td width="40%" align="right" valign="top"> Chapter 4. Compatibility issues</td></tr></table></div></body></html>`;

test('a DocBook chapter: the chapter heading is the title, its introduction the lead, each h2 a section with its anchor', (t) => {
  const page = readHtml(docbookChapter, {
    mainContent: true,
    url: 'https://www.debian.org/doc/manuals/debian-faq/choosing.en.html',
  });

  t.is(page.title, 'Chapter 3. Choosing a Debian distribution');
  t.is(page.language, undefined);
  t.true(page.links.includes('https://www.debian.org/doc/manuals/debian-faq/compatibility.en.html'));
  t.deepEqual(
    page.sections.map(({ heading, anchor }) => ({ heading, anchor })),
    [
      { heading: null, anchor: 'choosing' },
      { heading: '3.1. Which Debian distribution (stable/testing/unstable) is better suited to me?', anchor: 's3.1' },
      { heading: '3.2. But what about Knoppix, Linux Mint, Ubuntu, and others?', anchor: 's3.2' },
    ],
  );
  t.true(page.sections[0]!.text.startsWith('There are many different Debian distributions.'));
  // The subsection stays in its section, its heading a line of the text.
  t.regex(
    page.sections[1]!.text,
    /this chapter\.\n3\.1\.1\. You asked me to install stable, but on my laptop everything is slow\nStable ships/,
  );
  const text = page.sections.map((section) => section.text).join('\n');
  t.false(text.includes('Table of Contents'));
  t.false(text.includes('Prev'));
});

test('several h1s: the first is the title, the others split like h2s', (t) => {
  const { title, sections } = htmlSections(
    '<h1>Employee handbook</h1><p>Welcome.</p><h1>Leave</h1><p>Ask first.</p><h2>Sick leave</h2><p>Call in.</p><h1>Pay</h1><p>Monthly.</p>',
    { mainContent: false },
  );
  t.is(title, 'Employee handbook');
  t.deepEqual(sections, [
    { heading: null, text: 'Welcome.' },
    { heading: 'Leave', text: 'Ask first.' },
    { heading: 'Sick leave', text: 'Call in.' },
    { heading: 'Pay', text: 'Monthly.' },
  ]);
});

test('without h2s the page splits at its h3s; deeper headings stay lines of their section', (t) => {
  const { sections } = htmlSections(
    '<h1>FAQ</h1><h3>Can I return an item?</h3><p>Yes, within 30 days.</p><h4>Sale items</h4><p>Exchange only.</p><h3>Do you ship abroad?</h3><p>To the EU.</p>',
    { mainContent: false },
  );
  t.deepEqual(sections, [
    { heading: 'Can I return an item?', text: 'Yes, within 30 days.\nSale items\nExchange only.' },
    { heading: 'Do you ship abroad?', text: 'To the EU.' },
  ]);
});

test('headings without text and sections without text are left out; a page without headings is one section', (t) => {
  t.deepEqual(htmlSections('<h2>Empty</h2><h2> </h2><h2>Kept</h2><p>Text.</p>', { mainContent: false }).sections, [
    { heading: 'Kept', text: 'Text.' },
  ]);
  t.deepEqual(htmlSections('<p>Just a paragraph.</p><p>And another.</p>', { mainContent: false }), {
    title: null,
    sections: [{ heading: null, text: 'Just a paragraph.\nAnd another.' }],
  });
});

test('the title is the <title> as it is when the content has no h1, null when there is neither', (t) => {
  const page = (body: string, head = '') =>
    readHtml(`<!doctype html><html><head>${head}</head><body>${body}</body></html>`, { mainContent: false });
  t.is(
    page('<h2>Opening hours</h2><p>9 to 5.</p>', '<title>  Opening hours |\n Acme Shop </title>').title,
    'Opening hours | Acme Shop',
  );
  t.is(page('<p>Text.</p>').title, null);
});

test('a page that leaves out <html>, <head> and <body> is read as a browser would', (t) => {
  const page = readHtml('<!doctype html><meta charset=utf-8><title>Short page</title><h2 id="a">Answer</h2><p>Yes.</p>', {
    mainContent: false,
  });
  t.is(page.title, 'Short page');
  t.deepEqual(page.sections, [{ heading: 'Answer', anchor: 'a', text: 'Yes.' }]);
});

test('robots directives from robots and kbassistantbot meta tags, in any case; links resolve against the page without a base', (t) => {
  const page = readHtml(
    `<html><head><meta name="KBAssistantBot" content="NoFollow"><meta name="googlebot" content="noindex"></head>
     <body><a href="a.html#top">A</a> <a href="a.html">A again</a> <a href="mailto:x@example.com">Mail</a> <a href="ftp://example.com/f">FTP</a></body></html>`,
    { mainContent: false, url: 'https://example.com/docs/index.html' },
  );
  t.deepEqual(page.robots, { noindex: false, nofollow: true });
  t.deepEqual(page.links, ['https://example.com/docs/a.html']);
  t.is(page.canonical, undefined);
  t.deepEqual(
    readHtml('<html><head><meta name="robots" content="none"></head><body></body></html>', { mainContent: false }).robots,
    {
      noindex: true,
      nofollow: true,
    },
  );
});

test('relative links are left out when there is nothing to resolve them against', (t) => {
  const page = readHtml('<html><body><a href="/relative">R</a><a href="https://example.com/x">X</a></body></html>', {
    mainContent: false,
  });
  t.deepEqual(page.links, ['https://example.com/x']);
});

test('a page whose text is all hidden has no sections', (t) => {
  const page = readHtml(
    '<html><head><title>Coming soon</title></head><body><div hidden><p>Draft launch text.</p></div><div aria-hidden="true">Decoration</div></body></html>',
    { mainContent: true },
  );
  t.is(page.title, 'Coming soon');
  t.deepEqual(page.sections, []);
});
