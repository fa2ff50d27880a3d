/**
 * `pnpm generate`: writes src/request-validators.gen.js and src/response-validators.gen.js, each with its .d.ts
 * (see render-validators.ts). The tests render them again and fail when the checked-in files differ (drift).
 */
import { writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { renderValidators } from "./render-validators";

const rendered = renderValidators();
const write = (relative: string, text: string) =>
  writeFileSync(fileURLToPath(new URL(relative, import.meta.url)), text);
write("../src/request-validators.gen.js", rendered.requests.module);
write("../src/request-validators.gen.d.ts", rendered.requests.declarations);
write("../src/response-validators.gen.js", rendered.responses.module);
write("../src/response-validators.gen.d.ts", rendered.responses.declarations);
console.log(`generated ${rendered.validatorCount} validators from spec ${rendered.specSha256.slice(0, 12)}`);
