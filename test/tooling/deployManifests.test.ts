// deploy/: no container engine or cluster runs here, so the manifests are checked as data, with
// a real YAML parser: each document's kind and shape, the probes pointing at the gateway's probe
// routes (server/src/gateway/http.ts PROBE_PATHS) through a port a container declares, every
// secret a container reads present in the example Secret, the grace period above the drain,
// the proxy's configuration accepted by a real HAProxy (`haproxy -c`) and pointing at the port
// `serve --http` is given, and the Dockerfile running the CLI the build makes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';
import { PROBE_PATHS } from '../../server/src/gateway/httpDrain';
import { DEFAULT_DRAIN_MS } from '../../server/src/cli/serveHttp';
import { HAPROXY, haproxyMissing } from '../../bench/src/infra/haproxy';

const DIR = join(__dirname, '..', '..', 'deploy');
type Doc = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

function documents(): Doc[] {
  return readdirSync(join(DIR, 'kubernetes'))
    .filter((f) => f.endsWith('.yaml'))
    .flatMap((f) =>
      parseAllDocuments(readFileSync(join(DIR, 'kubernetes', f), 'utf8')).map((d) => {
        assert.deepEqual(d.errors, [], f);
        return d.toJS() as Doc;
      }),
    );
}

const byKind = (kind: string) => documents().filter((d) => d.kind === kind);

test('the Deployment: replicas, probes on the gateway probe routes through a declared port, secrets that exist, a grace period above the drain', () => {
  const [deployment] = byKind('Deployment');
  assert.ok(deployment, 'a Deployment');
  const spec = deployment.spec.template.spec;
  assert.ok(deployment.spec.replicas >= 2);
  assert.deepEqual(deployment.spec.selector.matchLabels, deployment.spec.template.metadata.labels);
  const containers: Doc[] = spec.containers;
  const ports = new Set(containers.flatMap((c) => (c.ports ?? []).map((p: Doc) => p.name)));
  const probes = containers.flatMap((c) =>
    ['livenessProbe', 'readinessProbe', 'startupProbe'].filter((k) => c[k]).map((k) => [k, c[k].httpGet] as const),
  );
  assert.deepEqual(Object.fromEntries(probes.map(([k, g]) => [k, g.path])), {
    livenessProbe: PROBE_PATHS.live,
    readinessProbe: PROBE_PATHS.ready,
    startupProbe: PROBE_PATHS.live,
  });
  for (const [k, g] of probes) assert.ok(ports.has(g.port), `${k} uses port ${g.port}, which a container declares`);
  const secret = byKind('Secret')[0]!;
  const secretKeys = Object.keys(secret.stringData);
  const lens = containers.find((c) => c.name === 'mcp-lens')!;
  const env: Doc[] = lens.env;
  for (const e of env.filter((e) => e.valueFrom?.secretKeyRef)) {
    assert.equal(e.valueFrom.secretKeyRef.name, secret.metadata.name);
    assert.ok(secretKeys.includes(e.valueFrom.secretKeyRef.key), `${e.name} is in the Secret`);
  }
  for (const name of ['MCP_LENS_DATABASE_URL', 'MCP_LENS_STATE_KEY', 'MCP_LENS_TOKEN'])
    assert.ok(
      env.some((e) => e.name === name && e.valueFrom?.secretKeyRef),
      `${name} comes from the Secret`,
    );
  const drain = Number(env.find((e) => e.name === 'MCP_LENS_DRAIN_MS')?.value ?? DEFAULT_DRAIN_MS);
  assert.ok(spec.terminationGracePeriodSeconds * 1000 > drain, 'the pod is killed only after the drain');
  const service = byKind('Service')[0]!;
  assert.deepEqual(service.spec.selector, deployment.spec.template.metadata.labels);
  assert.ok(ports.has(service.spec.ports[0].targetPort));
});

test('the in-pod proxy: a configuration HAProxy accepts, in front of the port serve --http is given', (t) => {
  const configMap = byKind('ConfigMap')[0]!;
  const cfg: string = configMap.data['haproxy.cfg'];
  const lens = byKind('Deployment')[0]!.spec.template.spec.containers.find((c: Doc) => c.name === 'mcp-lens');
  const port = lens.args[lens.args.indexOf('--http') + 1];
  assert.match(cfg, new RegExp(`server lens 127\\.0\\.0\\.1:${port}\\b`));
  assert.match(cfg, new RegExp(`set-header Host 127\\.0\\.0\\.1:${port}\\b`), 'the Host MCP Lens accepts');
  JSON.parse(configMap.data['mcp.json']);
  if (haproxyMissing()) return t.skip(haproxyMissing());
  const dir = mkdtempSync(join(tmpdir(), 'mcp-lens-deploy-'));
  try {
    writeFileSync(join(dir, 'haproxy.cfg'), cfg);
    const r = spawnSync(HAPROXY, ['-c', '-f', join(dir, 'haproxy.cfg')], { encoding: 'utf8' });
    assert.equal(r.status, 0, r.stdout + r.stderr);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('the Dockerfile runs the CLI the build makes, as a user, with the workspace the Deployment mounts', () => {
  const text = readFileSync(join(DIR, 'Dockerfile'), 'utf8');
  assert.match(text, /^RUN node esbuild\.mjs$/m);
  assert.match(text, /^ENTRYPOINT \["node", "\/opt\/mcp-lens\/dist\/cli\.js"\]$/m);
  assert.match(text, /^USER node$/m);
  const mount = byKind('Deployment')[0]!.spec.template.spec.containers[0].volumeMounts[0].mountPath;
  assert.match(text, new RegExp(`"--workspace", "${mount}"`));
});
