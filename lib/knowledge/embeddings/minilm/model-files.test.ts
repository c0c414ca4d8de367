import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { defaultModelDir, ModelFileError, pinnedModel, verifyModelFiles } from './model-files.js';

// The set-up (`npm test` runs it first) has put the pinned model in its default folder.
const copies: string[] = [];
test.after.always(() => copies.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

function copyOfModel(): string {
  const dir = mkdtempSync(join(tmpdir(), 'model-files-'));
  copies.push(dir);
  cpSync(defaultModelDir(), dir, { recursive: true });
  return dir;
}

test('the fetched model matches every pinned hash, the int8 files converted at set-up too', async (t) => {
  await t.notThrowsAsync(verifyModelFiles(defaultModelDir()));
  t.true(Object.keys(pinnedModel.sha256).includes('onnx/model_q4.onnx_data'));
  // The converted files are pinned like the fetched ones, so the embedder checks them when it loads.
  t.true(pinnedModel.converted.every((file) => file in pinnedModel.sha256));
  t.true(pinnedModel.converted.includes(pinnedModel.onnxFile), 'the runner loads the converted model');
});

test('a file that differs from its pin is refused, naming the file and both hashes', async (t) => {
  const dir = copyOfModel();
  writeFileSync(join(dir, 'config.json'), '{"hidden_size": 384, "tampered": true}');
  const error = await t.throwsAsync(verifyModelFiles(dir), { instanceOf: ModelFileError });
  t.is(error?.file, join(dir, 'config.json'));
  t.true(error?.message.includes(pinnedModel.sha256['config.json']!));
});

test('a missing file is refused, naming it and how to fetch the model', async (t) => {
  const dir = copyOfModel();
  rmSync(join(dir, 'tokenizer.json'));
  const error = await t.throwsAsync(verifyModelFiles(dir), { instanceOf: ModelFileError });
  t.is(error?.file, join(dir, 'tokenizer.json'));
  t.regex(error!.message, /missing.*EMBEDDINGS_MODEL_DIR/);
});
