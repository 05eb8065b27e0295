import fs from 'node:fs';
import { ENDPOINTS_PATH, renderEndpoints } from './endpoints.ts';
import { OPENAPI_PATH, renderOpenApi } from './openapi.ts';

fs.writeFileSync(OPENAPI_PATH, renderOpenApi());
fs.writeFileSync(ENDPOINTS_PATH, await renderEndpoints());
console.log(`wrote ${OPENAPI_PATH.pathname} and ${ENDPOINTS_PATH.pathname}`);
