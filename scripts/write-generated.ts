import fs from 'node:fs';
import { ENDPOINTS_PATH, renderEndpoints } from './endpoints.ts';
import { OPENAPI_PATH, renderOpenApi } from './openapi.ts';
import { PROTOCOL_DOC_PATH, renderProtocolDoc } from './device-protocol-doc.ts';

fs.writeFileSync(OPENAPI_PATH, renderOpenApi());
fs.writeFileSync(ENDPOINTS_PATH, await renderEndpoints());
fs.writeFileSync(PROTOCOL_DOC_PATH, await renderProtocolDoc(fs.readFileSync(PROTOCOL_DOC_PATH, 'utf8')));
console.log(`wrote ${OPENAPI_PATH.pathname}, ${ENDPOINTS_PATH.pathname} and ${PROTOCOL_DOC_PATH.pathname}`);
