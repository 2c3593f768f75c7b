import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { get as httpsGet } from 'node:https';
import { join } from 'node:path';
import { deployDirOf } from '../../../cli/host/deploy-files.ts';
import { NGINX_CONFIG_FILE, NGINX_DEFAULTS } from '../../../cli/host/nginx.ts';
import { freePort } from '../../helpers/ports.ts';

/** Debian's nginx binary (installed by `.ci/run` and tests/e2e/support/ensure-nginx.sh). */
const NGINX_BINARY = process.env.NGINX_PATH ?? '/usr/sbin/nginx';

/** Debian's ngx_brotli static module (libnginx-mod-http-brotli-static), which serves the build's .br files. */
const BROTLI_STATIC_MODULE = '/usr/lib/nginx/modules/ngx_http_brotli_static_module.so';

/** The generated config's Brotli switch, commented out (docs/operators.md: uncomment it where the module is loaded). */
const BROTLI_SWITCH = '# brotli_static on;';

/**
 * The built site's server block (in the deployment folder beside it, `deployDirOf`) as an operator deploys it: the lines marked "set for your
 * host" given this machine's values. Fails when a marked line is missing, so the test notices
 * a config the documented procedure can no longer adjust.
 */
function deployedServerBlock(siteDir: string, ports: { https: number; http: number }, ingestPort: number, workDir: string, brotli: boolean): string {
  const generated = readFileSync(join(deployDirOf(siteDir), NGINX_CONFIG_FILE), 'utf8');
  const { certificate, key } = selfSignedCertificate(workDir);
  const replacements: [string, string][] = [
    [`listen ${NGINX_DEFAULTS.listen};`, `listen 127.0.0.1:${ports.https} ssl;`],
    [`listen ${NGINX_DEFAULTS.httpListen};`, `listen 127.0.0.1:${ports.http};`],
    [`ssl_certificate ${NGINX_DEFAULTS.certificate};`, `ssl_certificate ${certificate};`],
    [`ssl_certificate_key ${NGINX_DEFAULTS.certificateKey};`, `ssl_certificate_key ${key};`],
    [`root ${NGINX_DEFAULTS.root};`, `root ${siteDir};`],
    [`server ${NGINX_DEFAULTS.upstream};`, `server 127.0.0.1:${ingestPort};`],
    ...(brotli ? [[BROTLI_SWITCH, BROTLI_SWITCH.slice(2)] as [string, string]] : []),
  ];
  let conf = generated;
  for (const [from, to] of replacements) {
    if (!conf.includes(from)) throw new Error(`${NGINX_CONFIG_FILE} has no line "${from}" to set`);
    conf = conf.replace(from, to);
  }
  // Both servers (HTTPS, and plain HTTP's redirect) log to the same file.
  const log = `access_log ${NGINX_DEFAULTS.accessLog} `;
  if (!conf.includes(log)) throw new Error(`${NGINX_CONFIG_FILE} has no line "${log}" to set`);
  return conf.replaceAll(log, `access_log ${accessLogOf(workDir)} `);
}

/**
 * A self-signed certificate for 127.0.0.1 in `workDir` (made once, with Debian's openssl), as an
 * operator's certificate and key: the browser tests accept it (`ignoreHTTPSErrors`), and the Node
 * tests talk to nginx through `httpsGet`/`send`, which do not check it.
 */
function selfSignedCertificate(workDir: string): { certificate: string; key: string } {
  const certificate = join(workDir, 'tls-cert.pem');
  const key = join(workDir, 'tls-key.pem');
  if (!existsSync(certificate)) {
    const made = spawnSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', key, '-out', certificate, '-days', '2', '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1'], { encoding: 'utf8' });
    if (made.status !== 0) throw new Error(`openssl could not make a test certificate:\n${made.stderr}`);
  }
  return { certificate, key };
}

/** GET `url` (https, the test certificate accepted) and resolve with the status, or reject when nothing answers. */
function httpsStatus(url: string): Promise<number> {
  return new Promise((resolve, reject) => {
    httpsGet(url, { rejectUnauthorized: false }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    }).on('error', reject);
  });
}

/**
 * Starts Debian's nginx in the foreground with the built site's server block included in a
 * minimal main configuration whose pid, logs and temp folders live in `workDir`, with a self-signed
 * certificate for 127.0.0.1 as the operator's. It serves HTTPS (`baseURL`) on
 * `port` when given (chosen beforehand, so the ingest service can be told nginx's origin), else
 * on a free one, and plain HTTP's redirect (`httpURL`) on another free port. With `brotli`, it loads Debian's Brotli static module and turns on the
 * config's Brotli line, as docs/operators.md tells an operator to.
 */
export async function startNginx(
  siteDir: string,
  ingestPort: number,
  workDir: string,
  port?: number,
  { brotli = false }: { brotli?: boolean } = {},
): Promise<{ baseURL: string; httpURL: string; stop: () => Promise<void> }> {
  mkdirSync(join(workDir, 'logs'), { recursive: true });
  port ??= await freePort();
  const httpPort = await freePort();
  writeFileSync(join(workDir, 'site.conf'), deployedServerBlock(siteDir, { https: port, http: httpPort }, ingestPort, workDir, brotli));
  const temp = (name: string) => `${name}_temp_path ${join(workDir, `${name}-temp`)};`;
  const main = [
    brotli ? `load_module ${BROTLI_STATIC_MODULE};` : '',
    // As root, workers would run as nobody and could not read a private temp folder.
    process.getuid?.() === 0 ? 'user root;' : '',
    'worker_processes 1;',
    `pid ${join(workDir, 'nginx.pid')};`,
    `error_log ${join(workDir, 'logs', 'error.log')} warn;`,
    'events { worker_connections 256; }',
    'http {',
    '  include /etc/nginx/mime.types;',
    '  default_type application/octet-stream;',
    `  access_log ${join(workDir, 'logs', 'access.log')};`,
    `  ${temp('client_body')} ${temp('proxy')} ${temp('fastcgi')} ${temp('uwsgi')} ${temp('scgi')}`,
    `  include ${join(workDir, 'site.conf')};`,
    '}',
    '',
  ].join('\n');
  const confFile = join(workDir, 'nginx.conf');
  writeFileSync(confFile, main);
  const check = spawnSync(NGINX_BINARY, ['-t', '-q', '-c', confFile, '-p', workDir], { encoding: 'utf8' });
  if (check.status !== 0) throw new Error(`nginx rejected the generated config:\n${check.stderr}`);

  const nginx = spawn(NGINX_BINARY, ['-c', confFile, '-p', workDir, '-g', 'daemon off;'], { stdio: ['ignore', 'inherit', 'inherit'] });
  const baseURL = `https://127.0.0.1:${port}`;
  const deadline = Date.now() + 10_000;
  for (;;) {
    try {
      await httpsStatus(`${baseURL}/robots.txt`);
      break;
    } catch {
      if (Date.now() > deadline || nginx.exitCode !== null) throw new Error(`nginx did not start: ${readFileSync(join(workDir, 'logs', 'error.log'), 'utf8')}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }
  return {
    baseURL,
    httpURL: `http://127.0.0.1:${httpPort}`,
    stop: async () => {
      if (nginx.exitCode !== null) return;
      nginx.kill('SIGQUIT');
      await new Promise((r) => nginx.once('exit', r));
    },
  };
}

/** The access log of the server block started in `workDir` (in the generated config's format). */
export function accessLogOf(workDir: string): string {
  return join(workDir, 'logs', 'site-access.log');
}

/** Whether Debian's Brotli static module for nginx is installed here. */
export function brotliModuleAvailable(): boolean {
  return existsSync(BROTLI_STATIC_MODULE);
}

/** Whether nginx is installed here. */
export function nginxAvailable(): boolean {
  return existsSync(NGINX_BINARY);
}
