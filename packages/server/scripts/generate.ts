/**
 * `pnpm --filter @org/webinar-server generate`: writes src/admin/admin-validators.gen.js and its .d.ts from
 * admin-openapi.yaml (see render-admin-validators.ts). test/admin-document.test.ts renders them again and fails
 * when the checked-in files are stale.
 */
import { writeFileSync } from "node:fs";
import { GENERATED_FILES, renderAdminValidators } from "./render-admin-validators";

const rendered = renderAdminValidators();
writeFileSync(GENERATED_FILES.module, rendered.module);
writeFileSync(GENERATED_FILES.declarations, rendered.declarations);
console.log(`generated the admin body validators from admin-openapi.yaml ${rendered.sha256.slice(0, 12)}`);
