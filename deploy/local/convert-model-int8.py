"""Converts the pinned all-MiniLM-L6-v2 from 4-bit to int8 weights, whose model runs take 35–40 % less time.

Usage: /usr/bin/python3 convert-model-int8.py MODEL_DIR (Debian's interpreter and python3-onnx).

Reads MODEL_DIR/onnx/model_q4.onnx (and its model_q4.onnx_data) and writes model_int8.onnx and
model_int8.onnx_data beside it. Each 4-bit MatMulNBits becomes a DynamicQuantizeMatMul: its weights
are dequantised exactly as onnxruntime does, then quantised again per column, symmetric int8 (the
activations are quantised to uint8 at run time by the operator itself). Nothing else changes. The
output is the same bytes on every run, so the set-up pins its SHA-256 like the carrier's files.
"""
import os
import sys

import numpy as np
import onnx
from onnx import helper, numpy_helper

SOURCE = 'model_q4.onnx'
TARGET = 'model_int8.onnx'
DATA = TARGET + '_data'
# Initializers of at least this many bytes go to the data file, in graph order, one after the other.
EXTERNAL_FROM = 1024


def dequantised(node, initializers):
    """The float32 weight [K, N] of a MatMulNBits node: (q - 8) * scale of its block, 4 bits, low nibble first."""
    attributes = {a.name: helper.get_attribute_value(a) for a in node.attribute}
    k, n, bits, block = attributes['K'], attributes['N'], attributes['bits'], attributes['block_size']
    if bits != 4 or any(node.input[3:]):
        sys.exit(f'{node.name}: only 4-bit MatMulNBits without zero points, group index or bias can be converted')
    packed = numpy_helper.to_array(initializers[node.input[1]])  # [N, blocks, block / 2] bytes
    scales = numpy_helper.to_array(initializers[node.input[2]]).astype(np.float32).reshape(n, -1, 1)
    nibbles = np.stack([packed & 0x0F, packed >> 4], axis=-1).reshape(n, scales.shape[1], block)
    weight = (nibbles.astype(np.int32) - 8).astype(np.float32) * scales
    return weight.reshape(n, -1)[:, :k].T


def quantised(weight):
    """Per-column symmetric int8: weight ≈ q * scale, q in [-127, 127], zero point 0."""
    largest = np.abs(weight).max(axis=0)
    scale = np.where(largest > 0, largest / np.float32(127), np.float32(1)).astype(np.float32)
    q = np.clip(np.rint(weight / scale), -127, 127).astype(np.int8)
    return np.ascontiguousarray(q), scale


def convert(model):
    graph = model.graph
    initializers = {tensor.name: tensor for tensor in graph.initializer}
    nodes, added, dropped = [], [], set()
    for node in graph.node:
        if (node.domain, node.op_type) != ('com.microsoft', 'MatMulNBits'):
            nodes.append(node)
            continue
        q, scale = quantised(dequantised(node, initializers))
        stem = node.input[1].removesuffix('_Q4')
        added += [numpy_helper.from_array(q, f'{stem}_int8'), numpy_helper.from_array(scale, f'{stem}_int8_scales')]
        dropped.update(node.input[1:])
        inputs = [node.input[0], added[-2].name, added[-1].name]
        name = node.name.replace('_Q4', '_int8')
        nodes.append(helper.make_node('DynamicQuantizeMatMul', inputs, list(node.output), name, domain='com.microsoft'))
    kept = [tensor for tensor in graph.initializer if tensor.name not in dropped]
    del graph.node[:], graph.initializer[:]
    graph.node.extend(nodes)
    graph.initializer.extend(kept + added)


def save(model, folder):
    """The model file and its data file; offsets follow from the graph's order alone."""
    offset = 0
    with open(os.path.join(folder, DATA), 'wb') as data:
        for tensor in model.graph.initializer:
            if len(tensor.raw_data) < EXTERNAL_FROM:
                continue
            data.write(tensor.raw_data)
            for key, value in (('location', DATA), ('offset', str(offset)), ('length', str(len(tensor.raw_data)))):
                entry = tensor.external_data.add()
                entry.key, entry.value = key, value
            offset += len(tensor.raw_data)
            tensor.data_location = onnx.TensorProto.EXTERNAL
            tensor.ClearField('raw_data')
    with open(os.path.join(folder, TARGET), 'wb') as file:
        file.write(model.SerializeToString())


if __name__ == '__main__':
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    folder = os.path.join(sys.argv[1], 'onnx')
    model = onnx.load(os.path.join(folder, SOURCE))
    convert(model)
    save(model, folder)
