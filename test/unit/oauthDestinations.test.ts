// Where OAuth requests may go (adapters/upstream/auth/oauthDestinations.ts, oauthAddresses.ts):
// the rule by the URL's text, and by the addresses a name resolves to (answered here by the test).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { addressKind, hostKind } from '../../server/src/adapters/upstream/auth/oauthAddresses';
import { OAuthDestinationError, OAuthDestinations } from '../../server/src/adapters/upstream/auth/oauthDestinations';

test('addresses: loopback, link-local and metadata however written; IPv4 inside IPv6 judged as IPv4', () => {
  const table: [string, string][] = [
    ['127.0.0.1', 'loopback'],
    ['127.8.9.10', 'loopback'],
    ['::1', 'loopback'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['169.254.169.254', 'metadata'],
    ['169.254.170.2', 'metadata'],
    ['::ffff:169.254.169.254', 'metadata'],
    ['::ffff:a9fe:a9fe', 'metadata'],
    ['64:ff9b::a9fe:a9fe', 'metadata'],
    ['fd00:ec2::254', 'metadata'],
    ['100.100.100.200', 'metadata'],
    ['169.254.1.1', 'link-local'],
    ['fe80::1', 'link-local'],
    ['fe80::1%eth0', 'link-local'],
    ['0.0.0.0', 'not a server'],
    ['::', 'not a server'],
    ['224.0.0.251', 'not a server'],
    ['ff02::1', 'not a server'],
    ['10.1.2.3', 'other'],
    ['93.184.216.34', 'other'],
    ['2606:4700::1111', 'other'],
  ];
  for (const [address, kind] of table) assert.equal(addressKind(address), kind, address);
  assert.equal(hostKind('localhost'), 'loopback');
  assert.equal(hostKind('Auth.LOCALHOST.'), 'loopback');
  assert.equal(hostKind('metadata.google.internal'), 'metadata');
  assert.equal(hostKind(new URL('http://2852039166/').hostname), 'metadata', 'a decimal IPv4 is an IPv4');
  assert.equal(hostKind(new URL('http://[::ffff:169.254.169.254]/').hostname), 'metadata');
  assert.equal(hostKind('auth.example.com'), undefined, 'a name is judged by what it resolves to');
});

test('by the text: own origin, https elsewhere, loopback only for a server on loopback, never metadata', () => {
  const allowed = (server: string, url: string) => {
    try {
      new OAuthDestinations('s', server).check(new URL(url));
      return true;
    } catch (error) {
      assert.ok(error instanceof OAuthDestinationError);
      assert.match(error.message, /^s: signing in stopped: MCP Lens does not send OAuth requests to /);
      assert.ok(!error.message.includes('?'), 'never a query');
      return false;
    }
  };
  const table: [string, string, boolean][] = [
    ['https://mcp.example.com/mcp', 'https://mcp.example.com/.well-known/oauth-protected-resource/mcp', true],
    ['http://mcp.corp/mcp', 'http://mcp.corp/.well-known/oauth-protected-resource', true],
    ['https://mcp.example.com/mcp', 'https://auth.example.org/token', true],
    ['https://mcp.example.com/mcp', 'http://auth.example.org/token', false],
    ['https://mcp.example.com/mcp', 'https://127.0.0.1:8080/token', false],
    ['https://mcp.example.com/mcp', 'https://localhost/token', false],
    ['https://mcp.example.com/mcp', 'https://169.254.169.254/latest/meta-data?x=1', false],
    ['https://mcp.example.com/mcp', 'https://metadata.google.internal/computeMetadata/v1/', false],
    ['https://mcp.example.com/mcp', 'https://[fe80::1]/token', false],
    ['https://mcp.example.com/mcp', 'file:///etc/passwd', false],
    ['http://127.0.0.1:3000/mcp', 'http://127.0.0.1:4000/token', true],
    ['http://localhost:3000/mcp', 'http://[::1]:4000/token', true],
    ['http://127.0.0.1:3000/mcp', 'http://169.254.169.254/latest/meta-data/iam/security-credentials', false],
    ['http://127.0.0.1:3000/mcp', 'http://0.0.0.0:4000/token', false],
    ['http://127.0.0.1:3000/mcp', 'http://auth.example.org/token', false],
    ['http://169.254.169.254/mcp', 'http://169.254.169.254/token', false],
  ];
  for (const [server, url, ok] of table) assert.equal(allowed(server, url), ok, `${server} → ${url}`);
});

test('by what a name resolves to: every address must be allowed; the refusal is remembered for the status', async () => {
  const answer = (addresses: string[]) =>
    new OAuthDestinations('s', 'https://mcp.example.com/mcp', async () =>
      addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 })),
    );
  const resolve = (d: OAuthDestinations, url: string) =>
    new Promise<string>((ok, fail) =>
      d.lookupFor(new URL(url))('auth.example.com', { all: false }, (err, address) =>
        err ? fail(err) : ok(String(address)),
      ),
    );
  assert.equal(await resolve(answer(['93.184.216.34']), 'https://auth.example.com/token'), '93.184.216.34');
  const rebinding = answer(['93.184.216.34', '169.254.169.254']);
  await assert.rejects(
    resolve(rebinding, 'https://auth.example.com/token?code=secret'),
    /resolves to 169\.254\.169\.254/,
  );
  assert.deepEqual(rebinding.refused, [
    "https://auth.example.com/token (it resolves to 169.254.169.254, a cloud provider's metadata service)",
  ]);
  await assert.rejects(
    resolve(answer(['::1']), 'https://auth.example.com/token'),
    /a loopback address, and the server is not on loopback/,
  );
  await assert.rejects(resolve(answer(['fe80::9']), 'https://auth.example.com/token'), /a link-local address/);
  // The server's own name resolving to loopback is the server itself.
  const own = new OAuthDestinations('s', 'https://mcp.example.com/mcp', async () => [
    { address: '127.0.0.1', family: 4 },
  ]);
  assert.equal(
    await new Promise((ok, fail) =>
      own.lookupFor(new URL('https://mcp.example.com/.well-known/x'))('mcp.example.com', {}, (e, a) =>
        e ? fail(e) : ok(a),
      ),
    ),
    '127.0.0.1',
  );
});
