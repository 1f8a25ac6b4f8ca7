/**
 * Small inline-SVG charts built with DOM calls. Colors come from CSS classes so the theme
 * (VS Code variables or the browser palette) decides them; labels are text nodes.
 */
import { tokenChange } from '../../../protocol/figureText';
import { formatTokens, h, svg } from '../dom';

/** Two horizontal bars: what clients would pay without MCP Lens, and what they pay with it (a cost when more). */
export function baselineBars(tokens: {
  baselineTokens: number;
  exposedTokens: number;
  savingsPercent: number;
}): HTMLElement {
  const { baselineTokens: baseline, exposedTokens: exposed } = tokens;
  const change = tokenChange(tokens);
  const max = Math.max(baseline, exposed, 1);
  const row = (label: string, value: number, cls: string) =>
    h(
      'div',
      { class: 'bar-row' },
      h('span', { class: 'bar-label' }, label),
      h('span', { class: 'bar-track' }, barFill(value / max, cls)),
      h('span', { class: 'bar-value' }, `${formatTokens(value)} tokens`),
    );
  return h(
    'div',
    {
      class: 'bars',
      attrs: {
        role: 'img',
        'aria-label': `Tool definitions per request: ${formatTokens(baseline)} tokens without MCP Lens, ${formatTokens(exposed)} with it (${change.kind === 'even' ? 'the same' : `${change.percent} ${change.comparative}`})`,
      },
    },
    row('Without MCP Lens', baseline, 'fill-baseline'),
    row('With MCP Lens', exposed, change.kind === 'cost' ? 'fill-cost' : 'fill-exposed'),
  );
}

/** A bar whose length is a fraction of its track, as an SVG rect so no inline style is needed. */
function barFill(fraction: number, cls: string): SVGSVGElement {
  const pct = Math.max(0, Math.min(1, fraction)) * 100;
  return svg(
    'svg',
    { class: 'bar-svg', viewBox: '0 0 100 10', preserveAspectRatio: 'none', 'aria-hidden': 'true' },
    svg('rect', { class: cls, x: 0, y: 0, width: pct.toFixed(2), height: 10, rx: 1 }),
  );
}

/** Horizontal bars, heaviest first: per-server token cost. */
export function rankedBars(items: { label: string; value: number; detail?: string }[]): HTMLElement {
  const sorted = [...items].sort((a, b) => b.value - a.value);
  const max = Math.max(1, ...sorted.map((i) => i.value));
  return h(
    'div',
    { class: 'bars ranked' },
    ...sorted.map((i) =>
      h(
        'div',
        { class: 'bar-row' },
        h('span', { class: 'bar-label', attrs: { title: i.label } }, i.label),
        h('span', { class: 'bar-track' }, barFill(i.value / max, 'fill-server')),
        h('span', { class: 'bar-value' }, `${formatTokens(i.value)}${i.detail ? ` · ${i.detail}` : ''}`),
      ),
    ),
  );
}

export interface SeriesPoint {
  at: number;
  perCall: number;
  cumulative: number;
}

const W = 600;
const H = 190;
const PAD = { left: 64, right: 16, top: 22, bottom: 26 };

/**
 * The running total of tokens saved as a line, each agent request's own figure as a dot (a search
 * below 0: it costs), over the agent's requests in order. The y-axis says its unit; the x-axis
 * names the first and last request (one label when there is one request).
 */
export function savingsChart(points: SeriesPoint[]): SVGSVGElement {
  const last = points.at(-1);
  const chart = svg('svg', {
    class: 'line-chart',
    viewBox: `0 0 ${W} ${H}`,
    role: 'img',
    'aria-label': `Tokens saved over ${points.length} agent ${points.length === 1 ? 'request' : 'requests'}: ${formatTokens(last?.cumulative ?? 0)} in total`,
  });
  const values = points.flatMap((p) => [p.cumulative, p.perCall]);
  const maxY = Math.max(1, ...values);
  const minY = Math.min(0, ...values);
  const x = (i: number) => PAD.left + (points.length <= 1 ? 0 : (i / (points.length - 1)) * (W - PAD.left - PAD.right));
  const y = (v: number) => H - PAD.bottom - ((v - minY) / (maxY - minY)) * (H - PAD.top - PAD.bottom);
  const ticks = minY < 0 ? [0, maxY, minY] : [0, maxY / 2, maxY];
  const labelled: number[] = [];
  for (const v of ticks) {
    chart.appendChild(
      svg('line', { class: v === 0 ? 'grid zero' : 'grid', x1: PAD.left, x2: W - PAD.right, y1: y(v), y2: y(v) }),
    );
    // A label too close to one already drawn would print over it.
    if (labelled.some((at) => Math.abs(at - y(v)) < 12)) continue;
    labelled.push(y(v));
    chart.appendChild(
      svg('text', { class: 'axis', x: PAD.left - 6, y: y(v) + 4, 'text-anchor': 'end' }, formatTokens(v)),
    );
  }
  chart.appendChild(svg('text', { class: 'axis unit', x: 4, y: 12 }, 'tokens saved'));
  if (points.length > 0) {
    const line = points.map((p, i) => `${x(i).toFixed(1)},${y(p.cumulative).toFixed(1)}`);
    const area = `M${x(0).toFixed(1)},${y(0)} L${line.join(' L')} L${x(points.length - 1).toFixed(1)},${y(0)} Z`;
    chart.appendChild(svg('path', { class: 'area', d: area }));
    chart.appendChild(svg('polyline', { class: 'line', points: line.join(' ') }));
    points.forEach((p, i) => {
      const dot = svg('circle', { class: 'dot', cx: x(i), cy: y(p.perCall), r: 3 });
      const what = p.perCall < 0 ? `cost ${formatTokens(-p.perCall)}` : `saved ${formatTokens(p.perCall)}`;
      dot.appendChild(svg('title', {}, `agent request ${i + 1}: ${what} tokens`));
      chart.appendChild(dot);
    });
  }
  const axisY = H - 8;
  if (points.length <= 1) {
    chart.appendChild(svg('text', { class: 'axis', x: PAD.left, y: axisY }, 'agent request 1'));
  } else {
    chart.appendChild(svg('text', { class: 'axis', x: PAD.left, y: axisY }, 'agent request 1'));
    chart.appendChild(
      svg('text', { class: 'axis', x: W - PAD.right, y: axisY, 'text-anchor': 'end' }, `request ${points.length}`),
    );
  }
  return chart;
}

/** Turns the stats history into per-call and running totals. */
export function seriesFromHistory(history: { at: number; savedTokens: number }[]): SeriesPoint[] {
  let total = 0;
  return history.map((p) => {
    total += p.savedTokens;
    return { at: p.at, perCall: p.savedTokens, cumulative: total };
  });
}
