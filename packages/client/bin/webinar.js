#!/usr/bin/env node
// The `webinar` bin. It is a checked-in file rather than dist/cli.js itself because pnpm links a workspace bin only
// if its file exists at install time, which in a fresh clone comes before the first build; this runs the build.
import "../dist/cli.js";
