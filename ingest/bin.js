#!/usr/bin/env node
// Runs the TypeScript CLI directly: tsx registers its loader, then the real entry is imported.
import { register } from 'tsx/esm/api';

register();
await import('./main.ts');
