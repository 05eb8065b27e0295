import { CONSTANTS } from '@vigil/contract/browser';
import { dirtyForms } from './ui/dirty-forms.ts';

/** Script sources of an HTML page: a new build changes their hashed names. */
export const scriptSources = (html: string): string[] =>
  [...html.matchAll(/<script[^>]*\ssrc="([^"]+)"/g)].map((m) => m[1] ?? '').sort();

/**
 * Polls the root page every 10 minutes and reloads when its scripts changed (a new build was
 * deployed) — but never over unsaved changes: while a form is dirty it waits until none is.
 */
export const startBuildChecker = (
  onNewBuild: () => void = () => window.location.reload(),
  fetchRoot: () => Promise<string> = () => fetch('/', { cache: 'no-store' }).then((r) => r.text()),
  intervalMs: number = CONSTANTS.buildCheckMs,
  forms: Pick<typeof dirtyForms, 'any' | 'subscribe'> = dirtyForms,
): (() => void) => {
  const current = scriptSources(document.documentElement.outerHTML).join('|');
  let stopWaiting: (() => void) | undefined;
  const reloadWhenClean = () => {
    if (!forms.any()) {
      onNewBuild();
      return;
    }
    stopWaiting = forms.subscribe(() => {
      if (forms.any()) return;
      stopWaiting?.();
      stopWaiting = undefined;
      onNewBuild();
    });
  };
  const id = window.setInterval(() => {
    fetchRoot()
      .then((html) => {
        const latest = scriptSources(html).join('|');
        if (!latest || !current || latest === current || stopWaiting) return;
        window.clearInterval(id);
        reloadWhenClean();
      })
      .catch(() => undefined);
  }, intervalMs);
  return () => {
    window.clearInterval(id);
    stopWaiting?.();
  };
};
