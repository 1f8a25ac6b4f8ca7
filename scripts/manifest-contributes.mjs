// Writes the extension's manifest fields (contributes, activationEvents, marketplace metadata)
// into package.json. The settings (`contributes.configuration` and the restricted ones) come from
// their one declaration, protocol/settingsSchema.ts. Run under `flock /tmp/npm.lock` because other
// engineers edit package.json's scripts concurrently: this reads, changes only its own fields and
// writes back at once.
// Usage: flock /tmp/npm.lock node --import tsx scripts/manifest-contributes.mjs
import { readFileSync, writeFileSync } from 'node:fs';
import { settingsContribution } from '../protocol/settingsManifest.ts';

const settings = settingsContribution();

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

const contributes = {
  mcpServerDefinitionProviders: [{ id: 'mcpLens', label: 'MCP Lens' }],
  commands,
  configuration: settings.configuration,
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
      restrictedConfigurations: settings.restrictedConfigurations,
    },
  },
  contributes,
};

const pkg = JSON.parse(readFileSync('package.json', 'utf8'));
Object.assign(pkg, fields);
writeFileSync('package.json', JSON.stringify(pkg, null, 2) + '\n');
console.error('package.json: manifest fields written');
