/** The server's phone rule (decision 0009): the form refuses what the server would. */
export { normalisePhone } from '@vigil/contract/browser';
