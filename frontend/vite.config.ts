import { fileURLToPath, URL } from "node:url";
import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";

// The translation catalogs live with the Python package so that the server and the
// client share one source; the alias lets the client bundle them.
const locales = fileURLToPath(new URL("../src/gametable/locales", import.meta.url));

export default defineConfig({
  plugins: [react()],
  resolve: { alias: { "@locales": locales } },
  server: {
    fs: { allow: [".", locales] },
    proxy: { "/api": { target: "http://127.0.0.1:8000", ws: true } },
  },
  // The first page's script: React, i18next, the English catalogue and the app, about
  // 450 kB (140 kB compressed); each game's table and each other language come later.
  build: { outDir: "dist", emptyOutDir: true, sourcemap: false, chunkSizeWarningLimit: 480 },
});
