import { dirname, join } from 'node:path';
import test from 'ava';
import { folderOf, readImports, trackedFiles, type Import } from './import-reader.js';

/*
 * The layering rule of ARCHITECTURE.md, checked on every import of every non-test file, type-only imports included:
 * - every folder holding files of the repository has a place below; a new folder fails until someone places it;
 * - libraries have an order, lowest first: a library imports only libraries below it, packages, and workflow code that
 *   imports no activities (a workflow's signature, from its `types.ts`, not `typeof` the workflow); never a process,
 *   `activities/` or a tool. `lib/platform/` imports nothing of the repository;
 * - a process imports no other process and no tool, and only the worker imports `activities/`;
 * - workflow code imports workflow code, `@temporalio/workflow` and `@temporalio/common` only, and activities as a type
 *   (`Activities`);
 * - `packages/connector-sdk/` imports nothing from the repository: it is a package of its own;
 * - no files import each other in a circle.
 */

/** The libraries, lowest first; those in one row import none of each other. */
const libraryOrder = [
  ['lib/platform'],
  ['lib/tenancy'],
  ['lib/knowledge'],
  ['lib/answering'],
  ['lib/conversations'],
  // Reads and writes what conversations hold (their counts, the ratings of their answers).
  ['lib/insights'],
  // The capabilities nobody else builds on: the messaging channel records its customers' ratings through insights.
  ['lib/messaging', 'lib/articles', 'lib/connectors', 'lib/outbound-events'],
  // The construction of the stores the API and the worker share (it may not exist yet).
  ['lib/wiring'],
];

type Place =
  | { kind: 'process' }
  | { kind: 'workflows' }
  | { kind: 'activities' }
  | { kind: 'library'; rank: number }
  | { kind: 'tool' }
  | { kind: 'package' }
  | { kind: 'no code' };

const places = new Map<string, Place>([
  ['api', { kind: 'process' }],
  ['worker', { kind: 'process' }],
  ['widget-cdn', { kind: 'process' }],
  ['workflows', { kind: 'workflows' }],
  ['activities', { kind: 'activities' }],
  ...libraryOrder.flatMap((row, rank) => row.map((folder) => [folder, { kind: 'library', rank }] as const)),
  ['tools/testing', { kind: 'tool' }],
  ['tools/bench', { kind: 'tool' }],
  ['tools/eval', { kind: 'tool' }],
  ['tools/fuzz', { kind: 'tool' }],
  ['tools/faults', { kind: 'tool' }],
  ['tools/cli', { kind: 'tool' }],
  // The local stack, images, chart and dashboard, and the programs that build and check them.
  ['deploy', { kind: 'tool' }],
  ['packages/connector-sdk', { kind: 'package' }],
  ['docs', { kind: 'no code' }],
  // The CI entry: a shell script running `npm test`.
  ['.ci', { kind: 'no code' }],
]);

const temporalWorkflowPackages = ['@temporalio/workflow', '@temporalio/common'];

/** What is wrong with one import, if anything; `activityReaching` is the workflow code that imports activities. */
function wrongWith(i: Import, activityReaching: Set<string>): string | undefined {
  const folder = folderOf(i.file);
  const from = places.get(folder);
  if (!from) return `${folder}/ has no place in the layering`;
  if (i.target === undefined) {
    return from.kind === 'workflows' && !temporalWorkflowPackages.includes(i.path)
      ? 'workflow code imports a package'
      : undefined;
  }
  if (i.target === folder) return undefined;
  const to = places.get(i.target);
  if (!to) return `${i.target}/ has no place in the layering`;
  switch (from.kind) {
    case 'library':
      if (folder === 'lib/platform') return 'lib/platform imports nothing of the repository';
      if (to.kind === 'library') return to.rank < from.rank ? undefined : 'a library imports a library not below it';
      if (to.kind === 'workflows')
        return activityReaching.has(i.path) ? 'a library imports workflow code that imports activities' : undefined;
      return to.kind === 'package' ? undefined : `a library imports ${to.kind === 'tool' ? 'a tool' : i.target}`;
    case 'process':
      if (to.kind === 'process' || to.kind === 'tool') return `a process imports ${to.kind === 'tool' ? 'a tool' : i.target}`;
      return to.kind === 'activities' && folder !== 'worker' ? 'only the worker imports activities' : undefined;
    case 'activities':
      return to.kind === 'process' || to.kind === 'tool'
        ? `activities import ${to.kind === 'tool' ? 'a tool' : i.target}`
        : undefined;
    case 'workflows':
      return i.typeOnly && i.path === 'activities/index.ts' ? undefined : 'workflow code imports other than workflow code';
    case 'package':
      return 'a package imports the repository';
    case 'no code':
      return `${folder}/ holds no code`;
    case 'tool':
      return undefined;
  }
}

const show = (i: Import) => `${i.file} → ${i.path}${i.typeOnly ? ' (type)' : ''}`;

/** The workflow code that imports activities, itself or through other workflow code. */
function activityReachingOf(imports: Import[]): Set<string> {
  const reaching = new Set<string>();
  const workflowImports = imports.filter((i) => folderOf(i.file) === 'workflows');
  let grown: boolean;
  do {
    grown = false;
    for (const i of workflowImports) {
      if ((i.target === 'activities' || reaching.has(i.path)) && !reaching.has(i.file)) {
        reaching.add(i.file);
        grown = true;
      }
    }
  } while (grown);
  return reaching;
}

/** Every import that breaks the rule, with the rule. */
function wrongImports(imports: Import[]): string[] {
  const activityReaching = activityReachingOf(imports);
  return imports.flatMap((i) => {
    const wrong = wrongWith(i, activityReaching);
    return wrong ? [`${show(i)}: ${wrong}`] : [];
  });
}

/** The files that import each other in a circle (strongly connected components, by Tarjan's algorithm). */
function circles(imports: Import[]): string[][] {
  const edges = new Map<string, string[]>();
  for (const i of imports) {
    if (i.target !== undefined) edges.set(i.file, [...(edges.get(i.file) ?? []), i.path]);
  }
  const index = new Map<string, number>();
  const lowest = new Map<string, number>();
  const stack: string[] = [];
  const found: string[][] = [];
  const visit = (file: string) => {
    index.set(file, index.size);
    lowest.set(file, index.get(file)!);
    stack.push(file);
    for (const next of edges.get(file) ?? []) {
      if (!index.has(next)) {
        visit(next);
        lowest.set(file, Math.min(lowest.get(file)!, lowest.get(next)!));
      } else if (stack.includes(next)) {
        lowest.set(file, Math.min(lowest.get(file)!, index.get(next)!));
      }
    }
    if (lowest.get(file) !== index.get(file)) return;
    const circle = stack.splice(stack.indexOf(file));
    if (circle.length > 1) found.push(circle.sort());
  };
  for (const file of edges.keys()) if (!index.has(file)) visit(file);
  return found;
}

const root = join(dirname(new URL(import.meta.url).pathname), '../..');
const tracked = trackedFiles(root);
const imports = readImports(root, tracked);

test('the import reader sees value and type imports, aliases, relative paths, thread entries and .mjs files', (t) => {
  const sees = (file: string, path: string, typeOnly: boolean) =>
    t.true(
      imports.some((i) => i.file === file && i.path === path && i.typeOnly === typeOnly),
      `${file} → ${path}`,
    );
  sees('workflows/ingestion/ingest-item.ts', '@temporalio/workflow', false);
  sees('workflows/ingestion/ingest-item.ts', 'activities/index.ts', true);
  sees('api/app.ts', 'api/middleware/error-handler.ts', false);
  sees('lib/insights/content-gaps/clustering-runner.ts', 'lib/insights/content-gaps/clustering-thread.ts', false);
  sees('deploy/local/ensure-node-modules.mjs', 'node:child_process', false);
  t.true(imports.length > 1_000, `${imports.length} imports read`);
});

test('every folder holding files of the repository has a place in the layering', (t) => {
  const folders = new Set(tracked.filter((file) => file.includes('/')).map(folderOf));
  t.deepEqual(
    [...folders].filter((folder) => !places.has(folder)),
    [],
  );
});

test('every import keeps the layering', (t) => {
  t.deepEqual(wrongImports(imports), []);
});

test('no files import each other in a circle, type-only imports included', (t) => {
  t.deepEqual(circles(imports), []);
});

/** An import planted to test the checks: `path` a repository file, or a package when it starts with `@`. */
const planted = (file: string, path: string, typeOnly = false): Import => ({
  file,
  path,
  typeOnly,
  target: path.startsWith('@') ? undefined : folderOf(path),
});

test('the rule reports planted imports that break it, and only those', (t) => {
  t.deepEqual(
    wrongImports([
      planted('lib/platform/x.ts', 'lib/knowledge/y.ts'),
      planted('lib/platform/x.ts', 'workflows/ids.ts', true),
      planted('lib/knowledge/x.ts', 'lib/conversations/y.ts', true),
      planted('lib/articles/x.ts', 'lib/connectors/y.ts'),
      planted('lib/articles/x.ts', 'lib/wiring/y.ts'),
      planted('lib/knowledge/x.ts', 'activities/y.ts', true),
      planted('lib/knowledge/x.ts', 'tools/testing/y.ts'),
      planted('api/x.ts', 'activities/index.ts', true),
      planted('api/x.ts', 'worker/y.ts'),
      planted('workflows/x.ts', 'activities/index.ts'),
      planted('workflows/x.ts', 'lib/knowledge/y.ts', true),
      planted('workflows/x.ts', '@temporalio/client'),
      planted('packages/connector-sdk/x.ts', 'lib/platform/y.ts', true),
      planted('workflows/ingest.ts', 'activities/index.ts', true),
      planted('workflows/index.ts', 'workflows/ingest.ts'),
      planted('lib/knowledge/x.ts', 'workflows/index.ts', true),
      planted('lib/knowledge/x.ts', 'workflows/ingest.ts', true),
      planted('lib/nowhere/x.ts', 'lib/platform/y.ts'),
      planted('lib/knowledge/x.ts', 'nowhere/y.ts'),
      planted('docs/x.ts', 'lib/platform/y.ts'),
      // Allowed: down the order, within a library, from the top, workflow leaves, activity types into workflows.
      planted('lib/conversations/x.ts', 'lib/knowledge/y.ts'),
      planted('lib/platform/x.ts', 'lib/platform/y.ts'),
      planted('lib/wiring/x.ts', 'lib/messaging/y.ts'),
      planted('lib/knowledge/x.ts', 'workflows/ids.ts'),
      planted('lib/knowledge/x.ts', 'workflows/types.ts', true),
      planted('workflows/x.ts', 'activities/index.ts', true),
      planted('worker/x.ts', 'activities/index.ts'),
    ]),
    [
      'lib/platform/x.ts → lib/knowledge/y.ts: lib/platform imports nothing of the repository',
      'lib/platform/x.ts → workflows/ids.ts (type): lib/platform imports nothing of the repository',
      'lib/knowledge/x.ts → lib/conversations/y.ts (type): a library imports a library not below it',
      'lib/articles/x.ts → lib/connectors/y.ts: a library imports a library not below it',
      'lib/articles/x.ts → lib/wiring/y.ts: a library imports a library not below it',
      'lib/knowledge/x.ts → activities/y.ts (type): a library imports activities',
      'lib/knowledge/x.ts → tools/testing/y.ts: a library imports a tool',
      'api/x.ts → activities/index.ts (type): only the worker imports activities',
      'api/x.ts → worker/y.ts: a process imports worker',
      'workflows/x.ts → activities/index.ts: workflow code imports other than workflow code',
      'workflows/x.ts → lib/knowledge/y.ts (type): workflow code imports other than workflow code',
      'workflows/x.ts → @temporalio/client: workflow code imports a package',
      'packages/connector-sdk/x.ts → lib/platform/y.ts (type): a package imports the repository',
      'lib/knowledge/x.ts → workflows/index.ts (type): a library imports workflow code that imports activities',
      'lib/knowledge/x.ts → workflows/ingest.ts (type): a library imports workflow code that imports activities',
      'lib/nowhere/x.ts → lib/platform/y.ts: lib/nowhere/ has no place in the layering',
      'lib/knowledge/x.ts → nowhere/y.ts: nowhere/ has no place in the layering',
      'docs/x.ts → lib/platform/y.ts: docs/ holds no code',
    ],
  );
});

test('the circle finder reports a planted circle of type-only imports', (t) => {
  t.deepEqual(
    circles([
      planted('activities/index.ts', 'activities/ingest.ts', true),
      planted('activities/ingest.ts', 'lib/knowledge/client.ts'),
      planted('lib/knowledge/client.ts', 'workflows/ingest.ts', true),
      planted('workflows/ingest.ts', 'activities/index.ts', true),
      planted('workflows/ingest.ts', 'workflows/ids.ts'),
    ]),
    [['activities/index.ts', 'activities/ingest.ts', 'lib/knowledge/client.ts', 'workflows/ingest.ts']],
  );
});
