import { readdir, readFile, readlink } from 'node:fs/promises';
import { Agent, request } from 'node:http';

/**
 * Which process serves a connection, seen from outside as the kernel sees it: the socket of the
 * connection (in /proc/net/tcp, by its two ports) and the process holding that socket among its
 * open files (/proc/<pid>/fd). Nothing in the server is told it is being watched.
 */

/** Fields of /proc/<pid>/stat after the command name: state, ppid (null when gone). */
async function procStat(pid: number): Promise<{ state: string; ppid: number } | null> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => null);
  if (stat === null) return null;
  const [state, ppid] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return { state, ppid: Number(ppid) };
}

export async function isRunning(pid: number): Promise<boolean> {
  const s = await procStat(pid);
  return s !== null && s.state !== 'Z';
}

/** The live Node.js children of `pid`: the worker processes of a primary (not its PostgreSQL or watchdog). */
export async function workerPids(pid: number): Promise<number[]> {
  const pids = (await readdir('/proc')).filter((d) => /^\d+$/.test(d)).map(Number);
  const found: number[] = [];
  for (const p of pids) {
    const s = await procStat(p);
    if (s?.ppid !== pid || s.state === 'Z') continue;
    const comm = (await readFile(`/proc/${p}/comm`, 'utf8').catch(() => '')).trim();
    if (comm === 'node') found.push(p);
  }
  return found.sort((a, b) => a - b);
}

const hexPort = (port: number) => port.toString(16).toUpperCase().padStart(4, '0');

/** The inode of the server side of the loopback connection from `clientPort` to `serverPort`. */
async function serverSocketInode(serverPort: number, clientPort: number): Promise<string | null> {
  const table = await readFile('/proc/net/tcp', 'utf8');
  for (const line of table.split('\n').slice(1)) {
    const f = line.trim().split(/\s+/);
    if (f.length < 10) continue;
    if (f[1] === `0100007F:${hexPort(serverPort)}` && f[2] === `0100007F:${hexPort(clientPort)}`) return f[9];
  }
  return null;
}

/** Which of `candidates` holds the server side of the connection from `clientPort` (null: none). */
export async function processHoldingConnection(serverPort: number, clientPort: number, candidates: number[]): Promise<number | null> {
  const inode = await serverSocketInode(serverPort, clientPort);
  if (inode === null) return null;
  for (const pid of candidates) {
    const fds = await readdir(`/proc/${pid}/fd`).catch(() => [] as string[]);
    for (const fd of fds) {
      if ((await readlink(`/proc/${pid}/fd/${fd}`).catch(() => '')) === `socket:[${inode}]`) return pid;
    }
  }
  return null;
}

/**
 * One request on a new keep-alive connection; while the connection is still open, which of
 * `candidates` serves it. Resolves with the status and that process.
 */
export async function requestOnNewConnection(port: number, path: string, candidates: number[]): Promise<{ status: number; servedBy: number | null }> {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  try {
    const { status, clientPort } = await new Promise<{ status: number; clientPort: number }>((resolve, reject) => {
      const req = request({ host: '127.0.0.1', port, path, agent }, (res) => {
        const clientPort = res.socket.localPort!;
        res.resume();
        res.on('end', () => resolve({ status: res.statusCode!, clientPort }));
      });
      req.on('error', reject);
      req.end();
    });
    return { status, servedBy: await processHoldingConnection(port, clientPort, candidates) };
  } finally {
    agent.destroy();
  }
}
