// Preloaded by `npm run bench` into the server and the floor (node --import): counts the SQL
// statements each process sends through pg (BEGIN/COMMIT included; the server's background
// journal reads, prefixed "/* background */", left out) and answers the running count on
// http://127.0.0.1:$SQL_COUNT_PORT/. Changes nothing else.
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';

const require = createRequire(pathToFileURL(`${process.cwd()}/`));
const pg = require('pg');
let count = 0;
const query = pg.Client.prototype.query;
pg.Client.prototype.query = function counted(config, ...rest) {
  const text = typeof config === 'string' ? config : config?.text;
  if (typeof text === 'string' && !text.startsWith('/* background */')) count += 1;
  return query.call(this, config, ...rest);
};
createServer((_req, res) => res.end(String(count)))
  .listen(Number(process.env.SQL_COUNT_PORT), '127.0.0.1')
  .unref();
