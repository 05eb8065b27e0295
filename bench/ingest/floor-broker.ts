/**
 * The floor of bench/ingest.ts: a bare aedes broker (no authentication, no hooks, default
 * in-memory persistence) in its own process, listening on 127.0.0.1 on a free port. It tells its
 * parent the port over IPC and runs until killed. Whatever Vigil's embedded broker does on top of
 * aedes (authentication, topic rules, ingest) is measured against this.
 */
import { createServer } from 'node:net';
import { Aedes } from 'aedes';

const aedes = await Aedes.createBroker();
const server = createServer(aedes.handle);
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  process.send?.({ type: 'listening', port });
});
process.on('disconnect', () => process.exit(0));
process.on('SIGTERM', () => process.exit(0));
