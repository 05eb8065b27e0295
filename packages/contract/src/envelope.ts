import { z } from 'zod';
import type { MessageKey } from './messages/index.ts';
import type { StatusCode } from './status.ts';

/** Every API answer: HTTP 200 with this body; `status` 200 is success. */
export interface Envelope<T> {
  status: StatusCode;
  msg: string;
  data: T | null;
  /** Message key of a failure, so clients and tests need not parse `msg`. */
  msgKey?: MessageKey;
  /**
   * The request field a failure is about (a path such as `contacts.0.phone`), so a form can show
   * the message on that field; absent when the failure is not about one field.
   */
  field?: string;
}

export const envelopeSchema = <T extends z.ZodType>(data: T) =>
  z.object({
    status: z.number().int(),
    msg: z.string(),
    data: data.nullable(),
    msgKey: z.string().optional(),
    field: z.string().optional(),
  });
