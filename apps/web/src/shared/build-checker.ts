import { CONSTANTS } from '@vigil/contract/browser';

/** Script sources of an HTML page: a new build changes their hashed names. */
export const scriptSources = (html: string): string[] =>
  [...html.matchAll(/<script[^>]*\ssrc="([^"]+)"/g)].map((m) => m[1] ?? '').sort();

/** Polls the root page every 10 minutes and reloads when its scripts changed (a new build was deployed). */
export const startBuildChecker = (
  onNewBuild: () => void = () => window.location.reload(),
  fetchRoot: () => Promise<string> = () => fetch('/', { cache: 'no-store' }).then((r) => r.text()),
  intervalMs: number = CONSTANTS.buildCheckMs,
): (() => void) => {
  const current = scriptSources(document.documentElement.outerHTML).join('|');
  const id = window.setInterval(() => {
    fetchRoot()
      .then((html) => {
        const latest = scriptSources(html).join('|');
        if (latest && current && latest !== current) onNewBuild();
      })
      .catch(() => undefined);
  }, intervalMs);
  return () => window.clearInterval(id);
};
