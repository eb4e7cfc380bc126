// The bin's code and the package entry as bundles (esbuild): dist/bin/cli.js and
// dist/bin/index.js (what `import 'monitoring-api-kit'` loads), their shared code in chunks,
// plus chunks for what loads only when used (the contract runner, the SNMP and MQTT
// ingesters). Node then reads and compiles a few files instead of several hundred, which is
// most of what loading the CLI or the package cost.
// Run by `npm run build` after tsc, from tsc's output in dist/. The bundle sits two folders
// below the package root like every module of dist/, so paths built from import.meta.url
// (src/spec/paths.ts) still find openapi/ and fixtures/.
import { rmSync } from 'node:fs';
import { build } from 'esbuild';

/**
 * Left to node_modules: packages loaded only for some uses (the docs pages, another document's
 * validation, the SNMP and MQTT ingesters), and @fastify/swagger-ui, which serves files of its own folder.
 */
const EXTERNAL = new Set(['@fastify/swagger', '@fastify/swagger-ui', '@apidevtools/swagger-parser', 'net-snmp', 'aedes']);
const packageOf = (specifier) => specifier.split('/').slice(0, specifier.startsWith('@') ? 2 : 1).join('/');

const root = new URL('..', import.meta.url);
const outdir = new URL('dist/bin/', root).pathname;
rmSync(outdir, { recursive: true, force: true });
await build({
  absWorkingDir: root.pathname,
  entryPoints: { cli: 'dist/cli/main.js', index: 'dist/index.js' },
  outdir,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  // CommonJS packages in an ES module bundle call require() for Node's own modules.
  banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
  plugins: [
    {
      name: 'external-packages',
      setup(b) {
        b.onResolve({ filter: /^[^./]/ }, (args) => (EXTERNAL.has(packageOf(args.path)) ? { path: args.path, external: true } : undefined));
      },
    },
  ],
  legalComments: 'none',
  logLevel: 'warning',
});
