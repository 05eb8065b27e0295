import react from '@vitejs/plugin-react';
import { createRequire } from 'node:module';
import path from 'node:path';
import { defineConfig } from 'vite';

const routerProduction = path.join(
  path.dirname(createRequire(import.meta.url).resolve('react-router/package.json')),
  'dist/production/index.mjs',
);

const api = `http://localhost:${process.env.VIGIL_API_PORT ?? '8080'}`;
/** API prefixes proxied by `npm run dev`; the console's own routes stay with Vite. */
const apiPrefixes = ['/admin', '/provider', '/account', '/system', '/docs', '/healthz', '/readyz', '/metrics'];

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
    proxy: Object.fromEntries(apiPrefixes.map((p) => [p, { target: api, changeOrigin: true }])),
  },
}));
