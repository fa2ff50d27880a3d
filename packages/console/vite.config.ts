import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";

// The reference server serves the built app under /console/ (index.html for every page path, the files under
// /console/assets/). No source maps in the output: the server copies dist/ into its package.
export default defineConfig({
  base: "/console/",
  plugins: [react()],
  build: {
    outDir: "dist",
    emptyOutDir: true,
    target: "es2022",
    // Vite's check is per chunk and uncompressed; scripts/check-size.ts measures what the first page loads.
    chunkSizeWarningLimit: 1200,
  },
});
