import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { discoverRoutes } from '../../support/api-fuzz.js';
import { TestApp } from '../../support/test-app.js';

/**
 * docs/api.md's endpoint table says, for every operation of Zulip's API document
 * (test/support/fixtures/zulip-endpoints.json, read from zerver/openapi/zulip.yaml), whether this
 * server has it; this file derives the answer from the live router and fails when the table
 * disagrees: a route added without turning its row to "yes", a row that says "yes" for a route
 * that is gone, an endpoint of the document missing from the table, or a route under /api/v1 that
 * is neither one of Zulip's operations nor listed among the routes beyond the document.
 */
interface ZulipEndpoint {
  method: string;
  path: string;
  deprecated: boolean;
  dev_only: boolean;
  doc_only?: boolean;
}

const root = join(import.meta.dirname, '../../..');
const fixture = JSON.parse(readFileSync(join(root, 'test/support/fixtures/zulip-endpoints.json'), 'utf8')) as { endpoints: ZulipEndpoint[] };
const callable = fixture.endpoints.filter((e) => e.doc_only !== true);
const doc = readFileSync(join(root, 'docs/api.md'), 'utf8');

/** The rows of the table between `<!-- name:start -->` and `<!-- name:end -->`: its first cell (unquoted) and the rest. */
function tableRows(name: string): Map<string, string[]> {
  const start = doc.indexOf(`<!-- ${name}:start -->`);
  const end = doc.indexOf(`<!-- ${name}:end -->`);
  expect(start, `docs/api.md has the ${name} table`).toBeGreaterThan(-1);
  const rows = new Map<string, string[]>();
  for (const line of doc.slice(start, end).split('\n')) {
    const m = /^\| `([A-Z]+ [^`]+)` \|(.*)\|$/.exec(line);
    if (m) rows.set(m[1], m[2].split('|').map((c) => c.trim()));
  }
  return rows;
}

/** One key for a route and an operation of the document: the path under /api/v1, every run of parameters as one `{}`. */
const key = (method: string, path: string) =>
  `${method} ${path
    .replace(/^\/api\/v1(?=\/)/, '')
    .replace(/\{[^}]+\}|[:*][A-Za-z_][A-Za-z0-9_]*/g, '{}')
    // A document's {filename} may span several segments (an upload's path is realm/bucket/key/name here).
    .replace(/(\/\{\})+/g, '/{}')}`;

let t: TestApp;
let served: Map<string, string>;
beforeAll(async () => {
  t = await TestApp.start();
  served = new Map(discoverRoutes(t.app).filter((r) => r.method !== 'HEAD').map((r) => [key(r.method, r.path), `${r.method} ${r.path}`]));
});
afterAll(() => t.close());

describe('docs/api.md against the router', () => {
  it('lists every operation of Zulip’s API document once', () => {
    const rows = tableRows('endpoints');
    const listed = [...rows.keys()].sort();
    expect(listed).toEqual(callable.map((e) => `${e.method} ${e.path}`).sort());
  });

  it('says "yes" exactly for the operations the router serves, and gives a reason for each "no"', () => {
    const wrong: string[] = [];
    for (const [endpoint, [here, why]] of tableRows('endpoints')) {
      const [method, path] = endpoint.split(' ');
      const has = served.has(key(method, path));
      if ((here === 'yes') !== has) wrong.push(`${endpoint}: the table says ${here}, the router ${has ? 'serves it' : 'does not'}`);
      if (here !== 'yes' && (why ?? '') === '') wrong.push(`${endpoint}: "no" without a reason`);
    }
    expect(wrong).toEqual([]);
  });

  it('lists every other route under /api/v1 among the routes beyond Zulip’s document', () => {
    const zulip = new Set(callable.map((e) => key(e.method, e.path)));
    const beyond = [...served.entries()].filter(([k, route]) => route.includes('/api/v1/') && !zulip.has(k)).map(([, route]) => route);
    expect([...tableRows('beyond').keys()].sort()).toEqual(beyond.sort());
  });

  it('states the counts the tables show', () => {
    const rows = [...tableRows('endpoints').values()];
    const here = rows.filter(([h]) => h === 'yes').length;
    expect(doc).toContain(`**${here} of the ${rows.length}**`);
  });
});
