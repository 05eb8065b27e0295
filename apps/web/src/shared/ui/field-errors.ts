import type { FormInstance } from 'antd';
import { ApiError } from '../api/client.ts';

type FieldPath = (string | number)[];

const pathKey = (path: readonly (string | number)[]): string => path.map(String).join('.').toLowerCase();

/**
 * The form field a server's field path (`name`, `contacts.0.phone`) names: the field with that
 * path, ignoring case (the wire's `passWord` is the form's `password`), or an alias the form gives.
 */
export const formFieldFor = (
  registered: readonly FieldPath[],
  field: string,
  aliases: Readonly<Record<string, FieldPath>> = {},
): FieldPath | undefined => {
  const alias = aliases[field];
  if (alias) return alias;
  const wanted = field.toLowerCase();
  return registered.find((name) => pathKey(name) === wanted);
};

/**
 * Puts a refusal that names a field on that field of the form (red, under it) and scrolls to it.
 * False when the failure names no field the form shows: the caller reports it elsewhere.
 */
export const showFieldError = (
  form: FormInstance,
  error: unknown,
  aliases?: Readonly<Record<string, FieldPath>>,
): boolean => {
  if (!(error instanceof ApiError) || !error.field) return false;
  const registered = form.getFieldsError().map((entry) => entry.name);
  const name = formFieldFor(registered, error.field, aliases);
  if (!name) return false;
  form.setFields([{ name, errors: [error.message] }]);
  form.scrollToField(name);
  return true;
};
