// Summarizes a V8 .cpuprofile (node --cpu-prof): self time by function and by package or
// source area, the top entries with their share of the sampled time.
//   node bench/profile-summary.mjs <file.cpuprofile> [top=25]
import { readFileSync } from 'node:fs';

const [file, topArg] = process.argv.slice(2);
if (!file) {
  console.error('usage: node bench/profile-summary.mjs <file.cpuprofile> [top]');
  process.exit(2);
}
const top = Number(topArg ?? 25);
const profile = JSON.parse(readFileSync(file, 'utf8'));
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const hits = new Map();
for (const id of profile.samples) hits.set(id, (hits.get(id) ?? 0) + 1);
const total = profile.samples.length;

/** Where a frame's code lives: a package under node_modules, node's own code, or a project folder. */
function area(url) {
  if (!url) return '(native / idle / gc)';
  if (url.startsWith('node:')) return 'node core';
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (pkg) return pkg[1];
  const own = /\/(dist\/(?:src|libs)\/[^/]+(?:\/[^/]+)?)/.exec(url);
  return own ? own[1] : url;
}

const byFunction = new Map();
const byArea = new Map();
for (const [id, n] of hits) {
  const { functionName, url, lineNumber } = byId.get(id).callFrame;
  const name = `${functionName || '(anonymous)'} ${url ? `${url.replace(/^.*\/(node_modules|dist)\//, '$1/')}:${lineNumber + 1}` : ''}`;
  byFunction.set(name, (byFunction.get(name) ?? 0) + n);
  byArea.set(area(url), (byArea.get(area(url)) ?? 0) + n);
}
const print = (title, m) => {
  console.log(`\n${title}`);
  for (const [k, n] of [...m].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`${((100 * n) / total).toFixed(1).padStart(6)}%  ${k}`);
};
console.log(`${file}: ${total} samples, ${((profile.endTime - profile.startTime) / 1e6).toFixed(1)} s`);
print('self time by area', byArea);
print('self time by function', byFunction);
