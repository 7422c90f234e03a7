/**
 * Post-processing of the SVG Graphviz draws: strip anything active, then map
 * each `g.node` (its `<title>` is the Graphviz node name, which is the JSON node
 * id) to its view model: colour class, findings badge, tooltip, click target.
 *
 * Text goes in with `textContent` only. Labels are user data.
 */

import type { Location } from '../shared/protocol';
import type { GraphView, NodeView } from './viewModel';

const SVG_NS = 'http://www.w3.org/2000/svg';
const XLINK_NS = 'http://www.w3.org/1999/xlink';

/** Elements that could load or run something; Graphviz has no business emitting them. */
const FORBIDDEN = ['script', 'foreignObject', 'iframe', 'object', 'embed', 'image', 'use', 'style', 'animate', 'set', 'handler'];

/**
 * Remove scripts, external references, event handlers and links. Graphviz
 * wraps nodes with a `tooltip` or `URL` in `<a>`: those become plain `<g>`.
 */
export function sanitizeSvg(svg: SVGSVGElement): void {
  for (const name of FORBIDDEN) {
    svg.querySelectorAll(name).forEach((el) => el.remove());
  }
  svg.querySelectorAll('a').forEach((a) => {
    const g = document.createElementNS(SVG_NS, 'g');
    while (a.firstChild) {
      g.appendChild(a.firstChild);
    }
    a.replaceWith(g);
  });
  for (const el of [svg, ...Array.from(svg.querySelectorAll('*'))]) {
    for (const attr of Array.from(el.attributes)) {
      const name = attr.name.toLowerCase();
      if (name.startsWith('on') || name === 'href' || name === 'xlink:href' || name === 'style' || attr.namespaceURI === XLINK_NS) {
        el.removeAttributeNS(attr.namespaceURI, attr.localName);
      }
    }
  }
}

function svgEl<K extends keyof SVGElementTagNameMap>(name: K, attrs: Record<string, string | number>): SVGElementTagNameMap[K] {
  const el = document.createElementNS(SVG_NS, name);
  for (const [k, v] of Object.entries(attrs)) {
    el.setAttribute(k, String(v));
  }
  return el;
}

function addBadge(g: SVGGElement, view: NodeView): void {
  const box = g.getBBox();
  const r = 9;
  const badge = svgEl('g', { class: `tw-badge tw-sev-${view.severity ?? 'warning'}` });
  badge.appendChild(svgEl('circle', { cx: box.x + box.width, cy: box.y, r }));
  const text = svgEl('text', { x: box.x + box.width, y: box.y, 'text-anchor': 'middle', 'dominant-baseline': 'central' });
  text.textContent = view.badge;
  badge.appendChild(text);
  const title = svgEl('title', {});
  title.textContent = view.tooltip;
  badge.appendChild(title);
  g.appendChild(badge);
}

/**
 * Apply the view model to a rendered (and attached: badges need layout)
 * SVG. Returns the number of nodes matched to the JSON graph.
 */
export function decorateSvg(svg: SVGSVGElement, view: GraphView, onNavigate: (target: Location, node: NodeView) => void): number {
  // Graphviz paints the page white first: the theme's background shows instead.
  svg.querySelector('g.graph polygon')?.classList.add('tw-background');
  let matched = 0;
  svg.querySelectorAll<SVGGElement>('g.node').forEach((g) => {
    const title = g.querySelector(':scope > title');
    const id = title?.textContent?.trim() ?? '';
    const node = view.nodes.get(id);
    if (!title || !node) {
      return;
    }
    matched++;
    g.dataset.nodeId = node.id;
    g.classList.add('tw-node', `tw-${node.kind}`, `tw-tone-${node.tone}`);
    g.querySelector('ellipse, polygon, path, rect')?.classList.add('tw-shape');
    title.textContent = node.tooltip;
    if (node.badge) {
      g.classList.add('tw-has-finding', `tw-sev-${node.severity ?? 'warning'}`);
      addBadge(g, node);
    }
    // Every node takes the focus (Tab, arrows: main.ts); Enter on one with a place opens it, as a click does.
    g.setAttribute('tabindex', '0');
    g.setAttribute('aria-label', node.tooltip.split('\n')[0]);
    const target = node.target;
    if (target) {
      g.classList.add('tw-navigable');
      g.setAttribute('role', 'link');
      g.addEventListener('click', () => onNavigate(target, node));
      g.addEventListener('keydown', (e) => {
        if (e.key === 'Enter' || e.key === ' ') {
          e.preventDefault();
          onNavigate(target, node);
        }
      });
    } else {
      g.setAttribute('role', 'img');
    }
  });
  return matched;
}
