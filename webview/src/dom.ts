/**
 * Element builders. Every piece of text goes in as a text node: tool names, descriptions,
 * errors and stderr come from third-party servers and must never be parsed as HTML. There is
 * deliberately no way to pass markup here.
 */

import { stripControls } from '../../protocol/untrustedText';

export type Child = Node | string | number | null | undefined | false;

export interface ElementOptions {
  class?: string;
  attrs?: Record<string, string>;
  on?: { [K in keyof HTMLElementEventMap]?: (event: HTMLElementEventMap[K]) => void };
}

/** `h('div', { class: 'x' }, 'text', child)`: text children become text nodes. */
export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  options: ElementOptions = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  if (options.class) el.className = options.class;
  for (const [k, v] of Object.entries(options.attrs ?? {})) el.setAttribute(k, v);
  for (const [type, listener] of Object.entries(options.on ?? {})) {
    el.addEventListener(type, listener as EventListener);
  }
  append(el, children);
  return el;
}

export function append(parent: Node, children: Child[]): void {
  for (const c of children) {
    if (c === null || c === undefined || c === false) continue;
    // Text nodes already keep markup inert; stripping controls also stops bidi overrides from
    // making a description read differently from what it is.
    parent.appendChild(
      typeof c === 'string'
        ? document.createTextNode(stripControls(c))
        : typeof c === 'number'
          ? document.createTextNode(String(c))
          : c,
    );
  }
}

/** A dashboard card: a section labelled by its own heading; the view appends the rest. */
export function card(id: string, title: string, wide = false): HTMLElement {
  return h(
    'section',
    { class: wide ? 'card wide' : 'card', attrs: { id, 'aria-labelledby': `${id}-h` } },
    h('h2', { attrs: { id: `${id}-h` } }, title),
  );
}

/** Replaces every child of `parent`. */
export function replaceChildren(parent: Element, ...children: Child[]): void {
  while (parent.firstChild) parent.removeChild(parent.firstChild);
  append(parent, children);
}

const SVG_NS = 'http://www.w3.org/2000/svg';

/** An SVG element with attributes set one by one (no markup parsing). */
export function svg<K extends keyof SVGElementTagNameMap>(
  tag: K,
  attrs: Record<string, string | number> = {},
  ...children: Child[]
): SVGElementTagNameMap[K] {
  const el = document.createElementNS(SVG_NS, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  append(el, children);
  return el;
}

/** 12,345 → "12,345"; 1_234_567 → "1.2M". */
export function formatTokens(n: number): string {
  if (Math.abs(n) >= 1_000_000) return `${(n / 1_000_000).toFixed(1)}M`;
  return Math.round(n).toLocaleString('en-US');
}

export function formatTime(epochMs: number | undefined): string {
  if (!epochMs) return 'never';
  const d = new Date(epochMs);
  return d.toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit', second: '2-digit' });
}
