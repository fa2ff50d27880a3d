#!/usr/bin/env node
// The `webinar-conformance` bin. It is a checked-in file rather than dist/cli.js itself because pnpm links a
// workspace bin only if its file exists at install time, which in a fresh clone comes before the first build.
import "../dist/cli.js";
