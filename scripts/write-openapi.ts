import fs from 'node:fs';
import { OPENAPI_PATH, renderOpenApi } from './openapi.ts';

fs.writeFileSync(OPENAPI_PATH, renderOpenApi());
console.log(`wrote ${OPENAPI_PATH.pathname}`);
