import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import test from 'ava';
import ts from 'typescript';

/*
 * The layering rule of ARCHITECTURE.md, checked on every import of every non-test file (the way the
 * bundle test checks that workflow code is deterministic):
 * - libraries never import a process (`api/`, `worker/`), `activities/` or a tool;
 * - `api/` never imports `activities/` (nor the worker);
 * - workflow code imports workflow code, `@temporalio/workflow` and `@temporalio/common` only, and
 *   activities as types (`Activities`);
 * - `packages/connector-sdk/` imports nothing from the repository: it is a package of its own.
 */

const libraries = [
  'lib/knowledge',
  'lib/answering',
  'lib/conversations',
  'lib/messaging',
  'lib/articles',
  'lib/tenancy',
  'lib/connectors',
  'lib/outbound-events',
  'lib/insights',
  'lib/platform',
];
const tools = ['tools/testing', 'tools/bench', 'tools/eval', 'tools/fuzz', 'tools/faults', 'tools/cli', 'deploy'];

interface Import {
  file: string;
  /** The repository folder (`api`, `lib/knowledge`, `tools/bench`) or package the import reaches. */
  target: string;
  /** The imported path within the repository, or the specifier of a package. */
  path: string;
  typeOnly: boolean;
}

const root = join(dirname(new URL(import.meta.url).pathname), '../..');
const aliases = Object.entries(
  JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).imports as Record<string, string>,
).map(([alias, path]) => [alias.replace(/\*$/, ''), path.replace(/^\.\//, '').replace(/\*$/, '')] as const);

const sourceFiles = execFileSync('git', ['ls-files', '*.ts'], { cwd: root, encoding: 'utf8' })
  .split('\n')
  .filter((file) => file && !file.endsWith('.test.ts') && !file.endsWith('.d.ts'));

function importsOf(file: string): Import[] {
  const source = ts.createSourceFile(file, readFileSync(join(root, file), 'utf8'), ts.ScriptTarget.Latest, false);
  const found: Import[] = [];
  const add = (specifier: string, typeOnly: boolean) => {
    const path = resolve(file, specifier);
    found.push({ file, path, typeOnly, target: path.startsWith('.') || path.startsWith('node:') ? path : folderOf(path) });
  };
  const visit = (node: ts.Node) => {
    if (
      (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) &&
      node.moduleSpecifier &&
      ts.isStringLiteral(node.moduleSpecifier)
    ) {
      add(node.moduleSpecifier.text, isTypeOnly(node));
    } else if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      ts.isStringLiteral(node.arguments[0]!)
    ) {
      add(node.arguments[0].text, false);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
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

/** The folder a repository path is in: its first segment, or its first two under `lib/`, `tools/`, `packages/`. */
function folderOf(path: string): string {
  const [first, second] = path.split('/');
  return ['lib', 'tools', 'packages'].includes(first!) && second ? `${first}/${second}` : first!;
}

/** An alias or relative specifier as a path from the repository root; a package stays as it is. */
function resolve(file: string, specifier: string): string {
  const alias = aliases.find(([prefix]) => specifier.startsWith(prefix));
  if (alias) return normalize(alias[1] + specifier.slice(alias[0].length));
  if (specifier.startsWith('.')) return normalize(join(dirname(file), specifier));
  return specifier;
}

const imports = sourceFiles.flatMap(importsOf);
const inFolder = (folder: string) => (i: Import) => i.file.startsWith(`${folder}/`);
const repoFolders = new Set(sourceFiles.map(folderOf));
const show = (i: Import) => `${i.file} → ${i.path}${i.typeOnly ? ' (type)' : ''}`;

test('the import reader sees value and type imports, aliases and relative paths', (t) => {
  const ingestItem = imports.filter((i) => i.file === 'workflows/ingestion/ingest-item.ts');
  t.true(ingestItem.some((i) => i.path === '@temporalio/workflow' && !i.typeOnly));
  t.true(ingestItem.some((i) => i.path === 'activities/index.js' && i.typeOnly));
  t.true(imports.some((i) => i.file === 'api/app.ts' && i.path === 'api/middleware/error-handler.js' && !i.typeOnly));
  t.true(imports.length > 1_000, `${imports.length} imports read`);
});

test('libraries import no process, no activities and no tool', (t) => {
  const forbidden = new Set(['api', 'worker', 'activities', 'widget-cdn', ...tools]);
  const wrong = imports.filter((i) => libraries.some((lib) => inFolder(lib)(i)) && forbidden.has(i.target));
  t.deepEqual(wrong.map(show), []);
});

test('the API imports no activities and nothing of the worker', (t) => {
  const wrong = imports.filter((i) => inFolder('api')(i) && ['activities', 'worker', ...tools].includes(i.target));
  t.deepEqual(wrong.map(show), []);
});

test('activities import no process and no tool', (t) => {
  const wrong = imports.filter((i) => inFolder('activities')(i) && ['api', 'worker', ...tools].includes(i.target));
  t.deepEqual(wrong.map(show), []);
});

test('workflow code imports workflow code, the workflow SDK and activity types only', (t) => {
  const allowed = (i: Import) =>
    i.target === 'workflows' ||
    i.path === '@temporalio/workflow' ||
    i.path === '@temporalio/common' ||
    (i.typeOnly && i.path === 'activities/index.js');
  const wrong = imports.filter((i) => inFolder('workflows')(i) && !allowed(i));
  t.deepEqual(wrong.map(show), []);
});

test('the connector SDK imports nothing from the repository', (t) => {
  const wrong = imports.filter(
    (i) => inFolder('packages/connector-sdk')(i) && repoFolders.has(i.target) && i.target !== 'packages/connector-sdk',
  );
  t.deepEqual(wrong.map(show), []);
});
