#!/usr/bin/env node
// Runs the TypeScript CLI directly: tsx registers its loader, then the real entry is imported.
import { register } from 'tsx/esm/api';

// React renders the pages: its production build is several times faster than the development one
// (no per-element dev checks), and the HTML it writes is the same.
process.env.NODE_ENV ??= 'production';
register();
await import('./main.ts');
