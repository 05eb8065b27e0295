import { pickLanguage, type Language } from '@vigil/contract';
import type { CallContext } from '../../http/call-context.ts';

/** A template's language: the one asked for (the spec's language parameter), else the request's. */
export const templateLanguage = (input: { language?: string | undefined }, ctx: CallContext): Language =>
  input.language ? pickLanguage(input.language) : ctx.lang;
