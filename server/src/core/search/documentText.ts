/**
 * The text a vector embedder embeds for one tool. Names are split into words (embedders read
 * `take screenshot`, not `browser_take_screenshot`), the description follows, then the server
 * (the product or domain) and the parameter names, which say what the tool acts on.
 *
 * Not measured with a real embedding model yet (README, "Hybrid search"), so this follows what
 * the keyword ablation showed matters (name words and server words carry the
 * most signal; parameter text is weak, so only names, not their long descriptions) and keeps
 * the text short, since long inputs dilute a mean-pooled embedding.
 */
import type { CatalogTool } from '../catalog';
import { identifierWords } from './tokenize';

/** At most this many characters of description: the first sentences carry the purpose. */
const MAX_DESCRIPTION = 1000;

export function embeddingText(tool: CatalogTool, serverDescription?: string): string {
  const name = identifierWords(tool.title ? `${tool.originalName} ${tool.title}` : tool.originalName).join(' ');
  const server = identifierWords(tool.server).join(' ');
  const props = (tool.inputSchema as { properties?: unknown }).properties;
  const params =
    props && typeof props === 'object' ? Object.keys(props as object).map((p) => identifierWords(p).join(' ')) : [];
  const lines = [`${name}: ${tool.description.trim().slice(0, MAX_DESCRIPTION)}`];
  lines.push(serverDescription ? `server: ${server} (${serverDescription.trim().slice(0, 200)})` : `server: ${server}`);
  if (params.length > 0) lines.push(`parameters: ${params.join(', ')}`);
  return lines.join('\n');
}
