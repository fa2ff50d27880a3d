/**
 * `pnpm generate`: writes src/validators.gen.js and src/validators.gen.d.ts (see render-validators.ts). The tests
 * render them again and fail when the checked-in files differ (drift).
 */
import { writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { renderValidators } from "./render-validators";

const rendered = renderValidators();
const write = (relative: string, text: string) => writeFileSync(fileURLToPath(new URL(relative, import.meta.url)), text);
write("../src/validators.gen.js", rendered.module);
write("../src/validators.gen.d.ts", rendered.declarations);
console.log(`generated ${rendered.validatorCount} validators from spec ${rendered.specSha256.slice(0, 12)}`);
