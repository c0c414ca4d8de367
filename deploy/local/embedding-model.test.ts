import { cpSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { defaultModelDir, pinnedModel, verifyModelFiles } from '#knowledge/embeddings/minilm/model-files.js';
import { convertToInt8 } from './embedding-model.js';

// The set-up (`npm test` runs it first) has put the pinned model in its default folder. It converts
// once per machine and keeps the folder, so it would never notice a change to the conversion: this
// converts the carrier's 4-bit files again.
test('the conversion makes the pinned int8 files from the 4-bit ones, byte for byte', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'model-int8-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  mkdirSync(join(dir, 'onnx'));
  for (const file of ['onnx/model_q4.onnx', 'onnx/model_q4.onnx_data']) cpSync(join(defaultModelDir(), file), join(dir, file));
  await convertToInt8(dir);
  await t.notThrowsAsync(verifyModelFiles(dir, pinnedModel.converted));
});
