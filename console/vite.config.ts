// The console is served by the gateway under /console, from this build's dist/.
// No inline script and no module preload polyfill: the gateway's CSP allows
// scripts from its own origin only.
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

export default defineConfig({
  base: '/console/',
  plugins: [react()],
  build: { outDir: 'dist', emptyOutDir: true, modulePreload: { polyfill: false }, assetsInlineLimit: 0, sourcemap: false },
});
