// Type-checks every grafana/dashboards/*.json against the Dashboard type of @grafana/schema with tsc: each JSON
// becomes build/typecheck/<name>.ts assigning the object literal to `JsonOf<Dashboard>`, so a misspelt or unknown property, a
// wrong type or a missing required field fails the compile. Run: npm ci && npm run typecheck (DeploymentChecksIT
// does, inside the README's test command).
import { readdirSync, readFileSync, writeFileSync, mkdirSync, rmSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execFileSync } from 'node:child_process';

const here = dirname(fileURLToPath(import.meta.url));
const out = join(here, 'build', 'typecheck');
rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });

const dashboards = readdirSync(join(here, 'dashboards')).filter((f) => f.endsWith('.json')).sort();
if (dashboards.length === 0) {
  console.error('no dashboards in ' + join(here, 'dashboards'));
  process.exit(1);
}
for (const file of dashboards) {
  const json = JSON.parse(readFileSync(join(here, 'dashboards', file), 'utf8'));
  writeFileSync(join(out, file.replace(/\.json$/, '.ts')),
    `// generated from dashboards/${file} by typecheck.mjs\n` +
    `import type { Dashboard } from '@grafana/schema';\n` +
    `import type { JsonOf } from './json-of';\n\n` +
    `export const dashboard: JsonOf<Dashboard> = ${JSON.stringify(json, null, 2)};\n`);
}
// A dashboard is JSON, so a string enum of the schema (ThresholdsMode.Absolute) appears as its value ("absolute"):
// JsonOf<T> is T with every string enum replaced by the union of its values; everything else is checked as declared.
writeFileSync(join(out, 'json-of.ts'),
  'export type JsonOf<T> = T extends string ? `${T}`\n' +
  '  : T extends readonly (infer U)[] ? JsonOf<U>[]\n' +
  '  : T extends object ? { [K in keyof T]: JsonOf<T[K]> }\n' +
  '  : T;\n');
writeFileSync(join(out, 'tsconfig.json'), JSON.stringify({
  compilerOptions: {
    strict: true, noEmit: true, skipLibCheck: true, target: 'es2022',
    module: 'nodenext', moduleResolution: 'nodenext', types: [],
  },
  include: ['*.ts'],
}, null, 2));
const tsc = join(here, 'node_modules', 'typescript', 'bin', 'tsc');
try {
  execFileSync(process.execPath, [tsc, '-p', join(out, 'tsconfig.json'), '--pretty', 'false'], { stdio: 'inherit' });
} catch (e) {
  console.error(`tsc found errors in the dashboards above (generated files in ${out})`);
  process.exit(1);
}
console.log(`${dashboards.length} dashboards type-check against @grafana/schema: ${dashboards.join(', ')}`);
