/**
 * The import rules of the repository, checked by `pnpm check:imports` (dependency-cruiser) in CI:
 * - no import cycle anywhere;
 * - no relative import from one package into another: a package uses another through its name and its exports;
 * - inside the server, imports run down the floors only: surfaces (the Open API, admin, console, watch page,
 *   health, metrics and the start-up code that assembles them) over the domain (merchants, people, keys, webinars,
 *   viewers, tickets, watch data), over infrastructure (db, cache, http, tracing, logging); and no surface
 *   imports another surface.
 */
const SERVER = "^packages/server/src/";
const SURFACES = "(admin|console|watch|open-api|health|metrics|seed)";
const DOMAIN = "(merchants|people|keys|webinars|viewers|tickets|watch-data)";
const INFRASTRUCTURE = "(db|cache|http|tracing|logging)";
/** The start-up code at the top of `src/`, which assembles the floors below it. */
const ASSEMBLY = "(index|main|server|app|assemble-services|services|storage|lifecycle|prune-expired|start-banner)";

/** @type {import("dependency-cruiser").IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: "no-cycle",
      comment: "A cycle makes the order of loading matter and hides which module owns what.",
      severity: "error",
      from: {},
      to: { circular: true },
    },
    {
      name: "no-relative-import-across-packages",
      comment: "Import the other package by its name, so the workspace's dependency graph shows it.",
      severity: "error",
      from: { path: "^(packages|tools)/([^/]+)/" },
      to: { dependencyTypes: ["local"], path: "^(packages|tools)/", pathNot: "^$1/$2/" },
    },
    {
      name: "server-infrastructure-below-domain-and-surfaces",
      severity: "error",
      from: { path: `${SERVER}${INFRASTRUCTURE}/` },
      to: { path: `${SERVER}(${SURFACES.slice(1, -1)}|${DOMAIN.slice(1, -1)})/` },
    },
    {
      name: "server-domain-below-surfaces",
      severity: "error",
      from: { path: `${SERVER}${DOMAIN}/` },
      to: { path: `${SERVER}${SURFACES}/` },
    },
    {
      name: "server-lower-floors-below-the-assembly",
      severity: "error",
      from: { path: `${SERVER}(${DOMAIN.slice(1, -1)}|${INFRASTRUCTURE.slice(1, -1)})/` },
      to: { path: `${SERVER}${ASSEMBLY}\\.ts$` },
    },
    {
      name: "server-surfaces-side-by-side",
      comment: "What two surfaces share belongs a floor down.",
      severity: "error",
      from: { path: `${SERVER}${SURFACES}/` },
      to: { path: `${SERVER}${SURFACES}/`, pathNot: `${SERVER}$1/` },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    exclude: { path: "(^|/)(dist|node_modules|coverage)/" },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.base.json" },
    enhancedResolveOptions: {
      exportsFields: ["exports"],
      conditionNames: ["import", "require", "node", "default", "types"],
      extensions: [".ts", ".tsx", ".js", ".mjs", ".cjs", ".d.ts"],
    },
  },
};
