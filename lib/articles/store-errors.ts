/** The errors the article store throws for a request it refuses (taken slug, unknown category or article). */

/** An explicit slug another article (or category) of the knowledge base already has. */
export class SlugTakenError extends Error {
  constructor(readonly slug: string) {
    super(`The slug "${slug}" is already taken in this knowledge base.`);
    this.name = 'SlugTakenError';
  }
}

/** A `categoryId` or `parentId` that names no category of the knowledge base. */
export class UnknownCategoryError extends Error {
  constructor(
    readonly field: 'categoryId' | 'parentId',
    readonly categoryId: string,
  ) {
    super(`No category ${categoryId} in this knowledge base.`);
    this.name = 'UnknownCategoryError';
  }
}

/** The article was deleted while it was being changed. */
export class UnknownArticleError extends Error {
  constructor(readonly articleId: string) {
    super(`No article ${articleId}.`);
    this.name = 'UnknownArticleError';
  }
}
