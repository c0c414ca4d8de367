import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, extname, join, normalize } from 'node:path';
import ts from 'typescript';

/*
 * Every import of the repository's code, read with the TypeScript parser for the layering test: import and export
 * declarations, `import()` with a string (and `import('…')` in a type), and a module a thread is started from
 * (`new URL('./x', import.meta.url)` naming a source file). `#aliases` are resolved from package.json.
 */

export interface Import {
  file: string;
  /** The imported file from the repository root (`lib/knowledge/search.ts`), or the specifier of a package. */
  path: string;
  /** The folder of `path` (`api`, `lib/knowledge`, `tools/bench`); undefined for a package. */
  target: string | undefined;
  typeOnly: boolean;
}

/** The folder a repository file is in: its first segment, or its first two under `lib/`, `tools/`, `packages/`. */
export function folderOf(file: string): string {
  const segments = file.split('/');
  return ['lib', 'tools', 'packages'].includes(segments[0]!) && segments.length > 2
    ? `${segments[0]}/${segments[1]}`
    : segments[0]!;
}

export function trackedFiles(root: string): string[] {
  return execFileSync('git', ['ls-files'], { cwd: root, encoding: 'utf8' }).split('\n').filter(Boolean);
}

const sourceExtensions = ['.ts', '.mjs'];
const isSource = (file: string | undefined) => !!file && sourceExtensions.includes(extname(file));

/** The imports of every tracked source file but tests and declarations. */
export function readImports(root: string, tracked: string[]): Import[] {
  const aliases = Object.entries(
    JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).imports as Record<string, string>,
  ).map(([alias, path]) => [alias.replace(/\*$/, ''), path.replace(/^\.\//, '').replace(/\*$/, '')] as const);
  const files = new Set(tracked);
  const sourceFiles = tracked.filter((file) => isSource(file) && !/\.test\.[a-z]+$/.test(file) && !file.endsWith('.d.ts'));

  /** A repository path as the file it names: `x.js` is `x.ts` when that is the file, and `./x` is `./x.ts`. */
  const fileOf = (path: string): string | undefined =>
    [path, path.replace(/\.js$/, '.ts'), `${path}.ts`, `${path}/index.ts`].find((candidate) => files.has(candidate));

  return sourceFiles.flatMap((file) => {
    const found: Import[] = [];
    const add = (specifier: string, typeOnly: boolean) => {
      const alias = aliases.find(([prefix]) => specifier.startsWith(prefix));
      const inRepository = alias
        ? alias[1] + specifier.slice(alias[0].length)
        : specifier.startsWith('.') && join(dirname(file), specifier);
      if (inRepository) {
        const path = normalize(inRepository);
        found.push({ file, path: fileOf(path) ?? path, target: folderOf(path), typeOnly });
      } else {
        found.push({ file, path: specifier, target: undefined, typeOnly });
      }
    };
    const visit = (node: ts.Node) => {
      if (
        (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) &&
        node.moduleSpecifier &&
        ts.isStringLiteral(node.moduleSpecifier)
      ) {
        add(node.moduleSpecifier.text, isTypeOnly(node));
      } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
        const [specifier] = node.arguments;
        if (specifier && ts.isStringLiteral(specifier)) add(specifier.text, false);
      } else if (ts.isImportTypeNode(node)) {
        const argument = node.argument;
        if (ts.isLiteralTypeNode(argument) && ts.isStringLiteral(argument.literal)) add(argument.literal.text, true);
      } else if (ts.isNewExpression(node) && isImportMetaUrl(node.arguments?.[1])) {
        // A thread's entry module or a worker's workflows; a folder or a data file read at run time is not an import.
        const [specifier] = node.arguments!;
        if (specifier && ts.isStringLiteralLike(specifier) && isSource(fileOf(normalize(join(dirname(file), specifier.text))))) {
          add(specifier.text, false);
        }
      }
      ts.forEachChild(node, visit);
    };
    const kind = file.endsWith('.mjs') ? ts.ScriptKind.JS : ts.ScriptKind.TS;
    visit(ts.createSourceFile(file, readFileSync(join(root, file), 'utf8'), ts.ScriptTarget.Latest, false, kind));
    return found;
  });
}

function isImportMetaUrl(node: ts.Node | undefined): boolean {
  return (
    !!node &&
    ts.isPropertyAccessExpression(node) &&
    ts.isMetaProperty(node.expression) &&
    node.expression.keywordToken === ts.SyntaxKind.ImportKeyword &&
    node.name.text === 'url'
  );
}

function isTypeOnly(node: ts.ImportDeclaration | ts.ExportDeclaration): boolean {
  if (ts.isExportDeclaration(node)) {
    if (node.isTypeOnly) return true;
    const clause = node.exportClause;
    return !!clause && ts.isNamedExports(clause) && clause.elements.length > 0 && clause.elements.every((e) => e.isTypeOnly);
  }
  const clause = node.importClause;
  if (!clause) return false; // a side-effect import
  if (clause.isTypeOnly) return true;
  const bindings = clause.namedBindings;
  return (
    !clause.name &&
    !!bindings &&
    ts.isNamedImports(bindings) &&
    bindings.elements.length > 0 &&
    bindings.elements.every((e) => e.isTypeOnly)
  );
}
