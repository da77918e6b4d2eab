// How long parsing a JSON parameter takes, per input size (issue 13, finding 9): arrays of
// floats, of integers and of strings full of digits, at 0.25 to 4 MB. Linear means the time per
// MB stays about the same as the size grows. Prints CPU milliseconds (less noisy than wall time
// on a busy machine), the best of BENCH_RUNS (default 3), next to plain JSON.parse.
//   npm run build --silent && node scripts/bench-parse-json.mjs
import { parseJson } from '../dist/src/shared/http/params/decoders.js';

const runs = Number(process.env.BENCH_RUNS ?? 3);

function cpuMs(f) {
  let best = Infinity;
  for (let i = 0; i < runs; i++) {
    const start = process.cpuUsage();
    f();
    const used = process.cpuUsage(start);
    best = Math.min(best, (used.user + used.system) / 1000);
  }
  return best;
}

const shapes = {
  floats: (n) => `[${Array.from({ length: n }, (_, i) => `${i}.125`).join(',')}]`,
  integers: (n) => `[${Array.from({ length: n }, (_, i) => `${i * 7}`).join(',')}, 1.5]`,
  'digit strings': (n) => `[${Array.from({ length: n / 2 }, (_, i) => `"${i}.5 \\" e${i}"`).join(',')}, 2.5]`,
};

console.log('shape           size MB   parseJson ms   ms/MB   JSON.parse ms');
for (const [name, make] of Object.entries(shapes)) {
  for (const n of [25_000, 50_000, 100_000, 200_000, 400_000]) {
    const text = make(n);
    const mb = text.length / 1e6;
    const ours = cpuMs(() => parseJson(text));
    const plain = cpuMs(() => JSON.parse(text));
    console.log(
      `${name.padEnd(15)} ${mb.toFixed(2).padStart(7)} ${ours.toFixed(0).padStart(14)} ${(ours / mb).toFixed(0).padStart(7)} ${plain.toFixed(0).padStart(15)}`,
    );
  }
}
