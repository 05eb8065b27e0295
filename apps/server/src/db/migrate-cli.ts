import path from 'node:path';
import { loadConfig } from '../config.ts';
import { openDatabase } from './database.ts';

/** `npm run migrate`: apply pending migrations to DATABASE_URL or the embedded database. */
const config = loadConfig();
const database = await openDatabase({
  url: config.databaseUrl,
  dataDir: path.join(config.dataDir, 'pglite'),
});
await database.migrate();
await database.close();
console.log(`migrations applied (${database.kind})`);
