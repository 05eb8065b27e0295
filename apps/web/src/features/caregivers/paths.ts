import { CONSOLE_ROUTES } from '@vigil/contract/browser';

const pathOf = (name: string): string => {
  const route = CONSOLE_ROUTES.find((r) => r.name === name);
  if (!route) throw new Error(`no console route ${name}`);
  return route.path;
};

/** The caregiver list and its create/edit page (hidden route; `?id=N` edits). */
export const LIST_PATH = pathOf('nurseManage');
export const EDIT_PATH = pathOf('addAndEditNurse');
