// Writes the extension's manifest fields (contributes, activationEvents, marketplace metadata)
// into package.json. Run under `flock /tmp/npm.lock` because other engineers edit package.json's
// scripts concurrently: this reads, changes only its own fields and writes back at once.
// Usage: flock /tmp/npm.lock node scripts/manifest-contributes.mjs
import { readFileSync, writeFileSync } from 'node:fs';

const cmd = (command, title, icon) => ({ command, title, category: 'MCP Lens', ...(icon ? { icon } : {}) });

const commands = [
  cmd('mcpLens.searchTools', 'Search Tools', '$(search)'),
  cmd('mcpLens.showDashboard', 'Show Dashboard', '$(dashboard)'),
  cmd('mcpLens.reindex', 'Reindex Tools', '$(refresh)'),
  cmd('mcpLens.restartSidecar', 'Restart Sidecar'),
  cmd('mcpLens.showLogs', 'Show Logs', '$(output)'),
  cmd('mcpLens.pullEmbeddingModel', 'Pull Embedding Model', '$(cloud-download)'),
  cmd('mcpLens.forgetInputs', 'Forget Inputs'),
  cmd('mcpLens.moveDuplicates', 'Move Duplicate Servers into MCP Lens'),
  cmd('mcpLens.approveServers', 'Approve Servers'),
  cmd('mcpLens.listServers', 'List Servers', '$(server)'),
  cmd('mcpLens.clearUsage', 'Clear Usage Data'),
  cmd('mcpLens.forgetLearnedSearch', 'Forget Learned Search'),
  cmd('mcpLens.signIn', 'Sign In to a Server', '$(sign-in)'),
  cmd('mcpLens.signOut', 'Sign Out of a Server', '$(sign-out)'),
];

const serverEntry = {
  type: 'object',
  properties: {
    type: {
      type: 'string',
      enum: ['stdio', 'http', 'sse'],
      description: 'Transport; inferred from `command` or `url` when omitted.',
    },
    command: { type: 'string', description: 'Executable to run for a stdio server.' },
    args: { type: 'array', items: { type: 'string' }, description: 'Arguments for `command`.' },
    env: {
      type: 'object',
      additionalProperties: { type: ['string', 'number', 'null'] },
      description: 'Environment for `command`; `${input:id}` and `${env:NAME}` are substituted.',
    },
    envFile: { type: 'string', description: 'A .env file loaded into the environment.' },
    cwd: { type: 'string', description: 'Working directory for `command`.' },
    url: { type: 'string', description: 'URL of a streamable HTTP or SSE server.' },
    headers: {
      type: 'object',
      additionalProperties: { type: 'string' },
      description: 'HTTP headers; use `${input:id}` for secrets.',
    },
    oauth: {
      type: 'object',
      required: ['clientId'],
      additionalProperties: false,
      properties: {
        clientId: {
          type: 'string',
          description:
            'Client id registered with the authorization server (or the https URL of a Client ID Metadata Document).',
        },
        clientSecret: {
          type: 'string',
          description: 'Client secret of a confidential client; use `${input:id}` or `${env:NAME}`.',
        },
        scopes: {
          type: 'array',
          items: { type: 'string' },
          description: 'Scopes to request when the server names none.',
        },
      },
      markdownDescription:
        'A pre-registered OAuth client for a server that needs sign-in and offers no dynamic registration. Without it MCP Lens registers itself. Register the redirect URI `http://127.0.0.1/callback` (any port).',
    },
  },
};

const properties = {
  'mcpLens.servers': {
    type: 'object',
    default: {},
    scope: 'resource',
    order: 0,
    additionalProperties: serverEntry,
    markdownDescription:
      'MCP servers that only MCP Lens starts, in the same shape as `.vscode/mcp.json` `servers`. Servers here are not also started by VS Code.',
  },
  'mcpLens.include': {
    type: 'array',
    items: { type: 'string' },
    default: [],
    scope: 'resource',
    markdownDescription: 'Glob patterns of `server/tool` names to index (empty = all). Example: `github/*`.',
  },
  'mcpLens.exclude': {
    type: 'array',
    items: { type: 'string' },
    default: [],
    scope: 'resource',
    markdownDescription: 'Glob patterns of `server/tool` names to hide completely. Example: `*/delete_*`.',
  },
  'mcpLens.importFrom': {
    type: 'array',
    scope: 'resource',
    uniqueItems: true,
    items: {
      type: 'string',
      enum: ['vscode', 'mcp-json', 'claude-desktop', 'cursor', 'settings'],
      enumDescriptions: [
        '.vscode/mcp.json',
        '.mcp.json at the workspace root',
        'Claude Desktop config',
        "Cursor: the workspace's .cursor/mcp.json and your ~/.cursor/mcp.json",
        'mcpLens.servers',
      ],
    },
    default: ['vscode', 'mcp-json', 'settings'],
    description:
      "Where MCP Lens reads server definitions from. In a multi-root workspace every folder's files and its own mcpLens.servers are read, its servers named <folder>/<server>.",
  },
  'mcpLens.exposure': {
    type: 'string',
    enum: ['search', 'pinned', 'all', 'predictive'],
    default: 'search',
    scope: 'resource',
    enumDescriptions: [
      'Only the meta-tools (find_tools, call_tool, run_code, get_tool_schema, list_servers).',
      'The meta-tools plus the tools in mcpLens.pinnedTools.',
      'Every tool (no savings; for comparison).',
      'The meta-tools plus tools predicted from your usage.',
    ],
    description: 'Which tools the MCP Lens server lists to the agent.',
  },
  'mcpLens.pinnedTools': {
    type: 'array',
    items: { type: 'string' },
    default: [],
    scope: 'resource',
    description: 'Tool names always listed directly (exposure "pinned" and "predictive").',
  },
  'mcpLens.callTimeoutSeconds': {
    type: 'number',
    default: 60,
    minimum: 1,
    maximum: 3600,
    scope: 'resource',
    description: 'Timeout for one upstream tool call.',
  },
  'mcpLens.connectTimeoutSeconds': {
    type: 'number',
    default: 30,
    minimum: 1,
    maximum: 600,
    scope: 'resource',
    description: 'Timeout for connecting to one upstream server.',
  },
  'mcpLens.startup': {
    type: 'string',
    enum: ['eager', 'lazy'],
    default: 'eager',
    scope: 'resource',
    enumDescriptions: [
      'Connect every server when MCP Lens starts.',
      'Start a server on its first tool call (its tools are searchable from the last known catalog) and stop it after mcpLens.idleTimeoutMinutes without calls.',
    ],
    description: 'When MCP Lens starts the servers it aggregates.',
  },
  'mcpLens.idleTimeoutMinutes': {
    type: 'number',
    default: 10,
    minimum: 1,
    maximum: 1440,
    scope: 'resource',
    description: 'With lazy startup: minutes without a call after which a server is stopped.',
  },
  'mcpLens.search.inlineSchemas': {
    type: 'number',
    default: 3,
    minimum: 0,
    maximum: 50,
    scope: 'resource',
    description:
      "How many of find_tools' top hits carry their input inline: a clear best match its full input schema, close top hits compact input types.",
  },
  'mcpLens.search.defaultLimit': {
    type: 'number',
    default: 5,
    minimum: 1,
    maximum: 50,
    scope: 'resource',
    description: 'Hits find_tools returns when the agent gives no limit.',
  },
  'mcpLens.search.learnFromUsage': {
    type: 'boolean',
    default: true,
    scope: 'resource',
    markdownDescription:
      "Learn from this workspace's own use: when an agent calls a tool after `find_tools`, the words of its request count for that tool in later searches. Kept per workspace in your state folder (never in the workspace, never sent anywhere); see the dashboard's *Learned search* section, and **MCP Lens: Forget Learned Search** to clear it.",
  },
  'mcpLens.ollama.host': {
    type: 'string',
    default: 'http://127.0.0.1:11434',
    scope: 'machine-overridable',
    markdownDescription:
      'Ollama server for embeddings (`OLLAMA_HOST` is used when this is unset). Changing it restarts the sidecar.',
  },
  'mcpLens.embedding.model': {
    type: 'string',
    default: 'nomic-embed-text',
    scope: 'resource',
    description: 'Ollama embedding model. Changing it restarts the sidecar and re-embeds every tool.',
  },
  'mcpLens.embedding.enabled': {
    type: 'boolean',
    default: true,
    scope: 'resource',
    description: 'Use semantic (embedding) search besides keyword search. Without Ollama, search is keyword only.',
  },
  'mcpLens.usage.enabled': {
    type: 'boolean',
    default: true,
    scope: 'resource',
    description:
      'Record which tools are called (names only, never arguments) to rank and predict tools. Stored in the workspace storage folder.',
  },
  'mcpLens.usage.retentionDays': {
    type: 'number',
    default: 90,
    minimum: 1,
    maximum: 3650,
    scope: 'resource',
    description: 'Days usage records are kept.',
  },
  'mcpLens.predict.minTools': {
    type: 'number',
    default: 3,
    minimum: 0,
    maximum: 50,
    scope: 'resource',
    description: 'Fewest tools listed in "predictive" exposure.',
  },
  'mcpLens.predict.maxTools': {
    type: 'number',
    default: 10,
    minimum: 1,
    maximum: 50,
    scope: 'resource',
    description: 'Most tools listed in "predictive" exposure.',
  },
  'mcpLens.maxOutputTokens': {
    type: 'number',
    default: 8000,
    minimum: 100,
    maximum: 1000000,
    scope: 'resource',
    markdownDescription:
      'Most o200k tokens of a `call_tool` or `run_code` result the agent receives (its `max_output_tokens` argument overrides it). A longer result is cut with a note, and kept whole for the session as the resource `mcp-lens://results/<id>`.',
  },
  'mcpLens.codeMode.enabled': {
    type: 'boolean',
    default: true,
    scope: 'resource',
    markdownDescription:
      'Offer the `run_code` meta-tool: the agent writes one JavaScript program that chains tool calls in a WebAssembly sandbox, and only its return value reaches the model. Turn it off for agents that cannot write code well or when every call must be approved one by one in the chat.',
  },
  'mcpLens.codeMode.maxTimeoutMs': {
    type: 'number',
    default: 120000,
    minimum: 1000,
    maximum: 3600000,
    scope: 'resource',
    markdownDescription: 'Longest wall time a `run_code` script may ask for with `timeout_ms` (the default is 30 s).',
  },
  'mcpLens.trace.server': {
    type: 'string',
    enum: ['off', 'messages', 'verbose'],
    default: 'off',
    scope: 'window',
    description: 'Traces the messages between VS Code and the MCP Lens sidecar in the MCP Lens log.',
  },
};

const contributes = {
  mcpServerDefinitionProviders: [{ id: 'mcpLens', label: 'MCP Lens' }],
  commands,
  configuration: { title: 'MCP Lens', properties },
  walkthroughs: [
    {
      id: 'mcpLens.gettingStarted',
      title: 'Get started with MCP Lens',
      description: "Put one optimizing MCP server in front of all of your workspace's MCP servers.",
      steps: [
        {
          id: 'servers',
          title: 'Configure your MCP servers',
          description:
            'MCP Lens reads .vscode/mcp.json, .mcp.json and the mcpLens.servers setting.\n[Open Settings](command:workbench.action.openSettings?%5B%22mcpLens.servers%22%5D)',
          media: { markdown: 'media/walkthrough/servers.md' },
          completionEvents: ['onSettingChanged:mcpLens.servers'],
        },
        {
          id: 'approve',
          title: 'Approve the servers to start',
          description:
            'Servers from workspace files start only after you allow them.\n[Approve Servers](command:mcpLens.approveServers)',
          media: { markdown: 'media/walkthrough/approve.md' },
          completionEvents: ['onCommand:mcpLens.approveServers'],
        },
        {
          id: 'search',
          title: 'Search the tools',
          description: 'Try the same search the agent uses.\n[Search Tools](command:mcpLens.searchTools)',
          media: { markdown: 'media/walkthrough/search.md' },
          completionEvents: ['onCommand:mcpLens.searchTools'],
        },
        {
          id: 'embeddings',
          title: 'Optional: semantic search with Ollama',
          description:
            'With Ollama running, MCP Lens also searches by meaning.\n[Pull Embedding Model](command:mcpLens.pullEmbeddingModel)',
          media: { markdown: 'media/walkthrough/embeddings.md' },
          completionEvents: ['onCommand:mcpLens.pullEmbeddingModel'],
        },
        {
          id: 'dashboard',
          title: 'See the savings',
          description:
            'The dashboard shows servers, the index and the tokens saved.\n[Show Dashboard](command:mcpLens.showDashboard)',
          media: { markdown: 'media/walkthrough/dashboard.md' },
          completionEvents: ['onCommand:mcpLens.showDashboard'],
        },
      ],
    },
  ],
};

const fields = {
  publisher: 'mcp-lens',
  displayName: 'MCP Lens',
  icon: 'media/icon.png',
  categories: ['AI', 'Other'],
  keywords: ['mcp', 'model context protocol', 'tools', 'agent', 'copilot', 'tool search', 'tokens', 'ollama'],
  repository: { type: 'git', url: 'https://github.com/mcp-lens/mcp-lens.git' },
  galleryBanner: { color: '#1e2a38', theme: 'dark' },
  // Only where the folder has an MCP configuration; commands activate on their own (VS Code
  // adds onCommand events). Activation by VS Code's MCP discovery (onMcpServerDefinitionProvider,
  // implied by the contribution) finds no configuration and starts no sidecar (extension.ts).
  activationEvents: [
    'workspaceContains:.vscode/mcp.json',
    'workspaceContains:.mcp.json',
    'workspaceContains:.cursor/mcp.json',
  ],
  capabilities: {
    untrustedWorkspaces: {
      supported: 'limited',
      description:
        'In an untrusted workspace MCP Lens starts no server declared by the workspace (.vscode/mcp.json, .mcp.json, workspace settings); only servers from your user settings run.',
      restrictedConfigurations: ['mcpLens.servers', 'mcpLens.ollama.host'],
    },
  },
  contributes,
};

const pkg = JSON.parse(readFileSync('package.json', 'utf8'));
Object.assign(pkg, fields);
writeFileSync('package.json', JSON.stringify(pkg, null, 2) + '\n');
console.error('package.json: manifest fields written');
