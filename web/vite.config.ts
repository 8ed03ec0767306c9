import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

// The tracker's pages: built into dist-web/ (shipped in the package, served by src/server/web.ts).
export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: '/',
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  build: {
    outDir: fileURLToPath(new URL('../dist-web', import.meta.url)),
    emptyOutDir: true,
    target: 'es2022',
    assetsDir: 'assets',
    reportCompressedSize: true,
  },
});
