import react from '@vitejs/plugin-react';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { defineConfig } from 'vite';

const routerProduction = path.join(
  path.dirname(createRequire(import.meta.url).resolve('react-router/package.json')),
  'dist/production/index.mjs',
);

const api = `http://localhost:${process.env.VIGIL_API_PORT ?? '8080'}`;
/**
 * What `npm run dev` proxies: every call path of the contract (exact paths, since some share a
 * first segment with console routes, e.g. /deviceManage/restartDevice) and the server's own pages.
 */
const endpoints = readFileSync(new URL('../../packages/contract/src/endpoints.generated.ts', import.meta.url), 'utf8');
const callPaths = [...endpoints.matchAll(/path: '([^']+)'/g)].map((m) => m[1] ?? '');
const escape = (p: string) => p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const apiPattern = `^(${callPaths.map(escape).join('|')})(\\?.*)?$|^/(docs|healthz|readyz|metrics)(/.*)?$`;

export default defineConfig(({ command }) => ({
  plugins: [react()],
  // react-router's package exports point at its development build; production builds take the lean one.
  resolve: command === 'build' ? { alias: [{ find: /^react-router$/, replacement: routerProduction }] } : {},
  define: {
    __APP_VERSION__: JSON.stringify(process.env.npm_package_version ?? '0.1.0'),
    __APP_BUILD__: JSON.stringify(new Date().toISOString().slice(0, 16)),
  },
  base: '/',
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    chunkSizeWarningLimit: 2000,
    sourcemap: false,
    target: 'es2022',
    manifest: true,
  },
  server: {
    port: 5173,
    proxy: { [apiPattern]: { target: api, changeOrigin: true } },
  },
}));
