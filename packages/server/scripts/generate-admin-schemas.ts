/**
 * Writes src/admin/admin-schemas.gen.ts from admin-openapi.yaml (`pnpm --filter @org/webinar-server generate`).
 * test/admin-document.test.ts fails when the checked-in module is stale.
 */
import { writeFileSync } from "node:fs";
import { GENERATED_MODULE, renderFromDisk } from "./admin-schemas";

writeFileSync(GENERATED_MODULE, renderFromDisk());
console.log(`wrote ${GENERATED_MODULE}`);
