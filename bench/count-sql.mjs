// Preloaded by `npm run bench` into the server and the floor (node --import): counts the SQL
// statements each process sends through pg (BEGIN/COMMIT included; the server's background
// journal reads, prefixed "/* background */", counted apart) and answers the running count on
// http://127.0.0.1:$SQL_COUNT_PORT/ (a cluster worker of WORKERS=N on $SQL_COUNT_PORT + its
// worker id, 1…N, a port of its own). Changes nothing else.
import cluster from 'node:cluster';
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';

const require = createRequire(pathToFileURL(`${process.cwd()}/`));
const pg = require('pg');
let count = 0;
let background = 0;
const query = pg.Client.prototype.query;
pg.Client.prototype.query = function counted(config, ...rest) {
  const text = typeof config === 'string' ? config : config?.text;
  if (typeof text === 'string') {
    if (text.startsWith('/* background */')) background += 1;
    else count += 1;
  }
  return query.call(this, config, ...rest);
};
// GET /background: the background statements instead (journal reads, notifications).
createServer((req, res) => res.end(String(req.url === '/background' ? background : count)))
  .listen({ port: Number(process.env.SQL_COUNT_PORT) + (cluster.isWorker ? cluster.worker.id : 0), host: '127.0.0.1', exclusive: true })
  .unref();
