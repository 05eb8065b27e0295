import {
  ApiError,
  newIdempotencyKey,
  Status,
  type Endpoint,
  type EndpointResult,
  type Envelope,
} from '@vigil/contract/browser';
import { StorageKey, storage } from '../storage.ts';
import { checkSessionEnd } from './client.ts';

/**
 * Uploads a multipart call's form with upload progress (fetch cannot report it, XHR can).
 * Resolves with `data`; a refusal rejects with ApiError carrying the envelope's data, so an
 * import's per-row problems reach the screen.
 */
export const upload = <E extends Endpoint>(
  call: E,
  form: FormData,
  onProgress?: (fraction: number) => void,
): Promise<EndpointResult<E>> =>
  new Promise<EndpointResult<E>>((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open(call.method, call.path);
    const token = storage.get(StorageKey.token);
    if (token) xhr.setRequestHeader('X-Token', token);
    xhr.setRequestHeader('Accept-Language', storage.get(StorageKey.language) ?? 'zh-CN');
    // An import creates records: a repeated request replays the first answer instead of importing twice.
    if (call.creates) xhr.setRequestHeader('Idempotency-Key', newIdempotencyKey());
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable && event.total > 0) onProgress?.(event.loaded / event.total);
    };
    const failWith = (error: ApiError) => {
      checkSessionEnd(call, error);
      reject(error);
    };
    xhr.onerror = () => reject(new Error('network'));
    xhr.onload = () => {
      if (xhr.status === 401) {
        failWith(new ApiError(Status.SESSION_INVALID, 'unauthorized', 'session.required', 401));
        return;
      }
      let env: Envelope<unknown>;
      try {
        env = JSON.parse(xhr.responseText) as Envelope<unknown>;
      } catch {
        reject(new Error(`unreadable answer (HTTP ${xhr.status})`));
        return;
      }
      if (env.status === Status.OK) resolve(env.data as EndpointResult<E>);
      else failWith(new ApiError(env.status, env.msg, env.msgKey, 200, env.data));
    };
    xhr.send(form);
  });
