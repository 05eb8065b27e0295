/**
 * Forms holding changes the user has not saved. Each open form registers a check; leaving the page
 * (reload, closing the tab, in-app navigation, Cancel) asks first while any check says dirty, and the
 * build checker waits for none before it reloads.
 */
export type DirtyCheck = () => boolean;

const checks = new Set<DirtyCheck>();
const listeners = new Set<() => void>();

export const dirtyForms = {
  /** Registers an open form; the returned function unregisters it (when the form closes). */
  register(check: DirtyCheck): () => void {
    checks.add(check);
    return () => {
      checks.delete(check);
      dirtyForms.changed();
    };
  },
  /** True while any open form holds unsaved changes. */
  any(): boolean {
    for (const check of checks) if (check()) return true;
    return false;
  },
  /** A form's dirtiness may have changed: wakes whoever waits for clean forms. */
  changed(): void {
    for (const listener of [...listeners]) listener();
  },
  /** Calls `listener` after each change until the returned function is called. */
  subscribe(listener: () => void): () => void {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
};

/** Reload and tab close: the browser's own "leave site?" question while a form is dirty. */
export const installUnloadGuard = (target: Window = window): (() => void) => {
  const onBeforeUnload = (event: BeforeUnloadEvent) => {
    if (!dirtyForms.any()) return;
    event.preventDefault();
    // Older browsers show the question only when returnValue is set.
    event.returnValue = '';
  };
  target.addEventListener('beforeunload', onBeforeUnload);
  return () => target.removeEventListener('beforeunload', onBeforeUnload);
};
