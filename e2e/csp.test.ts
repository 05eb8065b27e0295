import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, menuPaths, openMenuEntry, openSession, settled, signIn } from './support/browser.ts';
import { hasChromium, warnWhenNoChromium } from './support/chromium.ts';
import {
  ADMIN_PASSWORD,
  ADMIN_USER,
  createProvider,
  startServer,
  stockDevices,
  type E2eServer,
} from './support/server.ts';

warnWhenNoChromium('csp');

/** Records every Content-Security-Policy violation of the page, from its first script on. */
const RECORD_VIOLATIONS = `
  window.__cspViolations = [];
  document.addEventListener('securitypolicyviolation', (event) => {
    window.__cspViolations.push(event.violatedDirective + ' ' + event.blockedURI + ' ' + (event.sourceFile || ''));
  });
`;

const violations = (page: Page) => page.evaluate('window.__cspViolations') as Promise<string[]>;

describe.skipIf(!hasChromium)('content security policy (browser)', () => {
  let server: E2eServer;
  let browser: Browser;
  beforeAll(async () => {
    [server, browser] = await Promise.all([startServer(), launchBrowser()]);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  const visitEveryScreen = async (login: { userName: string; password: string }) => {
    const { page, context, problems } = await openSession(browser, server);
    await context.addInitScript(RECORD_VIOLATIONS);
    await signIn(page, login);
    const paths = await menuPaths(page);
    expect(paths.length).toBeGreaterThan(3);
    for (const path of paths) {
      await openMenuEntry(page, path);
      await settled(page);
    }
    expect(await violations(page)).toEqual([]);
    expect(problems.filter((problem) => /Content Security Policy|Refused to/i.test(problem))).toEqual([]);
    return { page, context };
  };

  it('runs every screen of the administrator and of a care provider without a violation', async () => {
    // Devices of every group in the registry: the administrator's menu has every device screen.
    await stockDevices(server, [
      { deviceId: 'CSP-F1', deviceType: 21011 },
      { deviceId: 'CSP-D1', deviceType: 20995 },
      { deviceId: 'CSP-GW1', deviceType: 21008 },
    ]);
    const admin = await visitEveryScreen({ userName: ADMIN_USER, password: ADMIN_PASSWORD });
    await admin.context.close();
    const group = await createProvider(server, { name: 'Csp Group', userName: 'cspGroup', password: 'Care#Home2026' });
    await createProvider(server, {
      name: 'Csp House',
      userName: 'cspHouse',
      password: 'Care#Home2026',
      parentId: group.id,
    });
    const provider = await visitEveryScreen({ userName: 'cspHouse', password: 'Care#Home2026' });
    await provider.context.close();
  });

  it('gives injected inline script, event handlers and outside scripts nowhere to run', async () => {
    const { page, context } = await openSession(browser, server);
    await context.addInitScript(RECORD_VIOLATIONS);
    await page.goto('/login');
    await page.getByTestId('login-user').waitFor();
    const ran = await page.evaluate(`(async () => {
      window.__injected = [];
      const script = document.createElement('script');
      script.textContent = 'window.__injected.push("inline")';
      document.body.appendChild(script);
      const img = document.createElement('img');
      img.setAttribute('onerror', 'window.__injected.push("handler")');
      img.src = 'data:image/png;base64,AAAA';
      document.body.appendChild(img);
      const outside = document.createElement('script');
      outside.src = 'http://198.51.100.7/steal.js';
      document.body.appendChild(outside);
      await new Promise((resolve) => setTimeout(resolve, 300));
      return window.__injected;
    })()`);
    // (DevTools' evaluate itself is exempt from the policy, so eval is checked on the header, not here.)
    expect(ran).toEqual([]);
    const blocked = await violations(page);
    expect(blocked.filter((entry) => entry.startsWith('script-src-elem inline'))).toHaveLength(1);
    expect(blocked.filter((entry) => entry.startsWith('script-src-attr inline'))).toHaveLength(1);
    expect(blocked.filter((entry) => entry.startsWith('script-src-elem http://198.51.100.7/'))).toHaveLength(1);
    await context.close();
  });
});
