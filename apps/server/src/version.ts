/** Server and API version, shown in /docs and the OpenAPI document. */
export const VERSION = '0.1.0';
