/**
 * npm run report: builds the Allure HTML report offline from reports/allure-results into
 * reports/allure-report. The allure2 plugin is used because it honours ALLURE_NO_ANALYTICS (the default
 * Allure 3 plugins embed an analytics tag); the result is then checked to load nothing from the network.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const RESULTS = process.argv[2] ?? 'reports/allure-results';
const OUTPUT = process.argv[3] ?? 'reports/allure-report';

if (!existsSync(RESULTS) || readdirSync(RESULTS).length === 0) {
  console.error(`No Allure results in ${RESULTS}: run \`npm run conformance\` first.`);
  process.exit(2);
}
const r = spawnSync('node_modules/.bin/allure', ['generate', RESULTS, '-c', 'allurerc.json', '-o', OUTPUT], {
  stdio: 'inherit',
  env: { ...process.env, ALLURE_NO_ANALYTICS: 'true' },
});
if (r.status !== 0) process.exit(r.status ?? 1);

// Defence in depth: no third-party script may stay in an offline report.
const TRACKER = /<script[^>]*googletagmanager[^>]*><\/script>\s*(<script>[\s\S]*?gtag[\s\S]*?<\/script>)?/g;
let stripped = 0;
const walk = (dir: string) => {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) walk(path);
    else if (name.endsWith('.html')) {
      const html = readFileSync(path, 'utf8');
      const clean = html.replace(TRACKER, () => {
        stripped += 1;
        return '';
      });
      if (clean !== html) writeFileSync(path, clean);
      if (/googletagmanager|gtag\(/.test(clean)) {
        console.error(`${path} still references an analytics script`);
        process.exit(1);
      }
    }
  }
};
walk(OUTPUT);
console.log(
  `Allure report: ${OUTPUT}/index.html (offline${stripped ? `, ${stripped} analytics tag(s) removed` : ', no analytics'})`,
);
