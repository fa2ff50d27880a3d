/**
 * `pnpm --filter @org/webinar-admin-contract generate`: writes the files generated from admin-openapi.yaml
 * (render-contract.ts). The server keeps a copy of the document, which its own generator writes. `pnpm
 * check:drift` regenerates everything and fails when a checked-in file differs.
 */
import { writeFileSync } from "node:fs";
import { renderContract } from "./render-contract";

const { sha256, files } = await renderContract();
for (const [file, text] of Object.entries(files)) writeFileSync(file, text);
console.log(`generated the modules of admin-openapi.yaml ${sha256.slice(0, 12)}`);
