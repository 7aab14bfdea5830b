// Runs an ONNX model exported by kumalak's net/onnx Write with
// onnxruntime-node, for the Go test TestONNXMatchesInfer.
//
//   node check.js MODEL.onnx INPUT.json OUTPUT.json
//
// INPUT.json:  {"n": N, "inputLen": I, "actions": A, "obs": [N*I], "mask": [N*A]}
// OUTPUT.json: {"policy": [N*A], "value": [N]}
'use strict';

const fs = require('fs');
const ort = require('onnxruntime-node');

async function main() {
  const [model, input, output] = process.argv.slice(2);
  if (!output) {
    throw new Error('usage: node check.js MODEL.onnx INPUT.json OUTPUT.json');
  }
  const x = JSON.parse(fs.readFileSync(input, 'utf8'));
  const session = await ort.InferenceSession.create(model);
  const feeds = {
    obs: new ort.Tensor('float32', Float32Array.from(x.obs), [x.n, x.inputLen]),
    mask: new ort.Tensor('float32', Float32Array.from(x.mask), [x.n, x.actions]),
  };
  const out = await session.run(feeds);
  const want = [[x.n, x.actions], [x.n, 1]];
  ['policy', 'value'].forEach((name, i) => {
    const dims = out[name].dims;
    if (dims.length !== 2 || dims[0] !== want[i][0] || dims[1] !== want[i][1]) {
      throw new Error(`${name} has shape [${dims}], want [${want[i]}]`);
    }
  });
  fs.writeFileSync(output, JSON.stringify({
    policy: Array.from(out.policy.data),
    value: Array.from(out.value.data),
  }));
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
