// An HTTP-level proxy that lets the conformance suite, which knows only the upstream's own tool,
// prompt and resource names, talk to an upstream through MCP Lens. It undoes what MCP Lens does
// on purpose — `<server>_` before tool and prompt names, resources under `mcp-lens://<server>/…`,
// and in search mode the meta-tool indirection (tools/list answered from find_tools and
// get_tool_schema, tools/call sent as call_tool) — and nothing else: requests, SSE streams
// (event ids, retry fields, priming events), headers, status codes and every message it does not
// rename pass through byte for byte, so the transport the suite checks is MCP Lens's own. It adds
// MCP Lens's bearer token, and points a Host or Origin that names the proxy at MCP Lens (any other
// Host or Origin, as in the DNS-rebinding scenario, goes through as it came).
import { createServer, request as httpRequest } from 'node:http';

/** MCP Lens refused a request the proxy made for the client: the client gets that answer as it came. */
class LensRefusal extends Error {
  constructor(status, contentType, body) {
    super(`MCP Lens answered ${status}`);
    Object.assign(this, { status, contentType, body });
  }
}

/** A URI template split at its `{…}` expressions: literal text at even indexes, expressions at odd ones. */
const templatePieces = (template) => template.split(/(\{[^{}]*\})/);

const escapeRegExp = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The upstream's template from one MCP Lens lists (its literal parts are URI-encoded there). */
function originalTemplate(ours, prefix) {
  return templatePieces(ours.slice(prefix.length))
    .map((p, i) => (i % 2 ? p : decodeURIComponent(p)))
    .join('');
}

/**
 * Starts the proxy on 127.0.0.1. `target` is MCP Lens's /mcp URL, `server` the upstream's name
 * under MCP Lens, `mode` 'all' (tools listed directly) or 'search' (meta-tools only).
 */
export async function startProxy({ target, token, server, mode }) {
  const lens = new URL(target);
  const toolPrefix = `${server}_`;
  const uriPrefix = `mcp-lens://${encodeURIComponent(server)}/`;
  /** Session id → our templates (MCP Lens's), fetched on first use. */
  const templatesBySession = new Map();
  let own;

  const toLensUri = async (ctx, uri) => {
    for (const ours of await templatesOf(ctx)) {
      const pieces = templatePieces(originalTemplate(ours, uriPrefix));
      if (pieces.length < 3) continue;
      const m = new RegExp(`^${pieces.map((p, i) => (i % 2 ? '(.*?)' : escapeRegExp(p))).join('')}$`, 's').exec(uri);
      if (!m) continue;
      let g = 1;
      return uriPrefix + pieces.map((p, i) => (i % 2 ? m[g++] : encodeURIComponent(p))).join('');
    }
    return uriPrefix + encodeURIComponent(uri);
  };
  const fromLensUri = (uri) =>
    typeof uri === 'string' && uri.startsWith(uriPrefix) ? decodeURIComponent(uri.slice(uriPrefix.length)) : uri;
  const strip = (name) =>
    typeof name === 'string' && name.startsWith(toolPrefix) ? name.slice(toolPrefix.length) : name;

  async function templatesOf(ctx) {
    const key = ctx.sessionId ?? 'stateless';
    if (!templatesBySession.has(key)) {
      const r = await lensCall(ctx, 'resources/templates/list', {});
      templatesBySession.set(
        key,
        (r.result?.resourceTemplates ?? []).map((t) => t.uriTemplate).filter((t) => t.startsWith(uriPrefix)),
      );
    }
    return templatesBySession.get(key);
  }

  /**
   * One request of the proxy's own to MCP Lens, as the client's request it serves was sent: inside
   * its session (2025-era), or stateless with the same envelope and the revision's headers (`ctx.meta`).
   */
  let ownId = 0;
  async function lensCall(ctx, method, params) {
    const id = `conformance-proxy-${++ownId}`;
    const body = JSON.stringify({
      jsonrpc: '2.0',
      id,
      method,
      params: ctx.meta ? { ...params, _meta: ctx.meta } : params,
    });
    const version = ctx.meta?.['io.modelcontextprotocol/protocolVersion'];
    const headers = {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      authorization: `Bearer ${token}`,
      host: lens.host,
      ...(ctx.sessionId && { 'mcp-session-id': ctx.sessionId }),
      // The client's own request answered through this one: its headers, as it sent them, are checked.
      ...(ctx.headers ?? {
        'mcp-protocol-version': version ?? '2025-11-25',
        ...(version && { 'mcp-method': method, ...(params.name && { 'mcp-name': params.name }) }),
      }),
    };
    const res = await fetch(target, { method: 'POST', headers, body });
    const text = await res.text();
    // A refusal (an unknown session's 404, say) is MCP Lens's answer to the client's own request.
    if (!res.ok) throw new LensRefusal(res.status, res.headers.get('content-type'), text);
    const messages = res.headers.get('content-type')?.includes('text/event-stream')
      ? text
          .split(/\r?\n\r?\n/)
          .map((event) =>
            event
              .split(/\r?\n/)
              .filter((l) => l.startsWith('data:'))
              .map((l) => l.slice(5).trimStart())
              .join('\n'),
          )
          .filter(Boolean)
          .map((d) => JSON.parse(d))
      : [JSON.parse(text)];
    const answer = messages.find((m) => m.id === id);
    if (!answer) throw new Error(`MCP Lens did not answer ${method}`);
    return answer;
  }

  /** Search mode's tools/list: MCP Lens's own answer (its result fields) with the upstream's tools in it. */
  async function searchModeList(ctx) {
    const headers = Object.fromEntries(
      Object.entries(ctx.request).filter(([h]) => /^mcp-(method|name|protocol-version)$/.test(h)),
    );
    const own = await lensCall({ ...ctx, headers }, 'tools/list', {});
    return { ...own.result, tools: await searchModeTools(ctx) };
  }

  /** Search mode: the upstream's tools as MCP Lens describes them, found and fetched through its meta-tools. */
  async function searchModeTools(ctx) {
    const found = await lensCall(ctx, 'tools/call', {
      name: 'find_tools',
      arguments: { query: 'test tool', server, limit: 50 },
    });
    const matches = found.result?.structuredContent?.matches ?? [];
    const tools = [];
    for (const match of matches) {
      const schema = await lensCall(ctx, 'tools/call', {
        name: 'get_tool_schema',
        arguments: { tool_name: match.name },
      });
      const d = JSON.parse(schema.result.content[0].text);
      const tool = { name: strip(d.name), description: d.description, inputSchema: d.input_schema };
      if (d.title !== undefined) tool.title = d.title;
      if (d.output_schema !== undefined) tool.outputSchema = d.output_schema;
      if (d.annotations !== undefined) tool.annotations = d.annotations;
      tools.push(tool);
    }
    return tools;
  }

  /** A client message on its way to MCP Lens; returns the message, or a reply the proxy gives itself. */
  async function rewriteRequest(message, ctx) {
    if (!message || typeof message !== 'object' || typeof message.method !== 'string' || message.id === undefined)
      return { forward: message };
    const params = message.params ?? {};
    switch (message.method) {
      case 'tools/list':
        if (mode === 'search') return { reply: { jsonrpc: '2.0', id: message.id, result: await searchModeList(ctx) } };
        return { forward: message };
      case 'tools/call': {
        const name = toolPrefix + params.name;
        if (mode === 'all') return { forward: { ...message, params: { ...params, name } } };
        const inner = { tool_name: name, arguments: params.arguments ?? {} };
        // Everything else in the params (the envelope, a retry's inputResponses and requestState) stays.
        return { forward: { ...message, params: { ...params, name: 'call_tool', arguments: inner } } };
      }
      case 'prompts/get':
        return { forward: { ...message, params: { ...params, name: toolPrefix + params.name } } };
      case 'resources/read':
      case 'resources/subscribe':
      case 'resources/unsubscribe':
        return { forward: { ...message, params: { ...params, uri: await toLensUri(ctx, params.uri) } } };
      case 'completion/complete': {
        const ref = params.ref ?? {};
        if (ref.type === 'ref/prompt')
          return { forward: { ...message, params: { ...params, ref: { ...ref, name: toolPrefix + ref.name } } } };
        const ours = (await templatesOf(ctx)).find((t) => originalTemplate(t, uriPrefix) === ref.uri);
        return {
          forward: {
            ...message,
            params: { ...params, ref: { ...ref, uri: ours ?? (await toLensUri(ctx, ref.uri)) } },
          },
        };
      }
      default:
        return { forward: message };
    }
  }

  /** A message from MCP Lens on its way to the client; `methods` maps this POST's request ids to their methods. */
  function rewriteResponse(message, methods) {
    if (!message || typeof message !== 'object') return message;
    if (message.method === 'notifications/resources/updated')
      return { ...message, params: { ...message.params, uri: fromLensUri(message.params?.uri) } };
    if (message.result === undefined || message.id === undefined) return message;
    const method = methods.get(JSON.stringify(message.id));
    const r = message.result;
    switch (method) {
      case 'tools/list':
        return { ...message, result: { ...r, tools: (r.tools ?? []).map((t) => ({ ...t, name: strip(t.name) })) } };
      case 'prompts/list':
        return { ...message, result: { ...r, prompts: (r.prompts ?? []).map((p) => ({ ...p, name: strip(p.name) })) } };
      case 'resources/list':
        return {
          ...message,
          result: { ...r, resources: (r.resources ?? []).map((x) => ({ ...x, uri: fromLensUri(x.uri) })) },
        };
      case 'resources/read':
        // MCP Lens answers under the URI asked for: ours.
        return {
          ...message,
          result: { ...r, contents: (r.contents ?? []).map((c) => ({ ...c, uri: fromLensUri(c.uri) })) },
        };
      case 'resources/templates/list':
        return {
          ...message,
          result: {
            ...r,
            resourceTemplates: (r.resourceTemplates ?? []).map((t) =>
              t.uriTemplate.startsWith(uriPrefix)
                ? { ...t, uriTemplate: originalTemplate(t.uriTemplate, uriPrefix) }
                : t,
            ),
          },
        };
      default:
        return message;
    }
  }

  /** Rewrites an SSE body event by event; everything but `data:` lines passes as it came. */
  function sseRewriter(methods) {
    let buffer = '';
    let data = [];
    return (chunk, flush = false) => {
      buffer += chunk;
      let out = '';
      let nl;
      while ((nl = buffer.search(/\r?\n/)) >= 0) {
        const line = buffer.slice(0, nl);
        const eol = buffer.slice(nl, buffer[nl] === '\r' ? nl + 2 : nl + 1);
        buffer = buffer.slice(nl + eol.length);
        if (line.startsWith('data:')) {
          data.push(line.slice(5).replace(/^ /, ''));
          continue;
        }
        if (line === '' && data.length) {
          const raw = data.join('\n');
          data = [];
          let text = raw;
          try {
            text = JSON.stringify(rewriteResponse(JSON.parse(raw), methods));
          } catch {
            // not JSON: passed on as it came
          }
          out += `data: ${text}${eol}`;
        }
        out += line + eol;
      }
      if (flush && buffer) ((out += buffer), (buffer = ''));
      return out;
    };
  }

  const ownHost = () => [`127.0.0.1:${own}`, `localhost:${own}`];
  function upstreamHeaders(req) {
    const headers = { ...req.headers };
    for (const h of ['connection', 'content-length', 'transfer-encoding', 'keep-alive']) delete headers[h];
    headers.authorization = `Bearer ${token}`;
    if (ownHost().includes(headers.host))
      headers.host = headers.host.startsWith('localhost') ? `localhost:${lens.port}` : lens.host;
    if (typeof headers.origin === 'string') {
      try {
        const origin = new URL(headers.origin);
        if (ownHost().includes(origin.host)) headers.origin = `${origin.protocol}//${origin.hostname}:${lens.port}`;
      } catch {
        // an Origin that is not a URL goes through as it came
      }
    }
    return headers;
  }

  /**
   * The Mcp-Name header follows the name the proxy rewrote in the body: renamed as the body was when
   * it said what the body said (whitespace around it kept), left as it came when it did not (a
   * mismatch the suite sends on purpose stays one).
   */
  function renameHeader(headers, before, after) {
    const raw = headers['mcp-name'];
    if (typeof raw !== 'string' || !after?.params) return;
    const field = before.method === 'resources/read' ? 'uri' : 'name';
    const was = before.params?.[field];
    const now = after.params[field];
    if (typeof was !== 'string' || typeof now !== 'string' || was === now) return;
    const m = /^=\?base64\?(.*)\?=$/.exec(raw.trim());
    const value = m ? Buffer.from(m[1], 'base64').toString('utf8') : raw;
    if (value.trim() !== was) return;
    const padded = value.replace(was, now);
    headers['mcp-name'] =
      m || /[^\x20-\x7e]/.test(padded) ? `=?base64?${Buffer.from(padded, 'utf8').toString('base64')}?=` : padded;
  }

  async function handle(req, res) {
    const chunks = [];
    for await (const c of req) chunks.push(c);
    const sessionId = typeof req.headers['mcp-session-id'] === 'string' ? req.headers['mcp-session-id'] : undefined;
    const methods = new Map();
    const headers = upstreamHeaders(req);
    let body = Buffer.concat(chunks);
    if (req.method === 'POST' && body.length) {
      let parsed;
      try {
        parsed = JSON.parse(body.toString('utf8'));
      } catch {
        parsed = undefined;
      }
      if (parsed !== undefined) {
        const batch = Array.isArray(parsed);
        const forward = [];
        for (const message of batch ? parsed : [parsed]) {
          if (message?.id !== undefined && typeof message.method === 'string')
            methods.set(JSON.stringify(message.id), message.method);
          const meta = message?.params?._meta;
          const ctx = {
            sessionId,
            meta: meta?.['io.modelcontextprotocol/protocolVersion'] ? meta : undefined,
            request: req.headers,
          };
          const step = await rewriteRequest(message, ctx);
          if (step.reply) {
            res.writeHead(200, {
              'content-type': 'application/json',
              ...(sessionId && { 'mcp-session-id': sessionId }),
            });
            res.end(JSON.stringify(step.reply));
            return;
          }
          forward.push(step.forward);
          if (!batch) renameHeader(headers, message, step.forward);
        }
        body = Buffer.from(JSON.stringify(batch ? forward : forward[0]));
      }
    }
    const out = httpRequest(
      { host: lens.hostname, port: lens.port, path: lens.pathname, method: req.method, headers },
      (answer) => {
        const headers = { ...answer.headers };
        delete headers['content-length'];
        delete headers['transfer-encoding'];
        res.writeHead(answer.statusCode ?? 502, headers);
        const type = String(answer.headers['content-type'] ?? '');
        answer.setEncoding('utf8');
        if (type.includes('text/event-stream')) {
          const rewrite = sseRewriter(methods);
          res.flushHeaders();
          answer.on('data', (chunk) => res.write(rewrite(chunk)));
          answer.on('end', () => res.end(rewrite('', true)));
          return;
        }
        let text = '';
        answer.on('data', (chunk) => (text += chunk));
        answer.on('end', () => {
          if (type.includes('application/json') && text) {
            try {
              const parsed = JSON.parse(text);
              text = JSON.stringify(
                Array.isArray(parsed)
                  ? parsed.map((m) => rewriteResponse(m, methods))
                  : rewriteResponse(parsed, methods),
              );
            } catch {
              // not JSON: passed on as it came
            }
          }
          res.end(text);
        });
      },
    );
    out.on('error', (err) => {
      if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' });
      res.end(`proxy: ${err.message}`);
    });
    // The client went away (or the answer is complete): so does the request to MCP Lens.
    res.on('close', () => out.destroy());
    out.end(body.length ? body : undefined);
  }

  const http = createServer((req, res) => {
    handle(req, res).catch((err) => {
      if (err instanceof LensRefusal && !res.headersSent) {
        res.writeHead(err.status, err.contentType ? { 'content-type': err.contentType } : {});
        res.end(err.body);
        return;
      }
      if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' });
      res.end(`proxy: ${err instanceof Error ? err.message : String(err)}`);
    });
  });
  await new Promise((resolve) => http.listen(0, '127.0.0.1', resolve));
  own = http.address().port;
  return {
    url: `http://localhost:${own}/mcp`,
    close: () =>
      new Promise((resolve) => {
        http.close(() => resolve());
        http.closeAllConnections();
      }),
  };
}
