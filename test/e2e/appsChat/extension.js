// Test-only extension for test/e2e/mcpApps.test.ts, packaged by that test with vsce. VS Code
// renders an MCP App only for a tool called in a chat, and a chat request needs a language model;
// code-server has none, so this registers one that answers "ok", and a participant, `@apps
// <tool>`, that starts MCP Lens's MCP server, waits for the MCP Lens tool whose name ends with
// <tool>, and invokes it with the chat's invocation token, as an agent's tool call is made.
/* global exports */
// eslint-disable-next-line @typescript-eslint/no-require-imports -- a VS Code extension's entry is CommonJS
const vscode = require('vscode');

const LENS_SERVER = 'mcp-lens.mcp-lens/MCP Lens';

async function lensTool(suffix, token) {
  const deadline = Date.now() + 120_000;
  while (!token.isCancellationRequested && Date.now() < deadline) {
    const tool = vscode.lm.tools.find((t) => /lens/i.test(t.name) && t.name.endsWith(suffix));
    if (tool) return tool;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`no MCP Lens tool ending with ${suffix}: ${vscode.lm.tools.map((t) => t.name).join(', ')}`);
}

exports.activate = (context) => {
  context.subscriptions.push(
    vscode.lm.registerLanguageModelChatProvider('mcp-lens-test', {
      provideLanguageModelChatInformation: async () => [
        {
          id: 'quiet',
          name: 'MCP Lens e2e model',
          family: 'e2e',
          version: '1',
          maxInputTokens: 100000,
          maxOutputTokens: 1000,
          capabilities: { toolCalling: true },
          isDefault: true,
          isUserSelectable: true,
        },
      ],
      provideLanguageModelChatResponse: async (_model, _messages, _options, progress) => {
        progress.report(new vscode.LanguageModelTextPart('ok'));
      },
      provideTokenCount: async (_model, text) => (typeof text === 'string' ? text.length : 1),
    }),
    vscode.chat.createChatParticipant('mcp-lens-test.apps', async (request, _context, stream, token) => {
      await vscode.commands.executeCommand('workbench.mcp.startServer', LENS_SERVER, { waitForLiveTools: true });
      // The last word: a sticky participant's name may come again in the prompt.
      const tool = await lensTool(request.prompt.trim().split(/\s+/).pop() ?? '', token);
      await vscode.lm.invokeTool(tool.name, { input: {}, toolInvocationToken: request.toolInvocationToken }, token);
      stream.markdown(`called ${tool.name}`);
    }),
  );
};
