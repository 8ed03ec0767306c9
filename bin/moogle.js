#!/usr/bin/env node
// The CLI is compiled to dist/ by `npm install` (the prepare script runs the build).
import { exitQuietlyOnClosedPipe } from '../dist/cli/io.js';
import { main } from '../dist/cli/main.js';

exitQuietlyOnClosedPipe();
process.exitCode = await main(process.argv);
