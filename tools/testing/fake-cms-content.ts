/**
 * The fake CMS's site content: its users and terms, and the generated posts and pages `startFakeCms` stores.
 *
 * Generated entries are deterministic in their id and varied (authors, categories, tags, HTML content with
 * entities, excerpts); a test's partial entry replaces the generated fields it names.
 */
import type { CmsEmbeddedAuthor, CmsEmbeddedTerm, CmsEntry, CmsKind } from '#connectors/cms/cms-types.js';

/** The site's users; generated posts and pages cycle through them. */
export const fakeCmsAuthors: readonly CmsEmbeddedAuthor[] = [
  { id: 1, name: 'Ada Lovelace', slug: 'ada' },
  { id: 2, name: 'Grace Hopper', slug: 'grace' },
  { id: 3, name: 'Søren Ødegaard', slug: 'soren' },
];

/** Terms, with names HTML-escaped as WordPress stores and serves them; ids are shared by both taxonomies. */
export const fakeCmsTerms: readonly CmsEmbeddedTerm[] = [
  { id: 1, name: 'Uncategorized', slug: 'uncategorized', taxonomy: 'category' },
  { id: 2, name: 'Guides', slug: 'guides', taxonomy: 'category' },
  { id: 3, name: 'News &amp; Events', slug: 'news-events', taxonomy: 'category' },
  { id: 4, name: 'Releases', slug: 'releases', taxonomy: 'category' },
  { id: 5, name: 'setup', slug: 'setup', taxonomy: 'post_tag' },
  { id: 6, name: 'billing', slug: 'billing', taxonomy: 'post_tag' },
  { id: 7, name: 'api', slug: 'api', taxonomy: 'post_tag' },
  { id: 8, name: 'tips &amp; tricks', slug: 'tips-tricks', taxonomy: 'post_tag' },
  { id: 9, name: 'security', slug: 'security', taxonomy: 'post_tag' },
];

/** The author as `_embed` shows it: a site user, or a stand-in for an id the site does not know. */
export function embeddedAuthor(id: number): CmsEmbeddedAuthor {
  return fakeCmsAuthors.find((author) => author.id === id) ?? { id, name: `User ${id}`, slug: `user-${id}` };
}

/** The terms as `_embed` shows them, in the given order; unknown ids get stand-ins. */
export function embeddedTerms(ids: number[] | undefined, taxonomy: CmsEmbeddedTerm['taxonomy']): CmsEmbeddedTerm[] {
  return (ids ?? []).map(
    (id) =>
      fakeCmsTerms.find((term) => term.id === id && term.taxonomy === taxonomy) ?? {
        id,
        name: `Term ${id}`,
        slug: `term-${id}`,
        taxonomy,
      },
  );
}

const TOPICS = [
  ['Getting started &#8211; your first project', 'Create a project from the dashboard &amp; invite your team', 'setup'],
  ['Billing &amp; invoices explained', 'Invoices are issued on the 1<sup>st</sup> of each month in &euro; or $', 'billing'],
  ['Using the REST API', 'Every request needs an API key sent as <code>x-api-key</code>', 'api'],
  ['What&#8217;s new in release', 'This release brings faster search&nbsp;&amp; a new editor', 'releases'],
  ['Keeping your account secure', 'Turn on two-factor authentication under <em>Settings &rarr; Security</em>', 'security'],
] as const;

const PAGE_TITLES = ['About us', 'Contact', 'Shipping &amp; returns', 'Privacy policy', 'FAQ'];

/** A generated entry, deterministic in its id, with the partial's fields on top. */
export function buildEntry(kind: CmsKind, id: number, modified: string, partial: Partial<CmsEntry>, siteUrl: string): CmsEntry {
  const isPost = kind === 'posts';
  const [topic, lead, keyword] = TOPICS[id % TOPICS.length]!;
  const title = isPost ? `${topic} (${id})` : `${PAGE_TITLES[id % PAGE_TITLES.length]} ${id}`;
  const content = [
    `<h2>${isPost ? topic : 'Overview'}</h2>`,
    `<p>${lead}. This is note&nbsp;${id} about ${keyword}.</p>`,
    '<ul>\n<li>Step one &ndash; open the app</li>\n<li>Step two &ndash; follow the &#8220;Next&#8221; button</li>\n</ul>',
    `<p>Questions? <a href="${siteUrl}/contact/">Write to us</a> &amp; we&#8217;ll answer.</p>`,
  ].join('\n');
  const generated: CmsEntry = {
    id,
    type: isPost ? 'post' : 'page',
    slug: slugify(partial.title?.rendered ?? title),
    status: 'publish',
    link: '',
    date_gmt: toGmt(Date.UTC(2024, 0, 1, 8) + id * 7 * 3_600_000),
    modified_gmt: modified,
    title: { rendered: title },
    content: { rendered: `${content}\n`, protected: false },
    excerpt: { rendered: `<p>${lead}. This is note&nbsp;${id} about ${keyword} [&hellip;]</p>\n`, protected: false },
    author: fakeCmsAuthors[id % fakeCmsAuthors.length]!.id,
    ...(isPost
      ? {
          categories: id % 4 === 0 ? [2 + (id % 3), 1] : [2 + (id % 3)],
          tags: id % 2 === 0 ? [5 + (id % 5), 5 + ((id + 2) % 5)] : [5 + (id % 5)],
        }
      : { parent: 0 }),
  };
  const entry: CmsEntry = { ...generated, ...structuredClone(partial), id, type: generated.type };
  return { ...entry, link: partial.link ?? `${siteUrl}/${entry.slug}/` };
}

function slugify(rendered: string): string {
  return rendered
    .replace(/<[^>]*>|&[^;\s]+;/g, ' ')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
}

/** A time as WordPress writes `*_gmt` fields: UTC, whole seconds, no zone. */
export function toGmt(ms: number): string {
  return new Date(ms).toISOString().slice(0, 19);
}
