// Builds the host page (index.html, main.tsx) into browser-host/dist with the plugin tooling's
// Vite and the plugins Headlamp's own build uses for its modules (React, SVG as components, the
// Node polyfills that its lib expects), as a page rather than a plugin library.
import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import { nodePolyfills } from 'vite-plugin-node-polyfills';
import svgr from 'vite-plugin-svgr';

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  logLevel: 'warn',
  define: { global: 'globalThis' },
  plugins: [
    nodePolyfills({ include: ['process', 'buffer', 'stream'] }),
    svgr({ include: '**/*.svg' }),
    react(),
  ],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: false,
    reportCompressedSize: false,
    chunkSizeWarningLimit: 100000,
  },
});
