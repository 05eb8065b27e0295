// Entry of the embedded database's worker thread: the server's sources are TypeScript run
// through tsx (decision 0002), and a worker starts without the loader of the thread that made it.
import { register } from 'tsx/esm/api';

register();
await import('./pglite-worker.ts');
