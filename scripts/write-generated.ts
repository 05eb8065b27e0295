import fs from 'node:fs';
import { ENDPOINTS_PATH, renderEndpoints } from './endpoints.ts';
import { OPENAPI_PATH, renderOpenApi } from './openapi.ts';
import { PROTOCOL_DOC_PATH, renderProtocolDoc } from './device-protocol-doc.ts';
import { renderSocketDoc, SOCKET_DOC_PATH } from './socket-doc.ts';

fs.writeFileSync(OPENAPI_PATH, renderOpenApi());
fs.writeFileSync(ENDPOINTS_PATH, await renderEndpoints());
fs.writeFileSync(PROTOCOL_DOC_PATH, await renderProtocolDoc(fs.readFileSync(PROTOCOL_DOC_PATH, 'utf8')));
fs.writeFileSync(SOCKET_DOC_PATH, await renderSocketDoc(fs.readFileSync(SOCKET_DOC_PATH, 'utf8')));
console.log(
  `wrote ${OPENAPI_PATH.pathname}, ${ENDPOINTS_PATH.pathname}, ${PROTOCOL_DOC_PATH.pathname} and ${SOCKET_DOC_PATH.pathname}`,
);
