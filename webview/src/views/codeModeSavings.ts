/**
 * The savings card's code mode and shaping part: what run_code scripts and select /
 * max_output_tokens kept out of the model's context, and the cut results kept whole for
 * their session (mcp-lens://results/<id>; the dashboard shows their size, never content).
 */
import { plural } from '../../../protocol/figureText';
import type { TokenStats } from '../../../protocol/model';
import { formatTime, formatTokens, h } from '../dom';

export function codeModeSavings(t: TokenStats): HTMLElement {
  const code = t.codeMode ?? { runs: 0, innerCalls: 0, savedTokens: 0 };
  const shaping = t.shaping ?? { results: 0, savedTokens: 0 };
  const kept = t.keptResults ?? [];
  const lines = h(
    'ul',
    { class: 'code-mode' },
    h(
      'li',
      {},
      `run_code: ${plural(code.runs, 'script')} made ${plural(code.innerCalls, 'tool call')} whose results stayed out of the context: ${formatTokens(code.savedTokens)} tokens saved.`,
    ),
    h(
      'li',
      {},
      `Result shaping (select, max_output_tokens): ${plural(shaping.results, 'result')} narrowed or cut: ${formatTokens(shaping.savedTokens)} tokens saved.`,
    ),
  );
  const keptList = kept.length
    ? h(
        'ul',
        { class: 'kept-results' },
        ...kept
          .slice(0, 20)
          .map((r) =>
            h(
              'li',
              {},
              h('code', {}, r.uri),
              ` ${r.tool}: ${formatTokens(r.tokens)} tokens, ${formatTime(r.createdAt)}`,
            ),
          ),
      )
    : h('div', { class: 'empty' }, 'No cut results kept.');
  return h(
    'div',
    {},
    h('h3', {}, 'Code mode and result shaping'),
    lines,
    h('h3', {}, 'Kept results (whole, for their session)'),
    keptList,
  );
}
