import { Status, type MessageKey, type MessageParams, type StatusCode } from '@vigil/contract';

/** A failure the caller should read: becomes an envelope with a localised message. */
export class AppError extends Error {
  constructor(
    readonly status: StatusCode,
    readonly key: MessageKey,
    readonly params: MessageParams = {},
    /** HTTP status of the answer; 200 except for missing sessions (401) and unknown paths (404). */
    readonly httpStatus = 200,
    /** Details a client acts on, e.g. every bad row of a refused import. */
    readonly data: unknown = null,
  ) {
    super(key);
    this.name = 'AppError';
  }

  /** The request field the failure is about, when the message key alone does not say (see MESSAGE_FIELDS). */
  field: string | undefined;

  /** Names the request field this failure is about, so the console shows it on that field. */
  on(field: string): this {
    this.field = field;
    return this;
  }
}

export const fail = (key: MessageKey, params?: MessageParams): AppError => new AppError(Status.FAILED, key, params);
export const invalid = (key: MessageKey, params?: MessageParams): AppError =>
  new AppError(Status.INVALID_INPUT, key, params);
export const notFound = (): AppError => fail('not_found');
export const forbidden = (): AppError => fail('no_permission');

/** "100 KB", "10 MB": a size limit as a user reads it. */
export const sizeText = (bytes: number): string =>
  bytes >= 1024 * 1024 ? `${Math.round((bytes / 1024 / 1024) * 10) / 10} MB` : `${Math.round(bytes / 1024)} KB`;

/** A file larger than the call takes, naming the limit. */
export const fileTooLarge = (limitBytes: number): AppError => invalid('upload.tooLarge', { max: sizeText(limitBytes) });
