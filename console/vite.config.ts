// The console is served by the gateway under /console, from this build's dist/.
// No inline script and no module preload polyfill: the gateway's CSP allows
// scripts from its own origin only. The typed client and the role rules are
// bundled from their TypeScript sources (ES modules, no Node import), not
// from the CommonJS the packages build for Node.
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const source = (path: string) => fileURLToPath(new URL(path, import.meta.url));

export default defineConfig({
  base: '/console/',
  plugins: [react()],
  resolve: {
    alias: {
      '@skills/client': source('../client/src/index.ts'),
      '@skills/common/workspace-roles': source('../common/src/workspace-roles.ts'),
    },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    modulePreload: { polyfill: false },
    assetsInlineLimit: 0,
    sourcemap: false,
  },
});
