/**
 * Savings: baseline vs exposed tokens, savings request by request, per-server token cost. One
 * meaning of "saved" (TokenStats): per request and in total, each said in one line beside it.
 */
import {
  perRequestMeaning,
  plural,
  pluralNoun,
  tokenChange,
  tokenCostReason,
  totalFigure,
  totalMeaning,
} from '../../../protocol/figureText';
import type { LensStats } from '../../../protocol/model';
import { baselineBars, rankedBars, savingsChart, seriesFromHistory } from '../charts/charts';
import { card, formatTokens, h, replaceChildren } from '../dom';
import { codeModeSavings } from './codeModeSavings';

export class SavingsView {
  readonly element = card('savings', 'Token savings', true);
  private readonly body = h('div');

  constructor() {
    this.element.append(this.body);
    replaceChildren(this.body, h('div', { class: 'empty' }, 'Loading…'));
  }

  update(stats: LensStats): void {
    const t = stats.tokens;
    const change = tokenChange(t);
    const cost = change.kind === 'cost';
    const kpis = kpiRow(stats);
    const series = seriesFromHistory(t.history);
    const overTime = series.length
      ? h(
          'div',
          {},
          savingsChart(series),
          h(
            'div',
            { class: 'legend' },
            h('span', {}, h('span', { class: 'swatch green' }), 'running total'),
            h(
              'span',
              {},
              h('span', { class: 'swatch blue' }),
              'each request: a tool call saves, a search costs (below 0)',
            ),
          ),
        )
      : h('div', { class: 'empty' }, 'No agent requests through MCP Lens yet.');
    const perServer = t.perServer.length
      ? rankedBars(t.perServer.map((s) => ({ label: s.server, value: s.tokens, detail: plural(s.tools, 'tool') })))
      : h('div', { class: 'empty' }, 'No servers with tools.');
    replaceChildren(
      this.body,
      kpis,
      h(
        'ul',
        { class: 'meanings muted' },
        h('li', { attrs: { 'data-meaning': 'per-request' } }, perRequestMeaning(t, stats.exposure)),
        h('li', { attrs: { 'data-meaning': 'total' } }, totalMeaning(t)),
      ),
      cost && h('p', { class: 'cost-note' }, tokenCostReason(stats.exposure)),
      h(
        'div',
        { class: 'savings-grid' },
        h(
          'div',
          {},
          h('h3', {}, 'Tool definitions per request'),
          baselineBars(t),
          h('h3', {}, 'Token cost per server'),
          perServer,
        ),
        h('div', {}, h('h3', {}, 'Tokens saved, agent request by request'), overTime),
      ),
      codeModeSavings(t),
    );
  }
}

/** A figure and its label; `ariaLabel` where the two read badly together ("+21.1%" "more tokens…"). */
function kpi(id: string, value: string, label: string, tone?: 'good' | 'cost', ariaLabel?: string): HTMLElement {
  const attrs: Record<string, string> = { 'data-kpi': id };
  if (ariaLabel) Object.assign(attrs, { role: 'group', 'aria-label': ariaLabel });
  if (tone) attrs['data-tone'] = tone;
  return h(
    'div',
    { class: 'kpi', attrs },
    h('div', { class: tone ? `value ${tone}` : 'value' }, value),
    h('div', { class: 'label' }, label),
  );
}

/** The four figures, each with its unit in its label. A cost is worded and coloured as one ("+21.1% more"), never as a negative saving. */
function kpiRow(stats: LensStats): HTMLElement {
  const t = stats.tokens;
  const change = tokenChange(t);
  const cost = change.kind === 'cost';
  const total = totalFigure(t);
  return h(
    'div',
    { class: 'kpis' },
    cost
      ? kpi(
          'percent',
          `+${change.percent}`,
          'more tokens in every request',
          'cost',
          `Cost: ${change.percent} more tokens in every request than without MCP Lens`,
        )
      : kpi(
          'percent',
          change.percent,
          `${change.comparative} tokens in every request`,
          change.kind === 'saving' ? 'good' : undefined,
        ),
    cost
      ? kpi(
          'per-request',
          formatTokens(change.tokens),
          `tokens added to every request (${stats.exposure} mode)`,
          'cost',
        )
      : kpi('per-request', formatTokens(change.tokens), `tokens saved per request (${stats.exposure} mode)`),
    kpi('total', total.value, total.label, total.cost ? 'cost' : undefined),
    kpi('tools', `${stats.tools}`, `${pluralNoun(stats.tools, 'tool')} from ${plural(stats.servers, 'server')}`),
  );
}
