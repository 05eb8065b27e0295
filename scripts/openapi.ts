import { buildOpenApi } from '@vigil/contract';
import { VERSION } from '../apps/server/src/version.ts';

export const OPENAPI_PATH = new URL('../docs/openapi.json', import.meta.url);

/** The committed OpenAPI document's exact text. */
export const renderOpenApi = (): string => `${JSON.stringify(buildOpenApi(VERSION), null, 2)}\n`;
