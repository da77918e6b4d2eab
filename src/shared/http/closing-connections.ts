import type { IncomingMessage, Server, ServerResponse } from 'node:http';

/**
 * Keep-alive connections at shutdown. `server.close()` ends the connections that are idle at
 * that moment, but one whose request is still running (a long-poll being answered) would stay
 * open after its answer until the keep-alive timeout, holding the close for seconds. Once
 * `closing()` is called, every answer not yet started carries `Connection: close`, so Node ends
 * its connection after it; an answer already under way ends idle connections when it is done.
 */
export function closeConnectionsAfterAnswers(server: Server): { closing(): void } {
  const running = new Set<ServerResponse>();
  let closing = false;
  const closeAfter = (res: ServerResponse) => {
    if (!res.headersSent) res.setHeader('Connection', 'close');
    else res.once('finish', () => server.closeIdleConnections());
  };
  server.on('request', (_req: IncomingMessage, res: ServerResponse) => {
    if (closing) return closeAfter(res);
    running.add(res);
    res.once('close', () => running.delete(res));
  });
  return {
    closing() {
      closing = true;
      for (const res of running) closeAfter(res);
      running.clear();
    },
  };
}
